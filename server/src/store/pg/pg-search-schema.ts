/*
 * The search index on PostgreSQL (issue 13), written with the papers as SQLite's is: each paper's terms as
 * core's tokenizer gives them (search-index-schema.ts: paperTerms), space-separated per column, so both
 * engines match the same words; a stored tsvector over them, weighted title A, authors B, abstract C as
 * core's field boosts rank them, with positions for phrase queries; and the vocabulary with the number of
 * papers holding each word (typo correction looks it up through pg_trgm; ranking reads the counts).
 * Queries use the 'simple' configuration, which keeps a term as it is: core has already folded, split and
 * joined them.
 *
 * pg_trgm is a trusted extension (PostgreSQL 13+): the database's owner may create it.
 */
export const CREATE_SEARCH_INDEX = `
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- A column's terms as lexemes with their positions, taken as they are: PostgreSQL's parser would read some
-- of core's terms otherwise (it splits "4e4b4bit" into the number "4e4" and "b4bit").
CREATE FUNCTION quire_terms_vector(terms text, weight "char") RETURNS tsvector
IMMUTABLE PARALLEL SAFE LANGUAGE sql AS $$
  SELECT setweight(coalesce(string_agg(
    '''' || replace(replace(t, '\\', '\\\\'), '''', '''''') || ''':' || least(i, 16383), ' ')::tsvector,
    ''::tsvector), weight)
  FROM unnest(string_to_array(terms, ' ')) WITH ORDINALITY AS u (t, i) WHERE t <> ''
$$;

CREATE TABLE paper_search (
  paper_id text COLLATE "C" PRIMARY KEY REFERENCES papers (id) ON DELETE CASCADE,
  title    text NOT NULL,
  authors  text NOT NULL,
  abstract text NOT NULL,
  doc      tsvector GENERATED ALWAYS AS (
    quire_terms_vector(title, 'A') || quire_terms_vector(authors, 'B') || quire_terms_vector(abstract, 'C')) STORED
);
CREATE INDEX paper_search_doc ON paper_search USING gin (doc);

CREATE TABLE search_words (
  word   text COLLATE "C" PRIMARY KEY,
  papers integer NOT NULL
);
CREATE INDEX search_words_similar ON search_words USING gin (word gin_trgm_ops);

-- Each word's papers, moved set-wise per statement as papers' terms are written, replaced or removed.
CREATE FUNCTION quire_move_search_words(moves jsonb) RETURNS void LANGUAGE sql AS $$
  INSERT INTO search_words (word, papers)
  SELECT m ->> 0, (m ->> 1)::integer FROM jsonb_array_elements(moves) m
  ON CONFLICT (word) DO UPDATE SET papers = search_words.papers + excluded.papers;
  DELETE FROM search_words w USING jsonb_array_elements(moves) m WHERE w.word = m ->> 0 AND w.papers <= 0;
$$;

CREATE FUNCTION quire_search_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM quire_move_search_words(coalesce((
    SELECT jsonb_agg(jsonb_build_array(word, k)) FROM (
      SELECT word, count(*) AS k FROM new_rows, unnest(tsvector_to_array(doc)) AS word GROUP BY word) g),
    '[]'));
  RETURN NULL;
END $$;

CREATE FUNCTION quire_search_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM quire_move_search_words(coalesce((
    SELECT jsonb_agg(jsonb_build_array(word, -k)) FROM (
      SELECT word, count(*) AS k FROM old_rows, unnest(tsvector_to_array(doc)) AS word GROUP BY word) g),
    '[]'));
  RETURN NULL;
END $$;

CREATE FUNCTION quire_search_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM quire_move_search_words(coalesce((
    SELECT jsonb_agg(jsonb_build_array(word, k)) FROM (
      SELECT word, sum(k)::integer AS k FROM (
        SELECT word, -1 AS k FROM old_rows, unnest(tsvector_to_array(doc)) AS word
        UNION ALL
        SELECT word, 1 FROM new_rows, unnest(tsvector_to_array(doc)) AS word) d
      GROUP BY word HAVING sum(k) <> 0) g),
    '[]'));
  RETURN NULL;
END $$;

CREATE TRIGGER paper_search_inserted AFTER INSERT ON paper_search REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION quire_search_inserted();
CREATE TRIGGER paper_search_deleted AFTER DELETE ON paper_search REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION quire_search_deleted();
CREATE TRIGGER paper_search_updated AFTER UPDATE ON paper_search
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION quire_search_updated();
`;

/** A batch's terms in one statement (parallel arrays), replacing a paper's old ones. */
export const UPSERT_PAPER_TERMS = `
INSERT INTO paper_search (paper_id, title, authors, abstract)
SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[])
ON CONFLICT (paper_id) DO UPDATE SET title = excluded.title, authors = excluded.authors,
  abstract = excluded.abstract
WHERE (paper_search.title, paper_search.authors, paper_search.abstract)
  IS DISTINCT FROM (excluded.title, excluded.authors, excluded.abstract)`;

