import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { beginBulkLoad, pauseIndexMerging, restoreIndexMerging } from './bulk-load.ts';
import { sqliteImportWrites } from './import-writes.ts';
import type { Store } from './open-store.ts';
import { LISTING, testPaper } from './paper-fixture.ts';
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

// FTS5's own record of the setting, as it merges by it: the whole index's, then the titles' own.
const automerge = () =>
  ['paper_search', 'paper_titles'].map((index) =>
    store.db.prepare<[], number>(`SELECT v FROM ${index}_config WHERE k = 'automerge'`).pluck().get(),
  );

describe('pauseIndexMerging', () => {
  it('turns automerge off until the returned function puts back the schema value', () => {
    expect(automerge()).toEqual([8, 8]);
    const resume = pauseIndexMerging(store.db);
    expect(automerge()).toEqual([0, 0]);
    resume();
    expect(automerge()).toEqual([8, 8]);
  });

  it('is put back by restoreIndexMerging when a killed load left it off', () => {
    pauseIndexMerging(store.db);
    restoreIndexMerging(store.db);
    expect(automerge()).toEqual([8, 8]);
  });
});

describe("an import's bulk load", () => {
  it('pauses the index merges into a store that never indexed a paper, and gives them back at its end', async () => {
    const writes = sqliteImportWrites(store);
    const end = writes.beginBulkLoad?.();
    expect(automerge()).toEqual([0, 0]);
    await writes.storeBatch([testPaper({ id: '2401.00001' })], {}, null);
    expect(await writes.afterBulkLoad?.(1)).not.toBeNull();
    end?.();
    expect(automerge()).toEqual([8, 8]);
  });

  it('leaves them on in a store that holds papers, and puts back what a killed load left off', () => {
    store.papers.upsertBatch([testPaper({ id: '2401.00001' })], LISTING);
    pauseIndexMerging(store.db);
    const end = sqliteImportWrites(store).beginBulkLoad?.();
    expect(automerge()).toEqual([8, 8]);
    end?.();
    expect(automerge()).toEqual([8, 8]);
  });
});
