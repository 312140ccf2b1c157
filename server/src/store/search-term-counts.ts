import type { Database, Statement } from 'better-sqlite3';
import type { ColumnDocs } from './search-index.ts';
import { SEARCH_COLUMNS } from './search-index-schema.ts';
import type { TermDocs } from './search-vocabulary.ts';

/**
 * Papers holding each common term, in all and per column, kept in a table. FTS5's vocabularies count a
 * term by reading its whole posting list every time it is asked (the column vocabulary positions and
 * all): the re-ranking asks it for every word of a query and typo correction for every near spelling
 * found, so a common word ("learning": 4.7 ms of CPU at 10x, ten times that at 100x) was counted again on
 * each query's cold path. Here the terms FTS5 holds for at least COMMON_TERM_DOCS papers in some column
 * are counted once, at the end of a bulk import (after its merge of the index) and by the migration step,
 * and a search reads them with one seek; rarer terms cost little to count and are asked of FTS5 as before.
 *
 * Not kept on write: counting every term of every paper in each batch would cost the import what the
 * reads save. The table therefore says how many papers were indexed when it was filled, and it is read
 * only while the index holds within COUNTS_DRIFT of them: the share by which the search's own cache of
 * term counts may already drift (TERM_COUNTS_DRIFT), which moves a ranking by far less than the counts'
 * own noise. Past it every term is counted by FTS5 again, until the next bulk import fills it anew.
 */

/** A term held by this many papers in some column is kept. */
export const COMMON_TERM_DOCS = 1_000;
/** Kept counts are read while the index holds within this share of the papers it held when they were counted. */
export const COUNTS_DRIFT = 0.01;

// One pass over the column vocabulary finds the common terms; each one's papers in all (a paper holding
// it in two columns counts once) are then read from the row vocabulary by a seek and a walk of its list.
const FILL_COUNTS = (common: string) => [
  `DELETE FROM search_common_terms`,
  `INSERT INTO search_common_terms (term, docs, title, authors, abstract)
SELECT c.term, (SELECT v.doc FROM paper_search_vocab v WHERE v.term = c.term), c.title, c.authors, c.abstract
FROM (
  SELECT term, max(doc) AS most,
    COALESCE(sum(doc) FILTER (WHERE col = 'title'), 0) AS title,
    COALESCE(sum(doc) FILTER (WHERE col = 'authors'), 0) AS authors,
    COALESCE(sum(doc) FILTER (WHERE col = 'abstract'), 0) AS abstract
  FROM paper_search_columns GROUP BY term
) c WHERE c.most >= ${common}`,
  `DELETE FROM search_common_terms_state`,
  `INSERT INTO search_common_terms_state (id, papers) SELECT 1, COALESCE(MAX(doc), 0) FROM search_docs`,
];

/** The migration step: the tables, filled from the index as it stands (nothing to read in a new store). */
export const CREATE_SEARCH_TERM_COUNTS = `
CREATE TABLE search_common_terms (
  term     TEXT PRIMARY KEY NOT NULL,
  docs     INTEGER NOT NULL,  -- papers holding it in any column
  title    INTEGER NOT NULL,
  authors  INTEGER NOT NULL,
  abstract INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TABLE search_common_terms_state (
  id     INTEGER PRIMARY KEY CHECK (id = 1),
  papers INTEGER NOT NULL  -- MAX(search_docs.doc) when the terms were counted
);
${FILL_COUNTS(String(COMMON_TERM_DOCS)).join(';\n')};
`;

/**
 * Counts every common term again, in one transaction: the end of a bulk import (see import-writes.ts).
 * `commonFrom`: COMMON_TERM_DOCS unless a test needs common terms among a few papers.
 */
