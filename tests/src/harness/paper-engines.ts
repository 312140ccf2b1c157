import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, describe } from 'vitest';
import { harvestTarget, type HarvestTarget } from '@quire/server/harvest/harvest-target';
import { importInto, type ImportOptions, type ImportReport } from '@quire/server/ingest/import-dumps';
import type { IngestKind, IngestRecord } from '@quire/server/store/harvest-state';
import { sqliteImportWrites, type ImportWrites } from '@quire/server/store/import-writes';
import { openStore } from '@quire/server/store/open-store';
import { sqlitePapers, type PaperRepository } from '@quire/server/store/paper-repository';
import { openPgIngestStores } from '@quire/server/store/pg/pg-ingest-stores';
import { openPgPool, type PgPool } from '@quire/server/store/pg/pg-pool';
import { postgresForTests, type PostgresForTests } from '@quire/server/store/pg/postgres-for-tests';
import type { TagStore } from '@quire/server/store/tag-store';

/*
 * The paper side's two engines for the import and harvest suites (issue 13): each such suite runs its
 * behaviour once on a SQLite file and once on PostgreSQL, each store in a database of its own created for
 * the test and dropped when the file ends, and reads the results through one engine-neutral view (the
 * store's own interfaces, and SQL whose text both engines read alike), so the same assertions run twice.
 */

export type EngineName = 'SQLite' | 'PostgreSQL';

/** Where a store lives, for what runs beside the test: a CLI child process, or a second reader. */
export interface StoreAddress {
  engine: EngineName;
  /** The SQLite file (on PostgreSQL too: the CLI is given one, which then holds nothing of the papers). */
  dbPath: string;
  /** The PostgreSQL database, or null on SQLite. */
  databaseUrl: string | null;
  /** `quire` arguments that choose this store. */
  cliArgs: string[];
}

/** One store of an engine, opened, as the suites read and write it. */
export interface PaperEngineStore extends StoreAddress {
  papers: PaperRepository;
  tags: TagStore;
  /** harvestTarget over this store (its SQLite Store, or a pool on PostgreSQL). */
  target: HarvestTarget;
  imports: ImportWrites;
  importPaths(paths: readonly string[], opts?: ImportOptions): Promise<ImportReport>;
  lastIngest(kind?: IngestKind): Promise<IngestRecord | undefined>;
  recentIngests(n: number, kind?: IngestKind): Promise<IngestRecord[]>;
  /** Rows of `sql` (text both engines read alike), each row's values joined by spaces. */
  rows(sql: string): Promise<string[]>;
  /** The single number `sql` answers. */
  count(sql: string): Promise<number>;
  /** Every paper and category row hashed, so "nothing changed" covers every column, updated_at too. */
  fingerprint(): Promise<string>;
  close(): Promise<void>;
}

export interface PaperEngine {
  name: EngineName;
  /** A fresh empty store, opened; removed when the file's tests end. */
  fresh(label: string): Promise<PaperEngineStore>;
  /** A fresh empty store's address only, for a child process to fill (`open` it afterwards). */
  address(label: string): Promise<StoreAddress>;
  /** Opens a store at `address` (on SQLite this marks runs of dead processes interrupted, as any start does). */
  open(address: StoreAddress): Promise<PaperEngineStore>;
}

/** A value as text: strings, numbers and booleans as they are, anything else (a Buffer, a Date) as JSON. */
function cell(v: unknown): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return `${v}`;
  return JSON.stringify(v);
}
const joinRow = (row: unknown[]): string => row.map(cell).join(' ');

/** The tables tagging writes or derives, as text: the same on both engines for the same tags. */
export async function taggingSnapshot(store: PaperEngineStore) {
  return {
    tags: await store.rows(
      'SELECT topic, paper_id, score, evidence FROM paper_tags ORDER BY topic, paper_id',
    ),
    topics: await store.rows(
      'SELECT topic, paper_id, listing_date FROM paper_topics ORDER BY topic, paper_id',
    ),
    counts: await store.rows(
      'SELECT topic, listing_date, n FROM topic_day_counts ORDER BY topic, listing_date',
    ),
    stale: await store.rows('SELECT paper_id FROM papers_to_tag ORDER BY paper_id'),
    state: await store.rows('SELECT topic, definition_hash FROM topic_state ORDER BY topic'),
  };
}

const FINGERPRINT_QUERIES = [
  'SELECT * FROM papers ORDER BY id',
  'SELECT * FROM paper_categories ORDER BY paper_id, category',
];

