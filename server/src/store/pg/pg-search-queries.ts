/*
 * The search index's queries on PostgreSQL (pg-search-reader.ts): a tsquery (pg-tsquery.ts) over a stored
 * tsvector through its GIN index (`doc`, or `title_doc` for a match asked of titles alone: SearchVector),
 * and the filters through the indexed tables a paper's tags, closure and categories live in. `d` is always the papers row (its listing date, its id); `$1` the tsquery where there
 * is one. Ids, dates and words are COLLATE "C", so orders and ranges are SQLite's.
 */

/** The vector a match is read on: the whole paper's, or the title's alone (pg-tsquery.ts: withinTitle). */
export type SearchVector = 'doc' | 'title_doc';

export const FROM_FILTER = (p: string) => `d.listing_date >= ${p}`;
export const TO_FILTER = (p: string) => `d.listing_date <= ${p}`;
// Semi-joins the planner may drive from either side: the topic's papers read through its index when the
// topic is small, a probe per match when the text is.
export const TOPIC_TAGS_FILTER = (p: string, id = 'd.id') =>
  `${id} IN (SELECT paper_id FROM paper_tags WHERE topic = ANY(${p}::text[]))`;
export const TOPIC_CLOSURE_FILTER = (p: string, id = 'd.id') =>
  `${id} IN (SELECT paper_id FROM paper_topics WHERE topic = ANY(${p}::text[]))`;
// A category asked for matches itself and, as an archive ("cs"), every category in it ("cs.LG"): read
// through the two lookups of migration category-lookups. `id`: the paper's id where no papers row is read
// (a postings window under topic or category filters alone). `archives` false (every name asked has a dot,
// which no archive has) leaves the archives' lookup out, so the categories' is read alone by an index-only
// scan (covering since migration covering-category-lookup); ORed with the archives' it was a bitmap, every
// matching row then read from the table ("explanation cat:cs.CV,cs.RO" at 10x: 98,170 rows on 3,198 table
// pages, 4,159 pages read after a start, 261 ms).
export const CATEGORY_FILTER = (p: string, id: string, archives: boolean) =>
  `${id} IN (SELECT paper_id FROM paper_categories WHERE lower(category) = ANY(${p}::text[])` +
  (archives ? ` OR lower(split_part(category, '.', 1)) = ANY(${p}::text[])` : '') +
  ')';

/**
 * The first ranking: each of the `leaves` ranked parts of the match (pg-tsquery.ts: rankedLeaves) scored by
 * ts_rank with the columns' weights (`$5`, {D, C, B, A}: unused, abstract, authors, title), times its
 * inverse document frequency (`$6`), as bm25 weighs a rare word above a common one; ts_rank alone does
 * not. Written out per part rather than summed over unnest(): a subquery per ranked paper cost 9 µs more.
 */
const SCORE = (leaves: number, vector = 'm.doc') =>
  // Typed, so the window's ORDER BY reads a constant, not a column position.
  leaves === 0
    ? '0::float8'
    : Array.from(
        { length: leaves },
        (_, i) => `($6::float8[])[${i + 1}] * ts_rank($5::float4[], ${vector}, ($7::tsquery[])[${i + 1}], 1)`,
      ).join('\n    + ');

/**
 * The text's matches for the ranked window, without the papers row unless a filter reads it (every indexed
 * paper has one), each with its row's address (`tid`), by which the few whose whole vectors are ranked
 * are read again. A subquery the planner keeps apart (OFFSET 0), so the window's order by id cannot draw it
 * to walk the primary key backwards testing each paper's vector: with TEXT_THROUGH_INDEX its matches are
 * read through the GIN index, then sorted.
 */
const TEXT_MATCHES = (filters: string, vector: SearchVector, from: string | null) => `
  SELECT s.paper_id, s.title_doc, s.tid FROM (
    SELECT paper_id, title_doc, ctid AS tid FROM paper_search
    WHERE ${vector} @@ $1::tsquery${from === null ? '' : ` AND paper_id >= ${from}`} OFFSET 0) s${
      filters === '' ? '' : `\n  JOIN papers d ON d.id = s.paper_id WHERE TRUE${filters}`
    }`;

