import { openReadOnlyDatabase } from './open-database.ts';
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

/**
 * What search reads of the store: the on-disk index's queries, shaped so the search service never holds
 * a database handle. SQLite's `SearchIndex` is the one engine today; another (PostgreSQL, issue 13) would
 * implement this beside it. The methods are synchronous because the search thread owns its connection
 * and answers one query at a time; a network engine would make them async behind the same thread
 * protocol (SearchApi is already async at the API).
 */
export interface SearchReader {
  /**
   * A page of the papers matching `match` and the filters, best first by bm25, and how many match
   * (estimated when the text matches more than EXACT_TOTAL_UP_TO: see search-index.ts). `subset`: an
   * expression matching only papers `match` matches, cheaper to count (a prefix as its whole word).
   */
  ranked(
    match: string,
    filters: IndexFilters,
    weights: ColumnWeights,
    page: { limit: number; offset: number; window: number; subset?: string },
  ): RankedPage;
  /** The best `limit` by bm25 among the `window` most recently indexed matches, uncounted. */
  best(
    match: string,
    filters: IndexFilters,
    weights: ColumnWeights,
    page: { limit: number; window: number; subset?: string },
  ): RankedRow[];
  countMatches(match: string, filters: IndexFilters): number;
  /** Papers matching `match` (every paper when null) and the filters, newest listing first. */
  newest(
    match: string | null,
    filters: IndexFilters,
    page: { limit: number; offset: number },
  ): { ids: string[]; total: number };
  hitsUpTo(match: string, cap: number): number;
  vocabulary(terms: readonly string[]): TermDocs[];
  vocabularyRange(from: string, to: string, limit: number): TermDocs[];
  columnVocabulary(terms: readonly string[]): ColumnDocs[];
  averageTerms(): AverageTerms;
  indexedPapers(): number;
  paperRows(ids: readonly string[]): Map<string, PaperTextRow>;
  storedNarrower(topic: string): string[];
  tagsOf(ids: readonly string[]): { paper_id: string; topic: string }[];
}

/** The search thread's reader: its own read-only connection to the store's file. */
export function openSearchReader(dbPath: string, options: { exactTotalUpTo?: number } = {}): SearchReader {
  return new SearchIndex(openReadOnlyDatabase(dbPath), options);
}
