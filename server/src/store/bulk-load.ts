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

/**
 * FTS5's automerge as the schema sets it (the 'search-index-merging' migration): what an index is left
 * with after a bulk load, and what a store left at 0 by a killed one is given back.
 */
const SCHEMA_AUTOMERGE = 8;
/** The FTS5 indexes a bulk load writes, each merged whole at its end (`optimizeSearchIndex`). */
const BULK_INDEXES = ['paper_search', 'paper_titles'] as const;
type BulkIndex = (typeof BULK_INDEXES)[number];
// FTS5 takes a setting's value written out, not bound.
const SET_AUTOMERGE = (index: BulkIndex, value: number): string =>
  `INSERT INTO ${index} (${index}, rank) VALUES ('automerge', ${value})`;
const STORED_AUTOMERGE = (index: BulkIndex): string => `SELECT v FROM ${index}_config WHERE k = 'automerge'`;

/**
 * Turns FTS5's automerge off for a bulk load whose end merges the whole index into one segment anyway
 * (`optimizeSearchIndex`): each merge on the way rewrote terms that the final merge rewrites once more. Only
 * crisis merges remain (a level's 32 segments merged into one of the next, set by the schema), which keep
 * the segments far below FTS5's limit of 2,000 (at 100x, 1,343 batches: at most about 31 a level, 3 levels). The returned function gives automerge
 * back. A load killed before that leaves it off, so a later bulk load that does not turn it off puts it back
 * first (`restoreIndexMerging`); until then harvests still merge through the crisis merges.
 */
export function pauseIndexMerging(db: Database): () => void {
  for (const index of BULK_INDEXES) db.prepare(SET_AUTOMERGE(index, 0)).run();
  return () => {
    if (!db.open) return;
    for (const index of BULK_INDEXES) db.prepare(SET_AUTOMERGE(index, SCHEMA_AUTOMERGE)).run();
  };
}

/** Gives automerge back if a bulk load killed while it was paused left it off. */
export function restoreIndexMerging(db: Database): void {
  for (const index of BULK_INDEXES) {
    const stored = db.prepare<[], unknown>(STORED_AUTOMERGE(index)).pluck().get();
    if (stored !== undefined && Number(stored) !== SCHEMA_AUTOMERGE)
      db.prepare(SET_AUTOMERGE(index, SCHEMA_AUTOMERGE)).run();
  }
}
