import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type Store } from '@quire/server/store/open-store';

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
