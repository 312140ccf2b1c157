import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { beginBulkLoad } from './bulk-load.ts';
import type { Store } from './open-store.ts';
import { sqliteForTests } from './sqlite-for-tests.ts';

let store: Store;
let close: () => Promise<void>;
beforeEach(() => {
  ({ store, close } = sqliteForTests('bulk-load'));
});
afterEach(() => close());

const settings = () => ({
  temp_store: store.db.pragma('temp_store', { simple: true }),
  wal_autocheckpoint: store.db.pragma('wal_autocheckpoint', { simple: true }),
  cache_size: store.db.pragma('cache_size', { simple: true }),
});

describe('beginBulkLoad', () => {
  it('keeps statement journals in memory, checkpoints every 64 MiB and caches 64 MiB, then puts back what was set', () => {
    const before = settings();
    const end = beginBulkLoad(store.db);
    // 2 is MEMORY; a negative cache size is in KiB.
    expect(settings()).toEqual({ temp_store: 2, wal_autocheckpoint: 16_384, cache_size: -65_536 });
    end();
    expect(settings()).toEqual(before);
  });

  it('does nothing once the connection is closed', async () => {
    const other = sqliteForTests('bulk-load-closed');
    const end = beginBulkLoad(other.store.db);
    other.store.close();
    expect(() => end()).not.toThrow();
    await other.close();
  });
});
