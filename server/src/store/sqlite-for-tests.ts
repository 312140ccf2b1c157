import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type Store, type StoreOptions } from './open-store.ts';

/** A store in a SQLite file of its own in a temporary folder, removed with it on `close`. */
export function sqliteForTests(
  label: string,
  options: StoreOptions = {},
): { store: Store; close: () => Promise<void> } {
  const dir = mkdtempSync(join(tmpdir(), `quire-${label}-`));
  const store = openStore(join(dir, 'quire.db'), options);
  return {
    store,
    close: () => {
      store.close();
      rmSync(dir, { recursive: true, force: true });
      return Promise.resolve();
    },
  };
}
