/*
 * Each word's positions in each paper (issue 13, at 10x), held in its posting (pg-search-postings.ts) as
 * one more column, `at`, written by the postings' own triggers. A phrase was matched through the vectors'
 * GIN index, which finds the papers holding all its words and then reads each one's whole vector out of
 * TOAST to check the words stand next to each other ("task specific" at 10x: 15,000 vectors read for
 * 6,630 matches, 247 ms); here the words' postings, read in id order through the key, answer it
 * (pg-search-postings-window.ts). A table of their own repeated each posting's word, id, counts, row
 * header and key beside the positions (59.9 MB, of which 11.1 MB positions, on the copy-test store).
 */

/**
 * A position as stored, a smallint: the column's code (title 0, authors 1, abstract 2, as weights A, B, C)
 * times POSITION_SPAN, plus the position in the vector, less POSITION_SPAN so three spans fit in 16 bits.
 * A phrase's next word stands at the next value: one more position, the same column (a tsvector's
 * positions stop at 16,383, so no position reaches into the next column's span; position 0 is never used).
 */
export const POSITION_SPAN = 16_384;

/** The column's code of a stored position `e` (an SQL expression). */
export const POSITION_COLUMN = (e: string) => `(${e} + ${POSITION_SPAN}) / ${POSITION_SPAN}`;

/*
 * The postings rebuilt with their positions: written once, in the key's order, where adding a column and
 * filling it would leave every row's old version behind (the table twice its size until a VACUUM FULL).
 * quire_postings_of returns the positions last, so the postings' triggers (INSERT … SELECT x.*) write them
 * unchanged.
 */
export const CREATE_SEARCH_POSITIONS = `
-- Writers wait (readers do not, until the tables are swapped) while the postings are rewritten.
LOCK TABLE paper_search IN SHARE ROW EXCLUSIVE MODE;
SET LOCAL maintenance_work_mem = '256MB';
SET LOCAL work_mem = '256MB';
DROP FUNCTION quire_postings_of(text, tsvector, tsvector);
CREATE FUNCTION quire_postings_of(paper_id text, doc tsvector, title_doc tsvector)
RETURNS TABLE (word text, paper_id text, title smallint, authors smallint, abstract smallint, terms smallint,
  title_terms smallint, at smallint[])
STABLE PARALLEL SAFE LANGUAGE sql AS $$
  SELECT u.lexeme, $1, cardinality(array_positions(u.weights, 'A'))::smallint,
    cardinality(array_positions(u.weights, 'B'))::smallint, cardinality(array_positions(u.weights, 'C'))::smallint,
    least(sum(cardinality(u.positions)) OVER (), 32767)::smallint,
    least(coalesce((SELECT sum(cardinality(t.positions)) FROM unnest($3) t), 0), 32767)::smallint,
    ARRAY(SELECT ((CASE x.w WHEN 'A' THEN 0 WHEN 'B' THEN 1 ELSE 2 END) * ${POSITION_SPAN} + x.p
      - ${POSITION_SPAN})::smallint
    FROM unnest(u.positions, u.weights) WITH ORDINALITY AS x (p, w, k) ORDER BY x.k)
  FROM unnest($2) u
$$;

CREATE TABLE search_postings_with_positions (
  word        text COLLATE "C" NOT NULL,
  paper_id    text COLLATE "C" NOT NULL,
  title       smallint NOT NULL,
  authors     smallint NOT NULL,
  abstract    smallint NOT NULL,
  terms       smallint NOT NULL,
  title_terms smallint NOT NULL,
  at          smallint[] NOT NULL
) WITH (autovacuum_vacuum_insert_scale_factor = 0.005);
ALTER TABLE search_postings_with_positions ALTER COLUMN word SET STATISTICS 1000;
INSERT INTO search_postings_with_positions
SELECT x.* FROM paper_search s, quire_postings_of(s.paper_id, s.doc, s.title_doc) x ORDER BY 1, 2;
-- As the postings' step built them (pg-search-postings.ts), the positions in no index; built before the
-- old table is dropped, so readers wait only for the swap.
ALTER TABLE search_postings_with_positions ADD CONSTRAINT search_postings_with_positions_pkey
  PRIMARY KEY (word, paper_id) INCLUDE (title, authors, abstract, terms, title_terms);
CREATE INDEX search_postings_with_positions_title ON search_postings_with_positions (word, paper_id)
  INCLUDE (title, title_terms) WHERE title > 0;
ANALYZE search_postings_with_positions;
DROP TABLE search_postings;
ALTER TABLE search_postings_with_positions RENAME TO search_postings;
ALTER INDEX search_postings_with_positions_pkey RENAME TO search_postings_pkey;
ALTER INDEX search_postings_with_positions_title RENAME TO search_postings_title;
`;
