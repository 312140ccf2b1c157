/*
 * Each word's papers as rows of their own (issue 13, at 10x): a posting per (word, paper) with how often the
 * paper's vector holds the word in each column and the vector's length, kept by triggers on paper_search
 * as its rows are written, changed and removed. Ranking a common word's newest matches read each one's
 * whole vector out of TOAST (65 µs a paper at 10x under load: 500 a search were most of a 150 ms search);
 * the primary key's order (word, then id) hands the newest matches of a word to an index-only scan, and
 * the counts give ts_rank's score without the vector (QUIRE_RANK). A phrase asked of several columns is
 * matched from the positions each posting holds (pg-search-positions.ts); a phrase of one column and a
 * negation still read the vector (pg-search-queries.ts: RANKED_WINDOW); the postings serve matches made
 * of words (pg-search-postings-window.ts).
 */

/**
 * Σ 1/k² for k = 1..n, for n up to a lexeme's 256 positions (the most a tsvector keeps): ts_rank's sum over a
 * word's positions, whose weights run title, then authors, then abstract (the vector is the three columns'
 * vectors concatenated, each shifted past the one before).
 */
const INVERSE_SQUARES = Array.from({ length: 257 }, (_, n) => {
  let sum = 0;
  for (let k = 1; k <= n; k++) sum += 1 / (k * k);
  return sum;
});

/**
 * ts_rank(weights, vector, word, 1) (PostgreSQL's calc_rank_or, normalised by log2 of the vector's length)
 * for a word the vector holds `a`, `b`, `c` times as title (A), authors (B) and abstract (C), from the
 * counts alone: the positions' weights in order summed over k², plus the first highest weight counted
 * whole. `w` is ts_rank's weights array, {D, C, B, A}. An inlined SQL function: a plain expression.
 */
const RANK_FUNCTION = `
CREATE FUNCTION quire_inverse_squares(n integer) RETURNS float8 IMMUTABLE PARALLEL SAFE LANGUAGE sql AS $$
  SELECT ('{${INVERSE_SQUARES.map((v) => v.toPrecision(17)).join(',')}}'::float8[])[least(n, 256) + 1]
$$;

-- The highest weight among the columns holding the word: ts_rank counts its first position whole.
CREATE FUNCTION quire_top_weight(w float4[], a integer, b integer, c integer) RETURNS float8
IMMUTABLE PARALLEL SAFE LANGUAGE sql AS $$
  SELECT greatest(CASE WHEN a > 0 THEN w[4] ELSE -1 END, CASE WHEN b > 0 THEN w[3] ELSE -1 END,
    CASE WHEN c > 0 THEN w[2] ELSE -1 END)::float8
$$;

CREATE FUNCTION quire_rank(w float4[], a integer, b integer, c integer, terms integer) RETURNS float4
IMMUTABLE PARALLEL SAFE LANGUAGE sql AS $$
  SELECT CASE WHEN a + b + c = 0 OR terms = 0 THEN 0::float4 ELSE ((
    w[4] * quire_inverse_squares(a) + w[3] * (quire_inverse_squares(a + b) - quire_inverse_squares(a))
      + w[2] * (quire_inverse_squares(a + b + c) - quire_inverse_squares(a + b))
    + quire_top_weight(w, a, b, c) * (1 - 1 / power(CASE
      WHEN a > 0 AND w[4] = quire_top_weight(w, a, b, c) THEN 1
      WHEN b > 0 AND w[3] = quire_top_weight(w, a, b, c) THEN a + 1 ELSE a + b + 1 END, 2)))
    / 1.64493406685 / (ln(terms + 1) / ln(2)))::float4
  END
$$;
`;

