import type { Database, Statement } from 'better-sqlite3';

/**
 * Merging the search index after a bulk load. Each batch an import writes flushes as one FTS5 segment,
 * and FTS5 merges them as it goes (see SEARCH_INDEX_MERGING), which leaves a large index in a few dozen
 * segments (28 after 100 copies of the corpus). A query looks each of its terms up in every segment: typo
 * correction looks up some 700 spellings of a word (at 100x 70-140 ms of CPU in 28 segments, 7-26 ms in
 * one), and ranking reads a common word's list merged from all of them. FTS5's 'optimize' rewrites the
 * index as one segment: 87 s at 100x (load 7), so it is worth it only after an import that stored a large
 * share of the index, not after a day's papers.
 */

/** An import that stored at least this share of the indexed papers merges the index afterwards. */
export const MERGE_AFTER_SHARE = 0.125;

const OPTIMIZE = `INSERT INTO paper_search (paper_search) VALUES ('optimize')`;
// As SearchIndex counts them: the largest doc, one index seek.
const INDEXED_PAPERS = `SELECT COALESCE(MAX(doc), 0) FROM search_docs`;

export class SearchIndexUpkeep {
  readonly #optimize: Statement<[], unknown>;
  readonly #indexed: Statement<[], number>;

  constructor(db: Database) {
    this.#optimize = db.prepare(OPTIMIZE);
    this.#indexed = db.prepare<[], number>(INDEXED_PAPERS).pluck();
  }

  /**
   * After a load that stored `stored` papers: the index merged into one segment when they are at least
   * MERGE_AFTER_SHARE of those indexed. True when it was merged.
   */
  afterBulkLoad(stored: number): boolean {
    const indexed = this.#indexed.get() ?? 0;
    if (stored <= 0 || stored < indexed * MERGE_AFTER_SHARE) return false;
    this.#optimize.run();
    return true;
  }
}
