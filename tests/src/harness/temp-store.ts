import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type Store } from '@quire/server/store/open-store';
import { openPgGroupStores } from '@quire/server/store/pg/open-pg-stores';
import { sqliteStores, type Stores } from '@quire/server/store/stores';
import type { GroupEngine } from './engines.ts';

export interface TempStore {
  dir: string;
  dbPath: string;
  store: Store;
  dispose(): void;
}

/** A real SQLite file in a fresh temporary folder. */
export function tempStore(prefix = 'quire-test-'): TempStore {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const dbPath = join(dir, 'quire.db');
  const store = openStore(dbPath);
  return {
    dir,
    dbPath,
    store,
    dispose() {
      try {
        store.close();
      } catch {
        // already closed by the test
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Collapses whitespace the way a reader would compare two titles; independent of the code under test. */
export function squash(text: string | null): string | null {
  return text === null ? null : text.replace(/\s+/g, ' ').trim();
}

export interface TempGroupStore extends Omit<TempStore, 'store' | 'dispose'> {
  /** The file's stores behind the engine-neutral interfaces, the group side on the engine asked for. */
  store: Stores;
  dispose(): Promise<void>;
}

/**
 * tempStore() behind the engine-neutral interfaces, its group side (groups, invites, calendar feeds, the
 * update log) on `engine`: on PostgreSQL in that engine's database for this file.
 */
export async function tempStoreOn(engine: GroupEngine, prefix = 'quire-test-'): Promise<TempGroupStore> {
  const sqlite = tempStore(prefix);
  const { dir, dbPath } = sqlite;
  const stores = sqliteStores(sqlite.store);
  if (!engine.databaseUrl)
    return { dir, dbPath, store: stores, dispose: () => Promise.resolve(sqlite.dispose()) };
  const pg = await openPgGroupStores(engine.databaseUrl);
  const { groups, invites, groupUpdates, calendarFeeds } = pg;
  return {
    dir,
    dbPath,
    store: { ...stores, groups, invites, groupUpdates, calendarFeeds },
    async dispose() {
      await pg.close();
      sqlite.dispose();
    },
  };
}
