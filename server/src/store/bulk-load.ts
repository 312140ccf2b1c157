import type { Database } from 'better-sqlite3';

/**
 * Connection settings for a long run of large write transactions (a dump import), set by `beginBulkLoad`
 * and put back by the function it returns. They change how this connection writes, never what it
 * writes, nor what a crash can lose: every batch still commits whole with its checkpoint.
 *
 * - temp_store = MEMORY: a statement that fires triggers inside a transaction keeps a statement journal
 *   (each page it changes, copied first); past 64 KiB SQLite spills it to a temporary file, so every
 *   batch wrote its journal to disk and read nothing of it back.
 * - wal_autocheckpoint = 16,384 pages (64 MiB): a batch dirties several MiB of pages, so the default
 *   (1,000 pages) checkpointed after nearly every commit, copying the same index leaves and counts to the
 *   database file again at each; with a larger log a page changed by many batches is copied once.
 * - cache_size = 64 MiB (better-sqlite3's default is 16 MB): the leaves each batch revisits (a topic's
 *   tags, its day counts, the search index's newest segments) stay in memory rather than being read back.
 */
const BULK_SETTINGS = { temp_store: 'MEMORY', wal_autocheckpoint: 16_384, cache_size: -65_536 } as const;

type Setting = keyof typeof BULK_SETTINGS;

/** Readies `db` for bulk writes; the returned function restores its earlier settings. */
export function beginBulkLoad(db: Database): () => void {
  const before = new Map<Setting, unknown>();
  for (const name of Object.keys(BULK_SETTINGS) as Setting[]) {
    before.set(name, db.pragma(name, { simple: true }));
    db.pragma(`${name} = ${BULK_SETTINGS[name]}`);
  }
  return () => {
    if (!db.open) return;
    for (const [name, value] of before) db.pragma(`${name} = ${String(value)}`);
  };
}
