import type { Database, Statement } from 'better-sqlite3';
import { SEARCH_COLUMNS } from './search-index-schema.ts';

/**
 * Papers holding each term per column, for the re-ranking's idf (see search/rerank.ts). FTS5's column
 * vocabulary (`fts5vocab` 'col') counts them by reading the term's whole posting list, positions and all:
 * at 100x a common word's list holds 300,000-900,000 papers, 10-30 ms a word on a cold search (the counts
 * are kept between searches, but a cold search reads them all). A rare word's count is still read there,
 * exactly; a word in at least COLUMN_SAMPLE papers is counted per column among the newest papers only,
 * and its total estimated from how far back that count reached, as a search's own total is
 * (estimatedTotal in search-index.ts). The idf is a logarithm, so a count a few percent off moves a
 * score by far less than that.
 */

/** Papers with the term read at most to tell a common word (estimated) from a rare one (counted). */
export const COLUMN_SAMPLE = 2_000;
/**
 * The newest docs a common word's column is counted in at most: bounds a column the word is rare in
 * (a common abstract word in titles), where COLUMN_SAMPLE matches may lie far back.
 */
export const COLUMN_SAMPLE_DOCS = 100_000;

// FTS5 walks a single column's or word's matches from the newest doc down and stops at the limit or
// below the floor: bounded by the sample, however long the list.
const NEWEST_MATCHES = `SELECT count(*) AS matches, COALESCE(min(doc), 0) AS lowest FROM (
  SELECT rowid AS doc FROM paper_search WHERE paper_search MATCH ? AND rowid >= ?
  ORDER BY rowid DESC LIMIT ?)`;
const COLUMN_VOCABULARY = `SELECT term, col AS field, doc AS docs FROM paper_search_columns
  WHERE term IN (SELECT value FROM json_each(?))`;

type Column = (typeof SEARCH_COLUMNS)[number];

export interface ColumnCount {
  term: string;
  field: Column;
  docs: number;
}

export class SearchColumnCounts {
  readonly #newest: Statement<[string, number, number], { matches: number; lowest: number }>;
  readonly #exact: Statement<[string], ColumnCount>;
  readonly #sample: number;
  readonly #sampleDocs: number;

  /** `sample`, `sampleDocs`: COLUMN_SAMPLE and COLUMN_SAMPLE_DOCS unless a test estimates from a few papers. */
  constructor(db: Database, options: { sample?: number; sampleDocs?: number } = {}) {
    this.#newest = db.prepare(NEWEST_MATCHES);
    this.#exact = db.prepare(COLUMN_VOCABULARY);
    this.#sample = options.sample ?? COLUMN_SAMPLE;
    this.#sampleDocs = options.sampleDocs ?? COLUMN_SAMPLE_DOCS;
  }

  /**
   * Papers holding each of `terms` per column (columns without it left out), exact for a term in fewer
   * than COLUMN_SAMPLE papers, else estimated; `top` is the highest doc indexed (indexedPapers).
   */
  counts(terms: readonly string[], top: number): ColumnCount[] {
    const rare: string[] = [];
    const out: ColumnCount[] = [];
    for (const term of terms) {
      const { matches } = this.#newest.get(quoted(term), 0, this.#sample) ?? { matches: 0, lowest: 0 };
      if (matches < this.#sample) {
        if (matches > 0) rare.push(term);
        continue;
      }
      for (const field of SEARCH_COLUMNS) {
        const docs = this.#estimate(`{${field}} : ${quoted(term)}`, top);
        if (docs > 0) out.push({ term, field, docs });
      }
    }
    if (rare.length > 0) out.push(...this.#exact.all(JSON.stringify(rare)));
    return out;
  }

  /** About how many docs match `match`, from the newest ones: see COLUMN_SAMPLE_DOCS. */
  #estimate(match: string, top: number): number {
    const floor = Math.max(0, top - this.#sampleDocs + 1);
    const { matches, lowest } = this.#newest.get(match, floor, this.#sample) ?? { matches: 0, lowest: 0 };
    // Every doc counted: exact.
    if (matches < this.#sample && floor === 0) return matches;
    const reached = matches < this.#sample ? floor : lowest;
    const share = Math.max(1, top - reached + 1) / Math.max(1, top);
    return Math.round(matches / Math.min(1, share));
  }
}

function quoted(term: string): string {
  return `"${term}"`;
}
