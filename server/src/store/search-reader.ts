import type { Database } from 'better-sqlite3';
import { fts5Expression } from './fts5-match.ts';
import { openReadOnlyDatabase } from './open-database.ts';
import { settled } from './settled.ts';
import {
  SearchIndex,
  type AverageTerms,
  type ColumnDocs,
  type ColumnWeights,
  type IndexFilters,
  type PaperTextRow,
  type RankedPage,
  type RankedRow,
  type TermDocs,
} from './search-index.ts';
import type { Match } from './search-match.ts';
import { titlesOnly } from './search-titles.ts';
import type { StoreSource } from './stores.ts';

// Both engines count a query's matches exactly up to the same number, and past it tell the count or
// their estimate of it rounded to two significant figures, marked estimated: they agree on every total
// up to the cap, and on its form past it.
export { EXACT_TOTAL_UP_TO, roundedTotal, toldTotal } from './search-index.ts';
export type {
  AverageTerms,
  ColumnDocs,
  ColumnWeights,
  IndexFilters,
  PaperTextRow,
  RankedPage,
  RankedRow,
  TermDocs,
} from './search-index.ts';

/**
 * What search reads of the store, for either engine: the search service holds no database handle and
 * says what to look for as a `Match`, which each engine renders as its own query (FTS5 expression,
 * tsquery). Promise-returning, as a network engine answers; the search thread awaits them one query at
 * a time, off the server's event loop.
 */
export interface SearchReader {
  /**
   * True when reads asked together are answered together (PostgreSQL's pool); false when each runs to its
   * end before the next starts (SQLite, synchronous in one thread), so that reading ahead only adds work.
   */
  readonly readsOverlap: boolean;
  /**
   * A page of the papers matching `match` and the filters, best first by the engine's first ranking
   * (bm25 on SQLite, ts_rank on PostgreSQL) with `weights`, and how many match: exactly up to
   * EXACT_TOTAL_UP_TO, past it an estimate rounded by `roundedTotal` (see search-index.ts). `subset`: a match holding only papers `match`
   * holds, cheaper to count (a prefix as its whole word).
   */
  ranked(
    match: Match,
    filters: IndexFilters,
    weights: ColumnWeights,
    page: { limit: number; offset: number; window: number; subset?: Match },
  ): Promise<RankedPage>;
  /** The best `limit` among the `window` most recently indexed matches, uncounted. */
  best(
    match: Match,
    filters: IndexFilters,
    weights: ColumnWeights,
    page: { limit: number; window: number; subset?: Match },
  ): Promise<RankedRow[]>;
  countMatches(match: Match, filters: IndexFilters): Promise<number>;
  /** Papers matching `match` (every paper when null) and the filters, newest listing first, undated last. */
  newest(
    match: Match | null,
    filters: IndexFilters,
    page: { limit: number; offset: number },
  ): Promise<{ ids: string[]; total: number }>;
  /** How many papers match, counting no further than `cap`. */
  hitsUpTo(match: Match, cap: number): Promise<number>;
  /** Papers holding each of `terms` that is indexed at all. */
  vocabulary(terms: readonly string[]): Promise<TermDocs[]>;
  /** Indexed terms from `from` (included) to `to` (excluded), in code point order, at most `limit`. */
  vocabularyRange(from: string, to: string, limit: number): Promise<TermDocs[]>;
  /** Papers holding each of `terms`, per column (columns without it left out). */
  columnVocabulary(terms: readonly string[]): Promise<ColumnDocs[]>;
  /** Mean terms per column of an indexed paper. */
  averageTerms(): Promise<AverageTerms>;
  /** At least the number of papers indexed. */
  indexedPapers(): Promise<number>;
  paperRows(ids: readonly string[]): Promise<Map<string, PaperTextRow>>;
  /** The topics the stored closure counts under `topic` (itself included). */
  storedNarrower(topic: string): Promise<string[]>;
  /** The stored (narrowest) tags of each paper. */
  tagsOf(ids: readonly string[]): Promise<{ paper_id: string; topic: string }[]>;
  close(): Promise<void>;
}

/** SQLite's reader: the on-disk FTS5 index (SearchIndex), each match rendered as an FTS5 expression. */
export class SqliteSearchReader implements SearchReader {
  readonly readsOverlap = false;
  readonly #index: SearchIndex;
  readonly #owned: Database | null;