/**
 * A cat: filter reads the papers of a category, or of an archive ("cs" holds "cs.LG"), through these
 * (pg-search-queries.ts: CATEGORY_FILTER) rather than testing every paper's categories: the query
 * lowercases what it asks for, the rows keep arXiv's spelling.
 */
export const CREATE_CATEGORY_LOOKUPS = `
CREATE INDEX paper_categories_lower ON paper_categories (lower(category), paper_id);
CREATE INDEX paper_categories_archive ON paper_categories (lower(split_part(category, '.', 1)), paper_id);
`;

/**
 * The categories' lookup made covering (issue 13, at 10x): with the category itself in the index, a filter of
 * categories alone is read by an index-only scan (pg-search-queries.ts: CATEGORY_FILTER without archives) instead of
 * every matching row's table page. Same key, so it replaces the old lookup (0.7 s at 10x).
 */
export const COVERING_CATEGORY_LOOKUP = `
SET LOCAL maintenance_work_mem = '256MB';
DROP INDEX paper_categories_lower;
CREATE INDEX paper_categories_lower ON paper_categories (lower(category), paper_id) INCLUDE (category);
`;

/**
 * The index's paper count and each column's terms summed, kept by the triggers that keep search_words
 * (redefined once, with the per-column word counts, in SEARCH_WORDS_PER_COLUMN: one migration step), so
 * ranking reads them in one row (pg-search-queries.ts: INDEXED_PAPERS, AVERAGE_TERMS) instead of a pass
 * over every paper: count(*) cost 3-12 ms at 1x on every search, the mean terms 430 ms on the first.
 * The totals are moved first in each statement's trigger, so a writer waiting for another's totals holds
 * no word's row yet (no deadlock over search_words).
 */
export const CREATE_SEARCH_TOTALS = `
CREATE FUNCTION quire_terms_in(terms text) RETURNS bigint IMMUTABLE PARALLEL SAFE LANGUAGE sql AS $$
  SELECT coalesce(cardinality(string_to_array(nullif(terms, ''), ' ')), 0)::bigint
$$;

CREATE TABLE search_totals (
  only_row       boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  papers         bigint NOT NULL,
  title_terms    bigint NOT NULL,
  authors_terms  bigint NOT NULL,
  abstract_terms bigint NOT NULL
);
INSERT INTO search_totals (papers, title_terms, authors_terms, abstract_terms)
SELECT count(*), coalesce(sum(quire_terms_in(title)), 0), coalesce(sum(quire_terms_in(authors)), 0),
  coalesce(sum(quire_terms_in(abstract)), 0)
FROM paper_search;

-- Sums of bigints are numeric; a statement that moved no rows passes nulls and moves nothing.
CREATE FUNCTION quire_move_search_totals(papers numeric, title numeric, authors numeric, abstract numeric)
RETURNS void LANGUAGE sql AS $$
  UPDATE search_totals t SET papers = t.papers + coalesce($1, 0), title_terms = t.title_terms + coalesce($2, 0),
    authors_terms = t.authors_terms + coalesce($3, 0), abstract_terms = t.abstract_terms + coalesce($4, 0)
$$;
`;

/**
 * Each word's papers per column besides in any, kept by the same triggers, so the re-ranking's counts per
 * column (pg-search-queries.ts: COLUMN_VOCABULARY) are one lookup instead of a pass over every paper holding
 * the word, testing each vector's weights (135 ms for "task" at 1x, on every search right after start).
 * A lexeme's weights in a vector say its columns: title A, authors B, abstract C.
 */