export const CREATE_SEARCH_POSTINGS = `
-- Writers wait (readers do not) while the postings are filled: one committing meanwhile would be missed by
-- the fill and by the triggers, which do not exist yet.
LOCK TABLE paper_search IN SHARE ROW EXCLUSIVE MODE;
SET LOCAL maintenance_work_mem = '256MB';
${RANK_FUNCTION}
-- A vector's postings: each lexeme with its positions per column (weights A, B, C) and the vector's length
-- (ts_rank's, every lexeme's positions counted); the title's own length for a match on the title alone.
CREATE FUNCTION quire_postings_of(paper_id text, doc tsvector, title_doc tsvector)
RETURNS TABLE (word text, paper_id text, title smallint, authors smallint, abstract smallint, terms smallint,
  title_terms smallint)
STABLE PARALLEL SAFE LANGUAGE sql AS $$
  SELECT u.lexeme, $1, cardinality(array_positions(u.weights, 'A'))::smallint,
    cardinality(array_positions(u.weights, 'B'))::smallint, cardinality(array_positions(u.weights, 'C'))::smallint,
    least(sum(cardinality(u.positions)) OVER (), 32767)::smallint,
    least(coalesce((SELECT sum(cardinality(t.positions)) FROM unnest($3) t), 0), 32767)::smallint
  FROM unnest($2) u
$$;

-- Vacuumed after every 0.5% more rows (a few thousand papers at 10x, not autovacuum's 20%): a window is read
-- by an index-only scan only where the visibility map has the pages all visible, and the newest papers'
-- postings are the ones read most.
CREATE TABLE search_postings (
  word        text COLLATE "C" NOT NULL,
  paper_id    text COLLATE "C" NOT NULL,
  title       smallint NOT NULL,
  authors     smallint NOT NULL,
  abstract    smallint NOT NULL,
  terms       smallint NOT NULL,
  title_terms smallint NOT NULL
) WITH (autovacuum_vacuum_insert_scale_factor = 0.005);
-- Common words' shares kept for ten times more words than by default: a window read in id order through
-- the key is chosen over reading all of a word's postings only when the planner knows how many it has.
ALTER TABLE search_postings ALTER COLUMN word SET STATISTICS 1000;
-- In the key's order, so a word's postings lie on pages of their own: read through the key before the
-- visibility map has their pages (this step's transaction cannot vacuum), the newest 5,000 of a common
-- word are some 40 pages, not one page each (35,000 for "optimization" at 10x, 400 ms).
INSERT INTO search_postings
SELECT x.* FROM paper_search s, quire_postings_of(s.paper_id, s.doc, s.title_doc) x ORDER BY 1, 2;
-- Built after the fill (a sort, not an insert per row); the counts in the key's leaves, so a window is
-- ranked by an index-only scan.
ALTER TABLE search_postings ADD PRIMARY KEY (word, paper_id) INCLUDE (title, authors, abstract, terms, title_terms);
-- The postings of words in titles on their own, for a match of titles alone (FtsSearch's title candidates):
-- through the key, a common word's newest title matches were found among all its postings (35,590 read for
-- "optimization" at 10x).
CREATE INDEX search_postings_title ON search_postings (word, paper_id) INCLUDE (title, title_terms) WHERE title > 0;
ANALYZE search_postings;

-- A statement's postings written in the key's order too: a word's postings from one batch of papers then
-- share a page or two, which a window reads while the pages are not yet all visible (before autovacuum
-- reaches them), where in the papers' order each was a page of its own (search at 1x right after an
-- import, p95 135 -> 344 ms).
CREATE FUNCTION quire_postings_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO search_postings
  SELECT x.* FROM new_rows n, quire_postings_of(n.paper_id, n.doc, n.title_doc) x ORDER BY 1, 2;
  RETURN NULL;
END $$;

CREATE FUNCTION quire_postings_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM search_postings p USING old_rows o, unnest(tsvector_to_array(o.doc)) w
  WHERE p.word = w AND p.paper_id = o.paper_id;
  RETURN NULL;
END $$;

-- A changed paper's postings replaced whole: its vector's length, in every one, changes with any column.
CREATE FUNCTION quire_postings_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM search_postings p USING old_rows o, unnest(tsvector_to_array(o.doc)) w
  WHERE p.word = w AND p.paper_id = o.paper_id;
  INSERT INTO search_postings
  SELECT x.* FROM new_rows n, quire_postings_of(n.paper_id, n.doc, n.title_doc) x ORDER BY 1, 2;
  RETURN NULL;
END $$;

CREATE TRIGGER paper_search_postings_inserted AFTER INSERT ON paper_search REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION quire_postings_inserted();
CREATE TRIGGER paper_search_postings_deleted AFTER DELETE ON paper_search REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION quire_postings_deleted();
CREATE TRIGGER paper_search_postings_updated AFTER UPDATE ON paper_search
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION quire_postings_updated();
`;

/**
 * TRUNCATE fires no delete trigger, and the postings, word counts and totals have no foreign key to
 * paper_search, so emptying the papers (an operator's `TRUNCATE papers CASCADE`, a test's reset) left
 * them behind: ghost ids in a window and a duplicate key when a paper of the same id came again. Emptied
 * with it.
 */
export const EMPTY_SEARCH_WITH_PAPERS = `
CREATE FUNCTION quire_search_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE search_postings, search_words;
  UPDATE search_totals SET papers = 0, title_terms = 0, authors_terms = 0, abstract_terms = 0;
  RETURN NULL;
END $$;
CREATE TRIGGER paper_search_truncated AFTER TRUNCATE ON paper_search
  FOR EACH STATEMENT EXECUTE FUNCTION quire_search_truncated();
`;
