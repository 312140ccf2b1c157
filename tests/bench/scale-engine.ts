/**
 * The store `pnpm bench scale` builds and serves: the SQLite file (default), or PostgreSQL (`--engine
 * postgres`: a throwaway server started as scripts/test-services.sh starts it, one database in it), loaded
 * through the same import path and re-tag, and served by `quire serve` with QUIRE_DATABASE_URL.
 */
import { existsSync, statSync } from 'node:fs';
import { importInto, type ImportOptions, type ImportReport } from '@quire/server/ingest/import-dumps';
import { sqliteImportWrites } from '@quire/server/store/import-writes';
import { openIngestOnPostgres } from '@quire/server/store/ingest-on-postgres';
import { openStore } from '@quire/server/store/open-store';
import { openPgPool } from '@quire/server/store/pg/pg-pool';
import { createThrowawayDatabase } from '@quire/server/store/pg/throwaway-database';
import type { TagStore } from '@quire/server/store/tag-store';
import { startBenchServices } from './sync/bench-services.ts';

export type ScaleEngineName = 'sqlite' | 'postgres';
export const SCALE_ENGINES: readonly ScaleEngineName[] = ['sqlite', 'postgres'];

/** A store opened to load it: the import path's writes and the tags the re-tag brings up to date. */
export interface LoadingStore {
  importPaths(paths: readonly string[], opts: ImportOptions): Promise<ImportReport>;
  tags: TagStore;
  /** What `quire import` does last: the search index merged after a large import (SQLite). */
  afterImport(stored: number): Promise<boolean>;
  close(): Promise<void>;
}

export interface ScaleEngine {
  name: ScaleEngineName;
  /** The SQLite file (given to the server on PostgreSQL too, where it holds the node's own state). */
  dbPath: string;
  /** Opens the store to load it. */
  open(): Promise<LoadingStore>;
  /** Bytes the store holds on disk now. */
  bytes(): Promise<number>;
  /** `quire` arguments and environment that make a CLI command or the server use this store. */
  cliArgs: string[];
  env: NodeJS.ProcessEnv;
  /** Drops the database and stops the throwaway server (PostgreSQL); nothing on SQLite. */
  stop(): Promise<void>;
}

const sqliteBytes = (dbPath: string): number =>
  [dbPath, `${dbPath}-wal`, `${dbPath}-shm`].reduce(
    (sum, p) => sum + (existsSync(p) ? statSync(p).size : 0),
    0,
  );

export async function startScaleEngine(
  name: ScaleEngineName,
  dbPath: string,
  say: (line: string) => void,
): Promise<ScaleEngine> {
  if (name === 'sqlite') {
    return {
      name,
      dbPath,
      open: () => {
        const store = openStore(dbPath);
        const writes = sqliteImportWrites(store);
        return Promise.resolve({
          importPaths: (paths, opts) => importInto(writes, paths, opts),
          tags: store.tags,
          afterImport: (stored) => Promise.resolve(store.searchUpkeep.afterBulkLoad(stored)),
          close: () => Promise.resolve(store.close()),
        });
      },
      bytes: () => Promise.resolve(sqliteBytes(dbPath)),
      cliArgs: ['--db', dbPath],
      env: {},
      stop: () => Promise.resolve(),
    };
  }
  const services = await startBenchServices(say);
  try {
    const database = await createThrowawayDatabase(services.databaseUrl, 'bench_scale');
    const url = database.url;
    say(`PostgreSQL: a throwaway server, database ${new URL(url).pathname.slice(1)}`);
    return {
      name,
      dbPath,
      open: async () => {
        const pg = await openIngestOnPostgres(url);
        return {
          importPaths: (paths, opts) => importInto(pg.imports, paths, opts),
          tags: pg.tags,
          afterImport: () => Promise.resolve(false),
          close: () => pg.close(),
        };
      },
      bytes: async () => {
        const pool = await openPgPool(url);
        try {
          const { rows } = await pool.query<{ n: string }>(
            'SELECT pg_database_size(current_database()) AS n',
          );
          return Number(rows[0]?.n ?? NaN);
        } finally {
          await pool.end();
        }
      },
      // The SQLite file is still given: until the server reads papers from PostgreSQL it serves that file.
      cliArgs: ['--db', dbPath, '--database-url', url],
      env: { QUIRE_DATABASE_URL: url },
      stop: async () => {
        await database.drop();
        await services.stop();
      },
    };
  } catch (err) {
    await services.stop();
    throw err;
  }
}
