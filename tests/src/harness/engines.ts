import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe } from 'vitest';
import * as Y from 'yjs';
import { openPgGroupStores } from '@quire/server/store/pg/open-pg-stores';
import { openPgPool } from '@quire/server/store/pg/pg-pool';
import { createThrowawayDatabase, type ThrowawayDatabase } from '@quire/server/store/pg/throwaway-database';
import { storedDoc, storedRows } from './stored-group.ts';

/*
 * The group side's two engines for the suites that matter for groups, access and durability (issue 13):
 * each such suite runs once on SQLite and once with the group side on PostgreSQL. The PostgreSQL run works
 * in a database of its own, created before the file's tests and dropped after them, so files stay
 * independent on one server. `npm test` always provides the server (scripts/test-services.sh).
 */

export type EngineName = 'SQLite' | 'PostgreSQL';

export interface GroupEngine {
  readonly name: EngineName;
  /**
   * The group side's PostgreSQL address for this file (QuireConfig.databaseUrl / QUIRE_DATABASE_URL), or
   * null on SQLite. Read it inside tests or hooks: the database exists only once the file's hooks ran.
   */
  readonly databaseUrl: string | null;
  /** Update rows of a group as the server stored them (its SQLite file, or PostgreSQL). */
  storedRows(dbPath: string, groupId: string): Promise<number>;
  /** The group's document rebuilt from its stored rows alone. */
  storedDoc(dbPath: string, groupId: string): Promise<Y.Doc>;
  /** Every row of one of the group side's tables as JSON text, to check what it must never hold. */
  storedTable(dbPath: string, table: GroupTable): Promise<string>;
}

export type GroupTable = 'groups' | 'group_invites' | 'calendar_feeds';

const PG_URL = process.env.QUIRE_TEST_DATABASE_URL ?? '';

/** Why the PostgreSQL runs are skipped, or null when a server is given. */
export const PG_SKIP: string | null = PG_URL
  ? null
  : (process.env.QUIRE_TEST_POSTGRES_SKIP ??
    'QUIRE_TEST_DATABASE_URL is not set (npm test starts a throwaway PostgreSQL; by hand: bash scripts/test-services.sh pnpm exec vitest run <file>)');

/** The default engine: the group side in the server's SQLite file. */
export const SQLITE_ENGINE: GroupEngine = {
  name: 'SQLite',
  databaseUrl: null,
  storedRows: (dbPath, groupId) => Promise.resolve(storedRows(dbPath, groupId)),
  storedDoc: (dbPath, groupId) => Promise.resolve(storedDoc(dbPath, groupId)),
  storedTable: (dbPath, table) => {
    const db = new BetterSqlite3(dbPath, { readonly: true, fileMustExist: true });
    try {
      return Promise.resolve(JSON.stringify(db.prepare(`SELECT * FROM ${table}`).all()));
    } finally {
      db.close();
    }
  },
};

/** Reads through the PostgreSQL update log itself, over a pool of the test's own. */
async function withPgLog<T>(
  url: string,
  read: (stores: Awaited<ReturnType<typeof openPgGroupStores>>) => Promise<T>,
) {
  const stores = await openPgGroupStores(url);
  try {
    return await read(stores);
  } finally {
    await stores.close();
  }
}

function postgres(label: string): GroupEngine {
  let database: ThrowawayDatabase | null = null;
  beforeAll(async () => {
    database = await createThrowawayDatabase(PG_URL, label);
  });
  afterAll(async () => {
    await database?.drop();
  });
  const url = (): string => {
    if (!database)
      throw new Error(
        `the PostgreSQL database for ${label} was not created (read databaseUrl inside a test or hook)`,
      );
    return database.url;
  };
  return {
    name: 'PostgreSQL',
    get databaseUrl() {
      return url();
    },
    storedRows: (_dbPath, groupId) => withPgLog(url(), (s) => s.groupUpdates.count(groupId)),
    storedDoc: (_dbPath, groupId) =>
      withPgLog(url(), async (s) => {
        const doc = new Y.Doc();
        for (const row of await s.groupUpdates.load(groupId)) Y.applyUpdate(doc, row.data);
        return doc;
      }),
    storedTable: async (_dbPath, table) => {
      const pool = await openPgPool(url());
      try {
        // bytea comes back as a Buffer, which JSON writes out byte by byte, as SQLite's BLOBs are.
        return JSON.stringify((await pool.query(`SELECT * FROM ${table}`)).rows);
      } finally {
        await pool.end();
      }
    },
  };
}

/**
 * `describe(title, body)` once per engine: "<title> (SQLite)" and "<title> (PostgreSQL)". Without a
 * PostgreSQL server the second is skipped and says why, once per file.
 */
export function describeOnEngines(title: string, body: (engine: GroupEngine) => void): void {
  describe(`${title} (SQLite)`, () => body(SQLITE_ENGINE));
  if (PG_SKIP) {
    console.warn(`${title}: the PostgreSQL run is skipped: ${PG_SKIP}`);
    describe.skip(`${title} (PostgreSQL)`, () => body(SQLITE_ENGINE));
    return;
  }
  describe(`${title} (PostgreSQL)`, () => body(postgres(title)));
}