export function refreshTermCounts(db: Database, commonFrom: number = COMMON_TERM_DOCS): void {
  const statements = FILL_COUNTS('@common').map((sql) => db.prepare(sql));
  db.transaction(() => {
    // Only the counting statement takes the threshold.
    for (const statement of statements) {
      if (statement.source.includes('@common')) statement.run({ common: commonFrom });
      else statement.run();
    }
  })();
}

const COUNTED_AT = `SELECT papers FROM search_common_terms_state WHERE id = 1`;
const KEPT_TERMS = `SELECT term, docs, title, authors, abstract FROM search_common_terms
  WHERE term IN (SELECT value FROM json_each(?))`;
const KEPT_RANGE = `SELECT term, docs FROM search_common_terms WHERE term >= ? AND term < ? ORDER BY term LIMIT ?`;

type KeptRow = TermDocs & Record<(typeof SEARCH_COLUMNS)[number], number>;

/**
 * How FTS5's row vocabulary is read: asked terms, or indexed terms from `from` (included or not) to `to`
 * (excluded) in order, at most `limit`.
 */
export interface Fts5Vocabulary {
  terms(terms: readonly string[]): TermDocs[];
  range(from: string, to: string, limit: number, fromIncluded: boolean): TermDocs[];
}

/** The kept counts of a connection's store, each read falling back on FTS5's vocabularies for the rest. */
export class TermCounts {
  readonly #countedAt: Statement<[], number>;
  readonly #kept: Statement<[string], KeptRow>;
  readonly #keptRange: Statement<[string, string, number], TermDocs>;

  constructor(db: Database) {
    this.#countedAt = db.prepare<[], number>(COUNTED_AT).pluck();
    this.#kept = db.prepare(KEPT_TERMS);
    this.#keptRange = db.prepare(KEPT_RANGE);
  }

  /** Whether the kept counts may be read in an index of `papers` (see COUNTS_DRIFT). */
  current(papers: number): boolean {
    const at = this.#countedAt.get();
    return at !== undefined && at > 0 && Math.abs(papers - at) <= at * COUNTS_DRIFT;
  }

  /** Papers holding each of `terms` per column (columns without it left out); `count` reads the others. */
  columns(terms: readonly string[], count: (terms: readonly string[]) => ColumnDocs[]): ColumnDocs[] {
    const kept = this.#kept.all(JSON.stringify(terms));
    const found = new Set(kept.map((k) => k.term));
    const rest = terms.filter((t) => !found.has(t));
    const out = kept.flatMap((k) =>
      SEARCH_COLUMNS.filter((field) => k[field] > 0).map((field) => ({
        term: k.term,
        field,
        docs: k[field],
      })),
    );
    return rest.length === 0 ? out : [...out, ...count(rest)];
  }

  /** Papers holding each of `terms` that is indexed (the others left out). */
  terms(terms: readonly string[], read: Fts5Vocabulary): TermDocs[] {
    const kept = this.#kept.all(JSON.stringify(terms));
    const found = new Set(kept.map((k) => k.term));
    const rest = terms.filter((t) => !found.has(t));
    const out = kept.map(({ term, docs }) => ({ term, docs }));
    return rest.length === 0 ? out : [...out, ...read.terms(rest)];
  }

  /**
   * Indexed terms from `from` (included) to `to` (excluded), in order, at most `limit`: the kept ones from
   * the table, FTS5's vocabulary read only in the gaps between them, so no common term's list is walked.
   */
  range(from: string, to: string, limit: number, read: Fts5Vocabulary): TermDocs[] {
    const kept = this.#keptRange.all(from, to, limit);
    const out: TermDocs[] = [];
    let start = from;
    let startIncluded = true;
    for (const k of [...kept, null]) {
      const end = k === null ? to : k.term;
      const left = limit - out.length;
      if (left <= 0) break;
      out.push(...read.range(start, end, left, startIncluded));
      if (k === null || out.length >= limit) break;
      out.push(k);
      start = k.term;
      startIncluded = false;
    }
    return out.slice(0, limit);
  }
}