/**
 * The `$2` most recently indexed matches (highest ids: arXiv numbers its papers in order) passing the
 * filters, ranked by `leaves` parts (SCORE); with how many that window held, so a short window's count is
 * the total, and (`total`, unless the matches are read from the bound `from` on) how many match in all:
 * every match is read and tested to find the newest anyway, where counting them apart tested each one's
 * vector again (a phrase's GIN matches are only candidates: "task specific" read 15,000 vectors twice at
 * 10x). Ranked in two steps, because reading a paper's whole vector out of TOAST and ranking it is
 * most of a search's cost (65 µs a paper at 10x under load: a window of 5,000 took 200-480 ms): first every
 * window paper by its title's vector alone, which its row holds (SEARCH_TITLE_VECTOR), then the best `$8`
 * of those (title matches first, then the newest) by their whole vectors, read again by address. A window
 * of at most `$8` papers is ranked as before, every paper by its whole vector. Each vector read is copied
 * out of its TOAST slice once (`|| ''`) rather than by every ts_rank call: 20,000 papers ranked by 11
 * parts took 590 ms, then 310.
 */
export const RANKED_WINDOW = (
  filters: string,
  leaves: number,
  vector: SearchVector,
  from: string | null = null,
) => `
WITH ${
  from === null
    ? `a AS MATERIALIZED (${TEXT_MATCHES(filters, vector, from)}),
w AS MATERIALIZED (SELECT a.paper_id, a.title_doc, a.tid FROM a ORDER BY a.paper_id DESC LIMIT $2),`
    : `w AS MATERIALIZED (${TEXT_MATCHES(filters, vector, from)}
  ORDER BY s.paper_id DESC LIMIT $2),`
}
t AS MATERIALIZED (SELECT w.paper_id, w.tid, count(*) OVER ()::integer AS matched, min(w.paper_id) OVER () AS lowest
  FROM w
  ORDER BY ${SCORE(leaves, 'w.title_doc')} DESC, w.paper_id DESC LIMIT $8),
m AS MATERIALIZED (SELECT t.paper_id, p.${vector} || ''::tsvector AS doc, t.matched, t.lowest
  FROM t JOIN paper_search p ON p.ctid = t.tid)
SELECT m.paper_id AS "paperId", (${SCORE(leaves)})::float8 AS score, m.matched, m.lowest${
  from === null ? ', (SELECT count(*) FROM a)::integer AS total' : ''
}
FROM m ORDER BY score DESC, m.paper_id LIMIT $3 OFFSET $4`;

// Without the papers row unless a filter reads it: a bitmap scan then counts all-visible pages' matches
// without reading them.
export const COUNT_MATCHES = (filters: string, vector: SearchVector) =>
  filters === ''
    ? `SELECT count(*)::integer AS n FROM paper_search WHERE ${vector} @@ $1::tsquery`
    : `
SELECT count(*)::integer AS n FROM paper_search s JOIN papers d ON d.id = s.paper_id
WHERE s.${vector} @@ $1::tsquery${filters}`;

// The same, counting no further than `$2`.
export const COUNT_MATCHES_UP_TO = (filters: string, vector: SearchVector) => `
SELECT count(*)::integer AS n FROM (SELECT 1 FROM paper_search s JOIN papers d ON d.id = s.paper_id
WHERE s.${vector} @@ $1::tsquery${filters} LIMIT $2) x`;

// Undated papers last, as SQLite orders NULL below every date.
export const NEWEST_MATCHES = (filters: string) => `
SELECT d.id FROM paper_search s JOIN papers d ON d.id = s.paper_id
WHERE s.doc @@ $1::tsquery${filters}
ORDER BY d.listing_date DESC NULLS LAST, d.id DESC LIMIT $2 OFFSET $3`;

export const NEWEST = (filters: string) => `
SELECT d.id FROM papers d WHERE TRUE${filters}
ORDER BY d.listing_date DESC NULLS LAST, d.id DESC LIMIT $1 OFFSET $2`;

export const COUNT = (filters: string) => `SELECT count(*)::integer AS n FROM papers d WHERE TRUE${filters}`;

/**
 * Run before a statement matching text, in its transaction: its matches read through the GIN index only.
 * The planner guesses a tsquery's matches from the column's most common lexemes and gives every other
 * word up to 0.5% of the papers, so an OR of a few dozen rare words (a prefix's completions, a paper's
 * related terms) looks like a fifth of the table: it then walked the whole table (or its primary key
 * backwards, for the newest matches), testing every paper's vector (100-200 ms at 1x, found on
 * `pnpm bench scale --engine postgres`), where the index reads only the matches' lists.
 */
export const TEXT_THROUGH_INDEX = `BEGIN READ ONLY; SET LOCAL enable_seqscan = off; SET LOCAL jit = off`;
/**
 * The same for a window bounded by id (RANKED_WINDOW's `from`), whose GIN matches and primary key range
 * should meet as bitmaps: left to itself the planner walks the key's range testing each paper's vector
 * (250 ms for "optimization" from the newest 20,000 papers at 10x, against 30 ms). Over a wide range it may
 * still read the GIN matches' rows and test their ids, as without the bound.
 */
