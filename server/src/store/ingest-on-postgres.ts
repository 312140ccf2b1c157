import { redactedUrl } from '../errors.ts';
import type { HarvestWrites } from './harvest-writes.ts';
import type { IngestRecord } from './harvest-state.ts';
import type { ImportWrites } from './import-writes.ts';
import type { PaperRepository } from './paper-repository.ts';
import { openPgIngestStores, pgIngestStoresOver } from './pg/pg-ingest-stores.ts';
import { isPgPool, type PgPool } from './pg/pg-pool.ts';
import type { TagStore } from './tag-store.ts';

export { isPgPool, type PgPool };

/**
 * What `quire import` and `quire harvest` write papers through on PostgreSQL (QUIRE_DATABASE_URL), under
 * the engine-neutral interfaces their SQLite runs use, with the ingest log to read back.
 */
export interface IngestOnPostgres {
  imports: ImportWrites;
  harvests: HarvestWrites;
  papers: PaperRepository;
  tags: TagStore;
  recentIngests(n: number, kind?: 'import' | 'harvest' | 'fetch'): Promise<IngestRecord[]>;
  /** The database, password left out, for summaries. */
  where: string;
  close(): Promise<void>;
}

/** Connects to `url`, migrates it, and marks this host's runs whose process died as interrupted. */
export async function openIngestOnPostgres(
  url: string,
  options: { now?: () => Date } = {},
): Promise<IngestOnPostgres> {
  const pg = await openPgIngestStores(url, options);
  return {
    imports: pg.imports,
    harvests: pg.harvests,
    papers: pg.papers,
    tags: pg.tags,
    recentIngests: (n, kind) => pg.state.recentIngests(n, kind),
    where: redactedUrl(url),
    close: () => pg.close(),
  };
}

/** A harvester's writes over a migrated pool the caller owns (a node's, shared with its other stores). */
export function pgHarvestTarget(pool: PgPool, options: { now?: () => Date } = {}): HarvestWrites {
  return pgIngestStoresOver(pool, options).harvests;
}