  /** `owned`: a connection this reader closes with itself. */
  constructor(index: SearchIndex, owned: Database | null = null) {
    this.#index = index;
    this.#owned = owned;
  }

  ranked(
    match: Match,
    filters: IndexFilters,
    weights: ColumnWeights,
    page: { limit: number; offset: number; window: number; subset?: Match },
  ): Promise<RankedPage> {
    return settled(() => this.#index.ranked(fts5Expression(match), filters, weights, withSubset(page)));
  }

  best(
    match: Match,
    filters: IndexFilters,
    weights: ColumnWeights,
    page: { limit: number; window: number; subset?: Match },
  ): Promise<RankedRow[]> {
    // Titles alone, with nothing cheaper to count by: from the titles' own index (search-titles.ts).
    const titles = page.subset === undefined ? titlesOnly(match) : null;
    if (titles !== null) {
      return settled(() =>
        this.#index.bestTitles(fts5Expression(titles), filters, weights.title, {
          limit: page.limit,
          window: page.window,
        }),
      );
    }
    return settled(() => this.#index.best(fts5Expression(match), filters, weights, withSubset(page)));
  }

  countMatches(match: Match, filters: IndexFilters): Promise<number> {
    return settled(() => this.#index.countMatches(fts5Expression(match), filters));
  }

  newest(
    match: Match | null,
    filters: IndexFilters,
    page: { limit: number; offset: number },
  ): Promise<{ ids: string[]; total: number }> {
    return settled(() => this.#index.newest(match === null ? null : fts5Expression(match), filters, page));
  }

  hitsUpTo(match: Match, cap: number): Promise<number> {
    return settled(() => this.#index.hitsUpTo(fts5Expression(match), cap));
  }

  vocabulary(terms: readonly string[]): Promise<TermDocs[]> {
    return settled(() => this.#index.vocabulary(terms));
  }

  vocabularyRange(from: string, to: string, limit: number): Promise<TermDocs[]> {
    return settled(() => this.#index.vocabularyRange(from, to, limit));
  }

  columnVocabulary(terms: readonly string[]): Promise<ColumnDocs[]> {
    return settled(() => this.#index.columnVocabulary(terms));
  }

  averageTerms(): Promise<AverageTerms> {
    return settled(() => this.#index.averageTerms());
  }

  indexedPapers(): Promise<number> {
    return settled(() => this.#index.indexedPapers());
  }

  paperRows(ids: readonly string[]): Promise<Map<string, PaperTextRow>> {
    return settled(() => this.#index.paperRows(ids));
  }

  storedNarrower(topic: string): Promise<string[]> {
    return settled(() => this.#index.storedNarrower(topic));
  }

  tagsOf(ids: readonly string[]): Promise<{ paper_id: string; topic: string }[]> {
    return settled(() => this.#index.tagsOf(ids));
  }

  close(): Promise<void> {
    return settled(() => void this.#owned?.close());
  }
}

function withSubset<P extends { subset?: Match }>(page: P): Omit<P, 'subset'> & { subset?: string } {
  const { subset, ...rest } = page;
  return subset === undefined ? rest : { ...rest, subset: fts5Expression(subset) };
}

/** A reader over a connection the caller keeps (tests, benchmarks: the store's own). */
export function sqliteSearchReader(db: Database, options: { exactTotalUpTo?: number } = {}): SearchReader {
  return new SqliteSearchReader(new SearchIndex(db, options));
}

/** The search thread's reader: its own read-only connection to the store's file. */
export function openSearchReader(dbPath: string, options: { exactTotalUpTo?: number } = {}): SearchReader {
  const db = openReadOnlyDatabase(dbPath);
  return new SqliteSearchReader(new SearchIndex(db, options), db);
}

/** Where a search thread reads the index: the SQLite file, or a PostgreSQL database (issue 13). */
export type SearchSource = StoreSource;

/** A reader of its own over `source` (the search thread's). */
export async function openSearchReaderAt(source: SearchSource): Promise<SearchReader> {
  if (source.engine === 'sqlite') return openSearchReader(source.dbPath);
  // Loaded only where PostgreSQL is searched.
  const { openPgSearchReader } = await import('./pg/pg-search-reader.ts');
  return openPgSearchReader(source.databaseUrl);
}