export const BOUNDED_THROUGH_INDEXES = `BEGIN READ ONLY; SET LOCAL enable_seqscan = off; SET LOCAL jit = off;
SET LOCAL enable_indexscan = off`;
/**
 * The same for a phrase's window over its words' postings (pg-search-postings-window.ts), unfiltered: the
 * words' postings read newest first through the key and merged on the id, where the planner probed the
 * second word's key for every posting of the first, 4 pages a probe ("task specific" at 10x: 144,000
 * pages for the newest 5,000 matches among 32,000 postings, 160 ms; merged 3,500 pages, 100 ms). Its
 * fixed cost, a statement before and after the window, is two round trips.
 */
export const WORDS_MERGED = `BEGIN READ ONLY; SET LOCAL enable_seqscan = off; SET LOCAL jit = off;
SET LOCAL enable_nestloop = off`;
/**
 * The same for every statement of a search reader's own connections (pg-search-reader.ts:
 * openPgSearchReader), set as they open: a text match then costs one round trip, not three (the
 * transaction's BEGIN and COMMIT took 5-15 ms each at 10x on a loaded machine). Its other statements read
 * through their indexes anyway. JIT off: a plan with a table read the setting disfavours costs over its
 * threshold, and compiling it took 60-250 ms (search_totals' one row) where running it takes 0.1.
 * No parallel workers: a search is one of many at once, and a common word's postings summed by two
 * workers (a typo's corrections at 10x) took 89 ms against 67 alone on a loaded two-core machine.
 */
export const READER_SETTINGS = `SET enable_seqscan = off; SET jit = off; SET max_parallel_workers_per_gather = 0`;
export const END_READ = `COMMIT`;
export const ABORT_READ = `ROLLBACK`;

// Stops after `$2` rows, so asking whether a common word is rare costs little.
export const HITS_UP_TO = `
SELECT count(*)::integer AS n FROM (SELECT 1 FROM paper_search WHERE doc @@ $1::tsquery LIMIT $2) x`;

export const VOCABULARY = `SELECT word AS term, papers AS docs FROM search_words WHERE word = ANY($1::text[])`;
export const VOCABULARY_RANGE = `
SELECT word AS term, papers AS docs FROM search_words WHERE word >= $1 AND word < $2 ORDER BY word LIMIT $3`;
// The most papers any one word of a range holds: a prefix matches at least that many.
export const MOST_IN_RANGE = `
SELECT coalesce(max(papers), 0)::integer AS n FROM search_words WHERE word >= $1 AND word < $2`;
// The papers holding any word in a range (a prefix's completions): what weighs a prefix in the ranking.
export const PAPERS_IN_RANGE = `
SELECT coalesce(sum(papers), 0)::float8 AS n FROM search_words WHERE word >= $1 AND word < $2`;

// Papers holding each term per column, as the index's triggers count them (pg-search-schema.ts:
// SEARCH_WORDS_PER_COLUMN).
export const COLUMN_VOCABULARY = `
SELECT w.word AS term, c.field, c.docs FROM search_words w
CROSS JOIN LATERAL (VALUES ('title', w.title_papers), ('authors', w.authors_papers), ('abstract', w.abstract_papers))
  AS c (field, docs)
WHERE w.word = ANY($1::text[]) AND c.docs > 0`;

// Mean terms per column and the papers indexed, from the totals the index's triggers keep
// (pg-search-schema.ts: CREATE_SEARCH_TOTALS).
export const AVERAGE_TERMS = `
SELECT (title_terms::float8 / greatest(papers, 1)) AS title, (authors_terms::float8 / greatest(papers, 1)) AS authors,
  (abstract_terms::float8 / greatest(papers, 1)) AS abstract
FROM search_totals`;

/** About `$1` percent of the indexed papers' ids, a few pages read at random (pg-search-reader.ts: #sampledIds). */
export const SAMPLE_IDS = `SELECT paper_id AS id FROM paper_search TABLESAMPLE SYSTEM ($1)`;

export const INDEXED_PAPERS = `SELECT papers::integer AS n FROM search_totals`;
export const PAPER_ROWS = `
SELECT id, title, abstract, authors, primary_category, listing_date FROM papers WHERE id = ANY($1::text[])`;
export const NARROWER_STORED = `SELECT topic FROM topic_closure WHERE broader = $1`;
export const TAGS_OF = `SELECT paper_id, topic FROM paper_tags WHERE paper_id = ANY($1::text[])`;
