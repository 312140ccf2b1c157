import type { Match } from './search-match.ts';

/**
 * The titles' own index: a second FTS5 table (`paper_titles`) holding each paper's title terms alone,
 * under the paper's doc as `paper_search` holds it, written beside it in the same statements' batch.
 *
 * When more papers match than the ranked window holds, the search reads the best title matches apart
 * (see FtsSearch's #window), over the newest RANK_WINDOW of them. Asked of `paper_search` as
 * `{title} : ...`, FTS5 walks every paper holding the words in any column and reads its positions to
 * keep the title's, and since a query's words are in far fewer titles than abstracts the walk rarely
 * fills the window before the lists end: at 100x one whole pass over a common word's list, 37-64 ms of
 * CPU for "agent actions" or "task specific". Here a word's list holds only the papers whose title holds
 * it. The best are ranked by the title alone (bm25 over the title's terms), as PostgreSQL ranks its
 * title vector.
 */

export const TITLES_TABLE = 'paper_titles';

/** Papers queued with terms already in `paper_search` (see search-index-schema.ts) have them here too. */
const QUEUED_UNINDEXED = `EXISTS (SELECT 1 FROM search_pending q WHERE q.doc = d.doc AND q.indexed = 0)`;

/**
 * The migration step: the table, filled from the stored titles through the same function the index's
 * terms are computed with, merged into one segment; and the delete trigger, which now takes a deleted
 * paper's title terms too (the rest of it as the 'search-index' step made it).
 */
export const CREATE_TITLES_INDEX = `
CREATE VIRTUAL TABLE paper_titles USING fts5 (
  title,
  content = '', contentless_delete = 1, tokenize = 'ascii'
);
-- Merged as paper_search is (SEARCH_INDEX_MERGING), so the fill below flushes few segments.
INSERT INTO paper_titles (paper_titles, rank) VALUES ('hashsize', 16777216);
INSERT INTO paper_titles (paper_titles, rank) VALUES ('automerge', 8);
INSERT INTO paper_titles (paper_titles, rank) VALUES ('crisismerge', 32);

INSERT INTO paper_titles (rowid, title)
SELECT d.doc, quire_search_text(p.title) FROM search_docs d JOIN papers p ON p.id = d.paper_id
WHERE NOT ${QUEUED_UNINDEXED} ORDER BY d.doc;
INSERT INTO paper_titles (paper_titles) VALUES ('optimize');

DROP TRIGGER papers_search_delete;
CREATE TRIGGER papers_search_delete AFTER DELETE ON papers BEGIN
  DELETE FROM paper_search WHERE rowid IN (
    SELECT d.doc FROM search_docs d WHERE d.paper_id = OLD.id AND NOT ${QUEUED_UNINDEXED});
  DELETE FROM paper_titles WHERE rowid IN (
    SELECT d.doc FROM search_docs d WHERE d.paper_id = OLD.id AND NOT ${QUEUED_UNINDEXED});
  DELETE FROM search_pending WHERE doc IN (SELECT doc FROM search_docs WHERE paper_id = OLD.id);
  DELETE FROM search_docs WHERE paper_id = OLD.id;
END;
`;

/** Old title terms of docs about to be indexed again (a JSON array of docs). */
export const DELETE_TITLE_TERMS = `DELETE FROM paper_titles WHERE rowid IN (SELECT value FROM json_each(?))`;

/** Values each row of `INSERT_TITLE_TERMS` binds: doc, title terms. */
export const TITLE_ROW_PARAMS = 2;

/** `rows` docs' title terms in one statement (FTS5 flushes a segment per statement: see RowWriter). */
export const INSERT_TITLE_TERMS = (rows: number): string =>
  `INSERT INTO paper_titles (rowid, title) VALUES ${Array.from({ length: rows }, () => '(?, ?)').join(', ')}`;

/** The queue's title terms through SQL, run beside INDEX_PENDING's (before the queue is cleared). */
export const INDEX_PENDING_TITLES = [
  `DELETE FROM paper_titles WHERE rowid IN (SELECT doc FROM search_pending WHERE indexed = 1)`,
  `INSERT INTO paper_titles (rowid, title)
   SELECT q.doc, quire_search_text(p.title)
   FROM search_pending q JOIN search_docs d ON d.doc = q.doc JOIN papers p ON p.id = d.paper_id`,
] as const;

/** Merges the table's segments into one, as OPTIMIZE_INDEX does paper_search's. */
export const OPTIMIZE_TITLES = `INSERT INTO paper_titles (paper_titles) VALUES ('optimize')`;

// The best of the newest `window` title matches by bm25 over the title alone, uncounted: as
// RANKED_RECENT_UNCOUNTED and RANKED_FILTERED_UNCOUNTED in search-index.ts, over this table.
export const TITLES_RECENT = `
SELECT d.paper_id AS paperId, -m.bm25 AS score FROM (
  SELECT doc, bm25 FROM (
    SELECT rowid AS doc, bm25(paper_titles, @title) AS bm25 FROM paper_titles
    WHERE paper_titles MATCH @match ORDER BY rowid DESC LIMIT @window)
  ORDER BY bm25, doc DESC LIMIT @limit
) m JOIN search_docs d ON d.doc = m.doc ORDER BY m.bm25, d.paper_id`;

export const TITLES_FILTERED = (filters: string) => `
SELECT paper_id AS paperId, -bm25 AS score FROM (
  SELECT d.paper_id, bm25(paper_titles, @title) AS bm25
  FROM paper_titles JOIN search_docs d ON d.doc = paper_titles.rowid
  WHERE paper_titles MATCH @match${filters}
  ORDER BY paper_titles.rowid DESC LIMIT @window
) ORDER BY bm25, paper_id LIMIT @limit`;

export const TITLE_HITS_UP_TO = `SELECT count(*) FROM (SELECT 1 FROM paper_titles WHERE paper_titles MATCH ? LIMIT ?)`;

/**
 * What a match looks for in titles when it looks nowhere else (`{title} : ...` over words, phrases and
 * their combinations): the same papers match it in `paper_titles`. Null for any other match.
 */
export function titlesOnly(match: Match): Match | null {
  if (match.kind !== 'columns' || match.columns.length !== 1 || match.columns[0] !== 'title') return null;
  return hasColumns(match.of) ? null : match.of;
}

function hasColumns(match: Match): boolean {
  switch (match.kind) {
    case 'word':
    case 'phrase':
      return false;
    case 'all':
    case 'any':
      return match.of.some(hasColumns);
    case 'columns':
      return true;
    case 'without':
      return hasColumns(match.of) || hasColumns(match.not);
  }
}
