/*
 * The search index's queries on PostgreSQL (pg-search-reader.ts): a tsquery (pg-tsquery.ts) over the stored
 * tsvector, through its GIN index, and the filters through the indexed tables a paper's tags, closure and
 * categories live in. `d` is always the papers row (its listing date, its id); `$1` the tsquery where there
 * is one. Ids, dates and words are COLLATE "C", so orders and ranges are SQLite's.
 */

export const FROM_FILTER = (p: string) => `d.listing_date >= ${p}`;
export const TO_FILTER = (p: string) => `d.listing_date <= ${p}`;
// Semi-joins the planner may drive from either side: the topic's papers read through its index when the
// topic is small, a probe per match when the text is.
export const TOPIC_TAGS_FILTER = (p: string) =>
  `d.id IN (SELECT paper_id FROM paper_tags WHERE topic = ANY(${p}::text[]))`;
export const TOPIC_CLOSURE_FILTER = (p: string) =>
  `d.id IN (SELECT paper_id FROM paper_topics WHERE topic = ANY(${p}::text[]))`;
// A category asked for matches itself and, as an archive ("cs"), every category in it ("cs.LG"): read
// through the two lookups of migration category-lookups.
export const CATEGORY_FILTER = (p: string) => `d.id IN (SELECT paper_id FROM paper_categories
  WHERE lower(category) = ANY(${p}::text[]) OR lower(split_part(category, '.', 1)) = ANY(${p}::text[]))`;

/**
 * The first ranking: each ranked part of the match (pg-tsquery.ts: rankedLeaves) scored by ts_rank with the
 * columns' weights ({D, C, B, A}: unused, abstract, authors, title), times its inverse document frequency,
 * as bm25 weighs a rare word above a common one; ts_rank alone does not.
 */
const SCORE = (weights: string, idf: string, leaves: string) => `(
  SELECT coalesce(sum(u.idf * ts_rank(${weights}::float4[], m.doc, u.leaf, 1)), 0)
  FROM unnest(${idf}::float8[], ${leaves}::tsquery[]) AS u (idf, leaf))`;

/**
 * The `$2` most recently indexed matches (highest ids: arXiv numbers its papers in order) passing the
 * filters, ranked; with how many that window held, so a short window's count is the total.
 */
export const RANKED_WINDOW = (filters: string) => `
WITH m AS MATERIALIZED (
  SELECT s.paper_id, s.doc FROM paper_search s JOIN papers d ON d.id = s.paper_id
  WHERE s.doc @@ $1::tsquery${filters}
  ORDER BY s.paper_id DESC LIMIT $2)
SELECT m.paper_id AS "paperId", ${SCORE('$5', '$6', '$7')}::float8 AS score,
  count(*) OVER ()::integer AS matched
FROM m ORDER BY score DESC, m.paper_id LIMIT $3 OFFSET $4`;

export const COUNT_MATCHES = (filters: string) => `
SELECT count(*)::integer AS n FROM paper_search s JOIN papers d ON d.id = s.paper_id
WHERE s.doc @@ $1::tsquery${filters}`;

// Undated papers last, as SQLite orders NULL below every date.
export const NEWEST_MATCHES = (filters: string) => `
SELECT d.id FROM paper_search s JOIN papers d ON d.id = s.paper_id
WHERE s.doc @@ $1::tsquery${filters}
ORDER BY d.listing_date DESC NULLS LAST, d.id DESC LIMIT $2 OFFSET $3`;

export const NEWEST = (filters: string) => `
SELECT d.id FROM papers d WHERE TRUE${filters}
ORDER BY d.listing_date DESC NULLS LAST, d.id DESC LIMIT $1 OFFSET $2`;

export const COUNT = (filters: string) => `SELECT count(*)::integer AS n FROM papers d WHERE TRUE${filters}`;

// Stops after `$2` rows, so asking whether a common word is rare costs little.
export const HITS_UP_TO = `
SELECT count(*)::integer AS n FROM (SELECT 1 FROM paper_search WHERE doc @@ $1::tsquery LIMIT $2) x`;

export const VOCABULARY = `SELECT word AS term, papers AS docs FROM search_words WHERE word = ANY($1::text[])`;
export const VOCABULARY_RANGE = `
SELECT word AS term, papers AS docs FROM search_words WHERE word >= $1 AND word < $2 ORDER BY word LIMIT $3`;
// The papers holding any word in a range (a prefix's completions): what weighs a prefix in the ranking.
export const PAPERS_IN_RANGE = `
SELECT coalesce(sum(papers), 0)::float8 AS n FROM search_words WHERE word >= $1 AND word < $2`;

/**
 * Papers holding each term per column: one pass over each term's matches (`$1`: the terms as quoted
 * lexemes), each tested for the column's weight. A common word's pass reads all its papers; the search
 * thread keeps the counts (search-caches.ts).
 */
export const COLUMN_VOCABULARY = `
SELECT t.term, c.field, c.docs FROM unnest($1::text[], $2::text[]) AS t (term, lexeme)
CROSS JOIN LATERAL (
  SELECT count(*) FILTER (WHERE doc @@ (t.lexeme || ':A')::tsquery)::integer AS a,
         count(*) FILTER (WHERE doc @@ (t.lexeme || ':B')::tsquery)::integer AS b,
         count(*) FILTER (WHERE doc @@ (t.lexeme || ':C')::tsquery)::integer AS c
  FROM paper_search WHERE doc @@ t.lexeme::tsquery) k
CROSS JOIN LATERAL (VALUES ('title', k.a), ('authors', k.b), ('abstract', k.c)) AS c (field, docs)
WHERE c.docs > 0`;

// Mean terms per column: a pass over every paper, so the reader keeps it while the count holds.
export const AVERAGE_TERMS = `
SELECT coalesce(avg(coalesce(cardinality(string_to_array(nullif(title, ''), ' ')), 0)), 0)::float8 AS title,
       coalesce(avg(coalesce(cardinality(string_to_array(nullif(authors, ''), ' ')), 0)), 0)::float8 AS authors,
       coalesce(avg(coalesce(cardinality(string_to_array(nullif(abstract, ''), ' ')), 0)), 0)::float8 AS abstract
FROM paper_search`;

export const INDEXED_PAPERS = `SELECT count(*)::integer AS n FROM paper_search`;
export const PAPER_ROWS = `
SELECT id, title, abstract, authors, primary_category, listing_date FROM papers WHERE id = ANY($1::text[])`;
export const NARROWER_STORED = `SELECT topic FROM topic_closure WHERE broader = $1`;
export const TAGS_OF = `SELECT paper_id, topic FROM paper_tags WHERE paper_id = ANY($1::text[])`;
