import type { PaperEntity } from '@quire/core';
import { beginBulkLoad, pauseIndexMerging, restoreIndexMerging } from './bulk-load.ts';
import type { IngestKind, IngestLogEntry } from './harvest-state.ts';
import type { Store } from './open-store.ts';
import type { UpsertCounts } from './paper-store.ts';
import {
  COMPACT_FROM_SHARE,
  INDEXED_DOCS,
  optimizeSearchIndex,
  type KnownTerms,
} from './search-index-schema.ts';
import { refreshTermCounts } from './search-term-counts.ts';
import type { KnownTags, TagStore } from './tag-store.ts';
import { settled } from './settled.ts';

/** What a batch does to its file's checkpoint, in the batch's own transaction. */
export type CheckpointChange = { key: string; value: unknown } | { key: string; clear: true };

/** Search terms and tags the import worked out for a batch's papers beside parsing them. */
export interface PreparedExtras {
  knownTerms?: KnownTerms;
  knownTags?: KnownTags;
}

/**
 * What `quire import` writes, on either engine: each batch whole with its file's checkpoint, the
 * checkpoints read back to resume, the ingest log (a row opened as a file starts, so a killed import still
 * shows), and the tags the re-tag after it brings up to date. SQLite's answers at once.
 */
export interface ImportWrites {
  readonly tags: TagStore;
  /**
   * Why batches cannot carry tags the import worked out (the re-tag after the import tags them), or null
   * when they can.
   */
  readonly noPreparedTags: string | null;
  /** Dump lines per batch this engine writes best, unless the import is told otherwise. */
  readonly batchSize?: number;
  /**
   * Readies the connection for a run of large batches (SQLite: bulk-load.ts); the import calls what it
   * returns as it ends. Absent where the engine needs nothing of the kind.
   */
  beginBulkLoad?(): () => void;
  /**
   * Called once after an import's last batch with how many papers it wrote: an engine whose index reads
   * better rebuilt after a bulk load rebuilds it (SQLite: the FTS5 segments merged into one, when the
   * import wrote much of the store) and says how long that took in ms; null when it did nothing.
   */
  afterBulkLoad?(written: number): Promise<number | null>;
  storeBatch(
    papers: readonly PaperEntity[],
    extras: PreparedExtras,
    checkpoint: CheckpointChange | null,
  ): Promise<UpsertCounts>;
  getCheckpoint<T>(key: string): Promise<T | undefined>;
  startIngest(kind: IngestKind, source: string, startedAt: Date): Promise<number>;
  finishIngest(id: number, entry: Omit<IngestLogEntry, 'kind' | 'source' | 'startedAt'>): Promise<void>;
}

/**
 * SQLite's batch: 2,000 lines. The search index writes each transaction's terms as one new segment and
 * merges segments level by level, so larger batches rewrite each term fewer times. pnpm bench scale
 * --copies 10, two back-to-back pairs (1,000 lines, then 2,000): 112.3 s, 114.4 s CPU, writing thread
 * 203 µs a paper (load 3.6) against 90.3 s, 97.2 s, 169 µs (load 4.2); and 74.4 s, 106.1 s, 188 µs (load
 * 3.1) against 69.3 s, 102.0 s, 176 µs (load 2.5). Not larger: the parse and tag threads fill and drain at
 * every file, and a larger batch keeps them (or the writer) idle longer each time (4,000 was slower; the
 * 9 small files of pnpm bench ingest already take 4.55 s against 4.37 s).
 */
const SQLITE_BATCH_SIZE = 2000;

// Dumps announce papers as listed, so their dates may set or correct a stored listing date.
export const AS_LISTING = { countsAsListing: true } as const;

/** An import's writes into a SQLite file: the import's hot path, one synchronous transaction a batch. */
export function sqliteImportWrites(store: Store): ImportWrites {
  return {
    tags: store.tags,
    noPreparedTags: null,
    batchSize: SQLITE_BATCH_SIZE,
    beginBulkLoad: () => {
      const endSettings = beginBulkLoad(store.db);
      // Into a store that never indexed a paper, whatever the import writes is the whole index, which
      // its end merges into one segment: merges on the way would only be undone.
      const fresh = (store.db.prepare<[], number>(INDEXED_DOCS).pluck().get() ?? 0) === 0;
      if (!fresh) restoreIndexMerging(store.db);
      const resumeMerging = fresh ? pauseIndexMerging(store.db) : null;
      return () => {
        resumeMerging?.();
        endSettings();
      };
    },
    afterBulkLoad: (written) =>
      settled(() => {
        const indexed = store.db.prepare<[], number>(INDEXED_DOCS).pluck().get() ?? 0;
        if (written === 0 || written < COMPACT_FROM_SHARE * indexed) return null;
        const t0 = performance.now();
        optimizeSearchIndex(store.db);
        // Read from the merged index, which each term's counting walks once.
        refreshTermCounts(store.db);
        return performance.now() - t0;
      }),
    storeBatch: (papers, extras, checkpoint) =>
      settled(() =>
        store.transaction(() => {
          const counts = store.papers.upsertBatch(papers, { ...AS_LISTING, ...extras });
          if (!checkpoint) return counts;
          if ('clear' in checkpoint) store.state.clearCheckpoint(checkpoint.key);
          else store.state.setCheckpoint(checkpoint.key, checkpoint.value);
          return counts;
        }),
      ),
    getCheckpoint: <T>(key: string) => settled(() => store.state.getCheckpoint<T>(key)),
    startIngest: (kind, source, startedAt) => settled(() => store.state.startIngest(kind, source, startedAt)),
    finishIngest: (id, entry) =>
      settled(() => {
        store.state.finishIngest(id, entry);
      }),
  };
}
