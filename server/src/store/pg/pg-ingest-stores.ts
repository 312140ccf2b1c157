import type { HarvestWrites } from '../harvest-writes.ts';
import type { ImportWrites } from '../import-writes.ts';
import { PgHarvestState } from './pg-harvest-state.ts';
import { pgHarvestWrites } from './pg-harvest-writes.ts';
import { pgImportWrites } from './pg-import-writes.ts';
import { openMigratedPool } from './pg-migrations.ts';
import { PgPaperStore } from './pg-paper-store.ts';
import type { PgPool } from './pg-pool.ts';
import { PgTagStore } from './pg-tag-store.ts';

/** What `quire import` and `quire harvest` write through on PostgreSQL, over one pool. */
export interface PgIngestStores {
  pool: PgPool;
  papers: PgPaperStore;
  state: PgHarvestState;
  tags: PgTagStore;
  imports: ImportWrites;
  harvests: HarvestWrites;
  close(): Promise<void>;
}

/**
 * Connects to `url`, migrates its schema, and marks this host's ingest runs whose process died as
 * interrupted, as opening a SQLite store does, before the command's own run begins.
 */
export async function openPgIngestStores(
  url: string,
  options: { now?: () => Date } = {},
): Promise<PgIngestStores> {
  const pool = await openMigratedPool(url);
  try {
    const stores = pgIngestStoresOver(pool, options);
    await stores.state.markInterruptedIngests();
    return stores;
  } catch (err) {
    await pool.end().catch(() => {});
    throw err;
  }
}

/** The ingest stores over a migrated pool the caller owns (closing them ends it). */
export function pgIngestStoresOver(pool: PgPool, options: { now?: () => Date } = {}): PgIngestStores {
  const papers = new PgPaperStore(pool, options);
  const state = new PgHarvestState(pool, options);
  const tags = new PgTagStore(pool);
  return {
    pool,
    papers,
    state,
    tags,
    imports: pgImportWrites(pool, papers, state, tags),
    harvests: pgHarvestWrites(pool, papers, state),
    close: () => pool.end(),
  };
}