/** SQLite files in temp folders of their own, removed when the file's tests end. */
export function sqliteEngine(): PaperEngine {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  const address = (label: string): Promise<StoreAddress> => {
    const dir = mkdtempSync(join(tmpdir(), `quire-${label.replace(/[^a-z0-9]+/gi, '-')}-`));
    dirs.push(dir);
    const dbPath = join(dir, 'quire.db');
    return Promise.resolve({ engine: 'SQLite', dbPath, databaseUrl: null, cliArgs: ['--db', dbPath] });
  };
  const open = (at: StoreAddress): Promise<PaperEngineStore> => {
    const store = openStore(at.dbPath);
    const imports = sqliteImportWrites(store);
    const raw = (sql: string) => store.db.prepare(sql).raw().all() as unknown[][];
    return Promise.resolve({
      ...at,
      papers: sqlitePapers(store.papers),
      tags: store.tags,
      target: harvestTarget(store),
      imports,
      importPaths: (paths, opts) => importInto(imports, paths, opts),
      lastIngest: (kind) => Promise.resolve(store.state.lastIngest(kind)),
      recentIngests: (n, kind) => Promise.resolve(store.state.recentIngests(n, kind)),
      rows: (sql) => Promise.resolve(raw(sql).map(joinRow)),
      count: (sql) => Promise.resolve(Number(raw(sql)[0]?.[0] ?? 0)),
      fingerprint: () => {
        const hash = createHash('sha256');
        for (const sql of FINGERPRINT_QUERIES)
          for (const row of store.db.prepare(sql).raw().iterate()) hash.update(JSON.stringify(row));
        return Promise.resolve(hash.digest('hex'));
      },
      close: () => Promise.resolve(store.close()),
    });
  };
  return {
    name: 'SQLite',
    address,
    open,
    fresh: async (label) => open(await address(label)),
  };
}

/** Databases of their own on the test server, dropped when the file's tests end (register in a describe). */
export function postgresEngine(file: string): PaperEngine {
  const databases: PostgresForTests[] = [];
  const sqlite = sqliteEngine();
  afterAll(async () => {
    for (const database of databases) await database.drop();
  });
  const address = async (label: string): Promise<StoreAddress> => {
    const database = postgresForTests(`${file}_${label}`);
    databases.push(database);
    await database.create();
    const { dbPath } = await sqlite.address(label);
    const databaseUrl = database.url();
    return {
      engine: 'PostgreSQL',
      dbPath,
      databaseUrl,
      cliArgs: ['--db', dbPath, '--database-url', databaseUrl],
    };
  };
  const open = async (at: StoreAddress): Promise<PaperEngineStore> => {
    if (!at.databaseUrl) throw new Error('a PostgreSQL store needs its database address');
    const pg = await openPgIngestStores(at.databaseUrl);
    const raw = async (sql: string, pool: PgPool = pg.pool) =>
      (await pool.query<unknown[]>({ text: sql, rowMode: 'array' })).rows;
    return {
      ...at,
      papers: pg.papers,
      tags: pg.tags,
      target: harvestTarget(pg.pool),
      imports: pg.imports,
      importPaths: (paths, opts) => importInto(pg.imports, paths, opts),
      lastIngest: (kind) => pg.state.lastIngest(kind),
      recentIngests: (n, kind) => pg.state.recentIngests(n, kind),
      rows: async (sql) => (await raw(sql)).map(joinRow),
      count: async (sql) => Number((await raw(sql))[0]?.[0] ?? 0),
      fingerprint: async () => {
        const hash = createHash('sha256');
        for (const sql of FINGERPRINT_QUERIES)
          for (const row of await raw(sql)) hash.update(JSON.stringify(row));
        return hash.digest('hex');
      },
      close: () => pg.close(),
    };
  };
  return {
    name: 'PostgreSQL',
    address,
    open,
    fresh: async (label) => open(await address(label)),
  };
}

/** Why the PostgreSQL runs are skipped, or null when a server is given (as postgresForTests decides). */
export const PG_SKIP: string | null = process.env.QUIRE_TEST_DATABASE_URL
  ? null
  : (process.env.QUIRE_TEST_POSTGRES_SKIP ??
    'QUIRE_TEST_DATABASE_URL is not set (npm test starts a throwaway PostgreSQL; by hand: bash scripts/test-services.sh pnpm exec vitest run <file>)');

/**
 * `describe(title, body)` once per paper engine: "<title> (SQLite)" and "<title> (PostgreSQL)". `file`
 * names the file's databases on the shared server. Without a PostgreSQL server the second is skipped and
 * says why.
 */
export function describeOnPaperEngines(
  file: string,
  title: string,
  body: (engine: PaperEngine) => void,
): void {
  describe(`${title} (SQLite)`, () => body(sqliteEngine()));
  if (PG_SKIP) {
    console.warn(`${title}: the PostgreSQL run is skipped: ${PG_SKIP}`);
    describe.skip(`${title} (PostgreSQL)`, () => body(sqliteEngine()));
    return;
  }
  describe(`${title} (PostgreSQL)`, () => body(postgresEngine(file)));
}

/**
 * Reads a store another process is writing, through a connection opened for each look (no store is
 * opened, so nothing is marked interrupted); undefined while the store or its tables do not exist yet.
 */
export async function peek<T>(
  at: StoreAddress,
  sql: string,
  params: unknown[] = [],
): Promise<T[] | undefined> {
  if (at.databaseUrl) {
    const pool = await openPgPool(at.databaseUrl);
    try {
      return (await pool.query({ text: sql, values: params })).rows as T[];
    } catch (err) {
      if (err instanceof Error && /does not exist/.test(err.message)) return undefined;
      throw err;
    } finally {
      await pool.end();
    }
  }
  let db: BetterSqlite3.Database;
  try {
    db = new BetterSqlite3(at.dbPath, { readonly: true, fileMustExist: true });
  } catch {
    return undefined;
  }
  try {
    return db.prepare(sql.replace(/\$\d+/g, '?')).all(...params) as T[];
  } catch (err) {
    if (err instanceof Error && /no such table/.test(err.message)) return undefined;
    throw err;
  } finally {
    db.close();
  }
}
