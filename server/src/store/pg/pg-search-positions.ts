/*
 * Each word's positions in each paper (issue 13, at 10x): a row per (word, paper) with the positions the
 * paper's vector holds the word at, each tagged with its column, kept by triggers on paper_search as the
 * postings are (pg-search-postings.ts). A phrase was matched through the vectors' GIN index, which finds
 * the papers holding all its words and then reads each one's whole vector out of TOAST to check the words
 * stand next to each other ("task specific" at 10x: 15,000 vectors read for 6,630 matches, 247 ms); here
 * the words' positions, read in id order through the key, answer it (pg-search-postings-window.ts).
 */

/**
 * A position as stored: the column's code (title 0, authors 1, abstract 2, as weights A, B, C) times
 * POSITION_SPAN, plus the position in the vector. A phrase's next word stands at the next value: one more
 * position, the same column (a tsvector's positions stop at 16,383, so no position reaches into the next
 * column's span; position 0 is never used).
 */
export const POSITION_SPAN = 16_384;

export const CREATE_SEARCH_POSITIONS = `
-- Writers wait (readers do not) while the positions are filled, as for the postings.
LOCK TABLE paper_search IN SHARE ROW EXCLUSIVE MODE;
SET LOCAL maintenance_work_mem = '256MB';
-- With the posting's counts (quire_postings_of's), so a phrase is ranked from its words' positions alone.
CREATE FUNCTION quire_positions_of(paper_id text, doc tsvector)
RETURNS TABLE (word text, paper_id text, title smallint, authors smallint, abstract smallint, terms smallint,
  at integer[])
STABLE PARALLEL SAFE LANGUAGE sql AS $$
  SELECT u.lexeme, $1, cardinality(array_positions(u.weights, 'A'))::smallint,
    cardinality(array_positions(u.weights, 'B'))::smallint, cardinality(array_positions(u.weights, 'C'))::smallint,
    least(sum(cardinality(u.positions)) OVER (), 32767)::smallint, ARRAY(
    SELECT (CASE x.w WHEN 'A' THEN 0 WHEN 'B' THEN 1 WHEN 'C' THEN 2 ELSE 3 END) * ${POSITION_SPAN} + x.p
    FROM unnest(u.positions, u.weights) WITH ORDINALITY AS x (p, w, k) ORDER BY x.k)
  FROM unnest($2) u
$$;

CREATE TABLE search_positions (
  word     text COLLATE "C" NOT NULL,
  paper_id text COLLATE "C" NOT NULL,
  title    smallint NOT NULL,
  authors  smallint NOT NULL,
  abstract smallint NOT NULL,
  terms    smallint NOT NULL,
  at       integer[] NOT NULL
) WITH (autovacuum_vacuum_insert_scale_factor = 0.005);
ALTER TABLE search_positions ALTER COLUMN word SET STATISTICS 1000;
-- In the key's order, so a word's positions lie on pages of their own (read through the key, not the
-- visibility map: no INCLUDE, the arrays stored once).
INSERT INTO search_positions
SELECT x.* FROM paper_search s, quire_positions_of(s.paper_id, s.doc) x ORDER BY 1, 2;
ALTER TABLE search_positions ADD PRIMARY KEY (word, paper_id);
ANALYZE search_positions;

CREATE FUNCTION quire_positions_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO search_positions
  SELECT x.* FROM new_rows n, quire_positions_of(n.paper_id, n.doc) x ORDER BY 1, 2;
  RETURN NULL;
END $$;

CREATE FUNCTION quire_positions_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM search_positions p USING old_rows o, unnest(tsvector_to_array(o.doc)) w
  WHERE p.word = w AND p.paper_id = o.paper_id;
  RETURN NULL;
END $$;

CREATE FUNCTION quire_positions_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM search_positions p USING old_rows o, unnest(tsvector_to_array(o.doc)) w
  WHERE p.word = w AND p.paper_id = o.paper_id;
  INSERT INTO search_positions
  SELECT x.* FROM new_rows n, quire_positions_of(n.paper_id, n.doc) x ORDER BY 1, 2;
  RETURN NULL;
END $$;

-- TRUNCATE fires no delete trigger (see EMPTY_SEARCH_WITH_PAPERS): emptied with the papers.
CREATE FUNCTION quire_positions_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE search_positions;
  RETURN NULL;
END $$;

CREATE TRIGGER paper_search_positions_inserted AFTER INSERT ON paper_search REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION quire_positions_inserted();
CREATE TRIGGER paper_search_positions_deleted AFTER DELETE ON paper_search REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION quire_positions_deleted();
CREATE TRIGGER paper_search_positions_updated AFTER UPDATE ON paper_search
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION quire_positions_updated();
CREATE TRIGGER paper_search_positions_truncated AFTER TRUNCATE ON paper_search
  FOR EACH STATEMENT EXECUTE FUNCTION quire_positions_truncated();
`;
