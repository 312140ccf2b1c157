import type { Store } from '../store/open-store.ts';
import { sqliteHarvestWrites, type HarvestWrites } from '../store/harvest-writes.ts';
import { isPgPool, pgHarvestTarget, type PgPool } from '../store/ingest-on-postgres.ts';

export type { UpsertCounts } from '../store/paper-store.ts';
export { ZERO_COUNTS, addCounts, type PaperBatch } from '../store/harvest-writes.ts';

/**
 * What a harvester needs from the store. Kept narrow so harvesters stay easy to test and so a page's papers
 * and its checkpoint are written in one transaction: a page is stored whole or not at all. The store layer
 * provides one per engine (harvest-writes.ts; PostgreSQL's in store/pg).
 */
export type HarvestTarget = HarvestWrites;

/**
 * A harvester's writes into the node's SQLite store, or into PostgreSQL over `pool` (a migrated one, which
 * the caller keeps and ends).
 */
export function harvestTarget(on: Store | PgPool, options: { now?: () => Date } = {}): HarvestTarget {
  return isPgPool(on) ? pgHarvestTarget(on, options) : sqliteHarvestWrites(on);
}
