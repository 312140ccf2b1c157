import type { PaperEntity } from '@quire/core';
import type { PaperStats, PaperStore, UpsertCounts, UpsertOptions } from './paper-store.ts';
import { settled } from './settled.ts';

/**
 * The papers of a store as an engine that answers over the network must offer them: every call a promise.
 * SQLite's PaperStore answers at once and stays synchronous for the import's hot path; `sqlitePapers` puts
 * it behind this interface so code written against it runs on either engine (PgPaperStore on PostgreSQL).
 */
export interface PaperRepository {
  /** Stores a batch whole or not at all, merged with what is stored (see planPaperWrites). */
  upsertBatch(
    papers: readonly PaperEntity[],
    opts: Pick<UpsertOptions, 'countsAsListing'>,
  ): Promise<UpsertCounts>;
  get(id: string): Promise<PaperEntity | undefined>;
  has(id: string): Promise<boolean>;
  count(): Promise<number>;
  /** Every stored id, sorted. */
  ids(): Promise<string[]>;
  /** Ids of the papers listed in `category` (primary or cross-list), sorted. */
  idsInCategory(category: string): Promise<string[]>;
  stats(): Promise<PaperStats>;
  /** Papers listed between `from` and `to` (inclusive, YYYY-MM-DD), newest first, then by id descending. */
  byListingDate(from: string, to: string): Promise<PaperEntity[]>;
  /** Number of papers per listing day, in date order; papers without a listing date are left out. */
  countByListingDay(): Promise<Record<string, number>>;
}

/** SQLite's paper store behind the engine-neutral interface. */
export function sqlitePapers(store: PaperStore): PaperRepository {
  return {
    upsertBatch: (papers, opts) => settled(() => store.upsertBatch(papers, opts)),
    get: (id) => settled(() => store.get(id)),
    has: (id) => settled(() => store.has(id)),
    count: () => settled(() => store.count()),
    ids: () => settled(() => store.ids()),
    idsInCategory: (category) => settled(() => store.idsInCategory(category)),
    stats: () => settled(() => store.stats()),
    byListingDate: (from, to) => settled(() => store.byListingDate(from, to)),
    countByListingDay: () => settled(() => store.countByListingDay()),
  };
}
