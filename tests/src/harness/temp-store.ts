import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withGroupsOnPostgres } from '@quire/server/store/groups-on-postgres';
import { openStore, type Store } from '@quire/server/store/open-store';
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

export interface TempGroupStore extends Omit<TempStore, 'dispose'> {
  dispose(): Promise<void>;
}

/**
 * tempStore() with its group side (groups, invites, calendar feeds, the update log) on `engine`: on
 * PostgreSQL as `quire serve --database-url` runs it, in that engine's database for this file.
 */
export async function tempStoreOn(engine: GroupEngine, prefix = 'quire-test-'): Promise<TempGroupStore> {
  const sqlite = tempStore(prefix);
  if (!engine.databaseUrl) return { ...sqlite, dispose: () => Promise.resolve(sqlite.dispose()) };
  const onPg = await withGroupsOnPostgres(sqlite.store, engine.databaseUrl);
  return {
    ...sqlite,
    store: onPg.store,
    async dispose() {
      await onPg.close();
      sqlite.dispose();
    },
  };
}