export const SEARCH_WORDS_PER_COLUMN = `
ALTER TABLE search_words ADD COLUMN title_papers integer NOT NULL DEFAULT 0,
  ADD COLUMN authors_papers integer NOT NULL DEFAULT 0, ADD COLUMN abstract_papers integer NOT NULL DEFAULT 0;

UPDATE search_words w SET title_papers = c.a, authors_papers = c.b, abstract_papers = c.c
FROM (
  SELECT lexeme, count(*) FILTER (WHERE 'A' = ANY(weights)) AS a, count(*) FILTER (WHERE 'B' = ANY(weights)) AS b,
    count(*) FILTER (WHERE 'C' = ANY(weights)) AS c
  FROM paper_search, unnest(doc) GROUP BY lexeme) c
WHERE w.word = c.lexeme;

-- A statement's rows' words: how many papers hold each, in all and per column, times the sign.
CREATE FUNCTION quire_word_moves(docs tsvector[], sign integer) RETURNS jsonb STABLE LANGUAGE sql AS $$
  SELECT coalesce(jsonb_agg(jsonb_build_array(lexeme, sign * k, sign * a, sign * b, sign * c)), '[]')
  FROM (
    SELECT u.lexeme, count(*) AS k, count(*) FILTER (WHERE 'A' = ANY(u.weights)) AS a,
      count(*) FILTER (WHERE 'B' = ANY(u.weights)) AS b, count(*) FILTER (WHERE 'C' = ANY(u.weights)) AS c
    FROM unnest(docs) AS d (doc), unnest(d.doc) AS u GROUP BY u.lexeme) g
$$;

CREATE OR REPLACE FUNCTION quire_move_search_words(moves jsonb) RETURNS void LANGUAGE sql AS $$
  INSERT INTO search_words (word, papers, title_papers, authors_papers, abstract_papers)
  SELECT m ->> 0, (m ->> 1)::integer, coalesce((m ->> 2)::integer, 0), coalesce((m ->> 3)::integer, 0),
    coalesce((m ->> 4)::integer, 0)
  FROM jsonb_array_elements(moves) m
  ON CONFLICT (word) DO UPDATE SET papers = search_words.papers + excluded.papers,
    title_papers = search_words.title_papers + excluded.title_papers,
    authors_papers = search_words.authors_papers + excluded.authors_papers,
    abstract_papers = search_words.abstract_papers + excluded.abstract_papers;
  DELETE FROM search_words w USING jsonb_array_elements(moves) m WHERE w.word = m ->> 0 AND w.papers <= 0;
$$;

CREATE OR REPLACE FUNCTION quire_search_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM quire_move_search_totals(count(*), sum(quire_terms_in(title)), sum(quire_terms_in(authors)),
    sum(quire_terms_in(abstract)))
  FROM new_rows;
  PERFORM quire_move_search_words(quire_word_moves(ARRAY(SELECT doc FROM new_rows), 1));
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION quire_search_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM quire_move_search_totals(-count(*), -sum(quire_terms_in(title)), -sum(quire_terms_in(authors)),
    -sum(quire_terms_in(abstract)))
  FROM old_rows;
  PERFORM quire_move_search_words(quire_word_moves(ARRAY(SELECT doc FROM old_rows), -1));
  RETURN NULL;
END $$;

-- A changed paper's words moved as its old ones out and its new ones in: the moves summed per word.
CREATE OR REPLACE FUNCTION quire_search_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM quire_move_search_totals(0,
    sum(quire_terms_in(title)) - (SELECT sum(quire_terms_in(title)) FROM old_rows),
    sum(quire_terms_in(authors)) - (SELECT sum(quire_terms_in(authors)) FROM old_rows),
    sum(quire_terms_in(abstract)) - (SELECT sum(quire_terms_in(abstract)) FROM old_rows))
  FROM new_rows;
  PERFORM quire_move_search_words(coalesce((
    SELECT jsonb_agg(jsonb_build_array(w, k, a, b, c)) FROM (
      SELECT m ->> 0 AS w, sum((m ->> 1)::integer) AS k, sum((m ->> 2)::integer) AS a,
        sum((m ->> 3)::integer) AS b, sum((m ->> 4)::integer) AS c
      FROM jsonb_array_elements(quire_word_moves(ARRAY(SELECT doc FROM old_rows), -1)
        || quire_word_moves(ARRAY(SELECT doc FROM new_rows), 1)) m
      GROUP BY m ->> 0
      HAVING sum((m ->> 1)::integer) <> 0 OR sum((m ->> 2)::integer) <> 0 OR sum((m ->> 3)::integer) <> 0
        OR sum((m ->> 4)::integer) <> 0) g),
    '[]'));
  RETURN NULL;
END $$;
`;

/**
 * The index's rows made narrow, and the titles' terms in a vector of their own (issue 13, at 10x). A row
 * held its three columns' terms and its vector inline or partly so (1.5 KiB, five rows a page): finding a
 * common word's newest matches read every matching row's page (27,000 pages for "optimization"), 200-800 ms.
 * With `toast_tuple_target` at its least, a row over the toast threshold (~2 KiB raw: most papers') has its
 * terms and vector moved out of line (TOAST) and keeps its id and pointers, about 300 bytes: the same
 * matches read a fifth of the pages, from shared buffers.
 * The title's vector stays in the row (storage MAIN), with a GIN index, so a title-only match (the title
 * candidates FtsSearch adds when many papers match) is tested and ranked on it without reading the whole
 * vector out of TOAST: `word:A` against `doc` reads every matching paper's vector to check its weights
 * (600 ms for "optimization" at 10x). The ALTER rewrites the table, so existing rows move too.
 */
export const SEARCH_TITLE_VECTOR = `
-- The rewrite rebuilds the vectors' GIN index: with more memory it merges fewer runs.
SET LOCAL maintenance_work_mem = '256MB';
-- One statement, so the rewrite it makes already keeps the title's vector in the row.
ALTER TABLE paper_search SET (toast_tuple_target = 128),
  ADD COLUMN title_doc tsvector GENERATED ALWAYS AS (quire_terms_vector(title, 'A')) STORED,
  ALTER COLUMN title_doc SET STORAGE MAIN;
CREATE INDEX paper_search_title ON paper_search USING gin (title_doc);
`;
