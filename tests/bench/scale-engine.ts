/**
 * The store `pnpm bench scale` builds and serves: the SQLite file (default), or PostgreSQL (`--engine
 * postgres`: a throwaway server started as scripts/test-services.sh starts it, one database in it), loaded
 * through the same import path and re-tag, and served by `quire serve` with QUIRE_DATABASE_URL.
 */
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { importInto, type ImportOptions, type ImportReport } from '@quire/server/ingest/import-dumps';
import { sqliteImportWrites } from '@quire/server/store/import-writes';
import { openIngestOnPostgres } from '@quire/server/store/ingest-on-postgres';
import { openStore } from '@quire/server/store/open-store';
import { openPgPool } from '@quire/server/store/pg/pg-pool';
import { createThrowawayDatabase } from '@quire/server/store/pg/throwaway-database';
import type { TagStore } from '@quire/server/store/tag-store';
import { freePort } from './sync/bench-servers.ts';
import { startBenchServices } from './sync/bench-services.ts';

const PG_BIN = process.env.QUIRE_PG_BIN ?? '/usr/lib/postgresql/15/bin';
/** The database a kept PostgreSQL cluster (`--keep DIR --engine postgres`) holds the bench's store in. */
const KEPT_DATABASE = 'quire_scale';

export type ScaleEngineName = 'sqlite' | 'postgres';
export const SCALE_ENGINES: readonly ScaleEngineName[] = ['sqlite', 'postgres'];

/** A store opened to load it: the import path's writes and the tags the re-tag brings up to date. */
export interface LoadingStore {
  importPaths(paths: readonly string[], opts: ImportOptions): Promise<ImportReport>;
  tags: TagStore;
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

/**
 * Where the store lives beyond the bench: none (thrown away), or kept in `dir` (`--keep`: built there;
 * `--reuse`: served again from there). On PostgreSQL a kept store is a cluster of its own in `dir`/pg,
 * started on a free port for the run and stopped (cleanly, so it starts again) at its end.
 */
export interface KeptStore {
  dir: string;
  reuse: boolean;
}

/** The folder a kept PostgreSQL cluster's data lives in: what `--reuse` looks for. */
export const keptPgData = (dir: string): string => join(dir, 'pg', 'data');

export async function startScaleEngine(
  name: ScaleEngineName,
  dbPath: string,
  say: (line: string) => void,
  kept: KeptStore | null = null,
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
          close: () => Promise.resolve(store.close()),
        });
      },
      bytes: () => Promise.resolve(sqliteBytes(dbPath)),
      cliArgs: ['--db', dbPath],
      env: {},
      stop: () => Promise.resolve(),
    };
  }
  if (kept !== null) return postgresEngine(dbPath, await startKeptCluster(kept, say));
  const services = await startBenchServices(say);
  try {
    const database = await createThrowawayDatabase(services.databaseUrl, 'bench_scale');
    say(`PostgreSQL: a throwaway server, database ${new URL(database.url).pathname.slice(1)}`);
    return postgresEngine(dbPath, {
      url: database.url,
      stop: async () => {
        await database.drop();
        await services.stop();
      },
    });
  } catch (err) {
    await services.stop();
    throw err;
  }
}

function postgresEngine(dbPath: string, database: { url: string; stop(): Promise<void> }): ScaleEngine {
  const { url } = database;
  return {
    name: 'postgres',
    dbPath,
    open: async () => {
      const pg = await openIngestOnPostgres(url);
      return {
        importPaths: (paths, opts) => importInto(pg.imports, paths, opts),
        tags: pg.tags,
        close: () => pg.close(),
      };
    },
    bytes: async () => {
      const pool = await openPgPool(url);
      try {
        const { rows } = await pool.query<{ n: string }>('SELECT pg_database_size(current_database()) AS n');
        return Number(rows[0]?.n ?? NaN);
      } finally {
        await pool.end();
      }
    },
    // The SQLite file is still given: it holds the node's own state beside PostgreSQL's.
    cliArgs: ['--db', dbPath, '--database-url', url],
    env: { QUIRE_DATABASE_URL: url },
    stop: () => database.stop(),
  };
}

/**
 * A PostgreSQL cluster of the bench's own in `kept.dir`/pg, made as scripts/test-services.sh makes its
 * throwaway one (initdb as the postgres user when run as root, fsync off), or started again from what a
 * --keep left there. Stopped with a fast shutdown, which checkpoints, so the next --reuse starts at once.
 */
async function startKeptCluster(
  kept: KeptStore,
  say: (line: string) => void,
): Promise<{ url: string; stop(): Promise<void> }> {
  const pgDir = join(kept.dir, 'pg');
  const data = keptPgData(kept.dir);
  const asPostgres = process.getuid?.() === 0;
  const run = (bin: string, args: string[]): void => {
    const [cmd, ...rest] = asPostgres
      ? ['runuser', '-u', 'postgres', '--', join(PG_BIN, bin), ...args]
      : [join(PG_BIN, bin), ...args];
    execFileSync(cmd ?? '', rest, { cwd: pgDir, stdio: ['ignore', 'ignore', 'pipe'] });
  };
  if (!kept.reuse) {
    mkdirSync(pgDir, { recursive: true });
    if (asPostgres) {
      const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
      const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
      chownSync(pgDir, uid, gid);
    }
    run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres']);
  } else if (clusterRunning(run, data)) {
    // A bench killed outright (SIGKILL) never reached its stop: its postmaster still holds the data
    // folder, and starting another would be refused. It serves no one now; stop it and start afresh.
    say(`PostgreSQL: a cluster left running in ${data} (a bench killed before its stop); stopping it`);
    run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
  }
  const port = await freePort();
  run('pg_ctl', [
    '-D',
    data,
    '-l',
    join(pgDir, 'server.log'),
    '-w',
    '-o',
    `-p ${port} -k ${pgDir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`,
    'start',
  ]);
  // Also when the bench exits without reaching its stop (Ctrl-C, a crash): a cluster left running would
  // hold its port and the data folder's lock.
  let running = true;
  const stopNow = (): void => {
    if (!running) return;
    running = false;
    process.off('exit', stopNow);
    run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
  };
  process.once('exit', stopNow);
  const stop = (): Promise<void> => Promise.resolve(stopNow());
  const server = `postgres://postgres@127.0.0.1:${port}`;
  try {
    if (!kept.reuse) {
      const pool = await openPgPool(`${server}/postgres`);
      try {
        await pool.query(`CREATE DATABASE ${KEPT_DATABASE}`);
      } finally {
        await pool.end();
      }
    }
  } catch (err) {
    await stop();
    throw err;
  }
  say(`PostgreSQL: the bench's own cluster in ${data} on port ${port}, database ${KEPT_DATABASE} (kept)`);
  return { url: `${server}/${KEPT_DATABASE}`, stop };
}

/** Whether a postmaster runs on `data` (pg_ctl status: 0 running, 3 not; a stale postmaster.pid reads as not). */
function clusterRunning(run: (bin: string, args: string[]) => void, data: string): boolean {
  try {
    run('pg_ctl', ['-D', data, 'status']);
    return true;
  } catch {
    return false;
  }
}
