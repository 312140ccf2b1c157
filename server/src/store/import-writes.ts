import type { PaperEntity } from '@quire/core';
import { beginBulkLoad } from './bulk-load.ts';
import type { IngestKind, IngestLogEntry } from './harvest-state.ts';
import type { Store } from './open-store.ts';
import type { UpsertCounts } from './paper-store.ts';
import type { KnownTerms } from './search-index-schema.ts';
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
  /**
   * Readies the connection for a run of large batches (SQLite: bulk-load.ts); the import calls what it
   * returns as it ends. Absent where the engine needs nothing of the kind.
   */
  beginBulkLoad?(): () => void;
  /** Dump lines per transaction when the import is not given a batch size, where the engine has its own. */
  readonly batchSize?: number;
  storeBatch(
    papers: readonly PaperEntity[],
    extras: PreparedExtras,
    checkpoint: CheckpointChange | null,
  ): Promise<UpsertCounts>;
  getCheckpoint<T>(key: string): Promise<T | undefined>;
  startIngest(kind: IngestKind, source: string, startedAt: Date): Promise<number>;
  finishIngest(id: number, entry: Omit<IngestLogEntry, 'kind' | 'source' | 'startedAt'>): Promise<void>;
}

// Dumps announce papers as listed, so their dates may set or correct a stored listing date.
export const AS_LISTING = { countsAsListing: true } as const;

/**
 * Lines per SQLite import transaction. Each commit rewrites the leaves its batch touched (every topic's
 * tags and counts, the search index's structure), and each batch flushes one FTS5 segment that later
 * merges rewrite: 4,000 lines do that a quarter as often as 1,000. Measured at 3x (80,535 papers, load
 * 6-8): the writing thread 15.3-15.8 -> 13.1-13.4 s CPU; 8,000 was no better (15.0 s). A batch holds the
 * write lock longer (under a second idle), which a server sharing the file waits out (busy timeout 5 s).
 */
export const SQLITE_IMPORT_BATCH = 4000;

/** An import's writes into a SQLite file: the import's hot path, one synchronous transaction a batch. */
export function sqliteImportWrites(store: Store): ImportWrites {
  return {
    tags: store.tags,
    noPreparedTags: null,
    beginBulkLoad: () => beginBulkLoad(store.db),
    batchSize: SQLITE_IMPORT_BATCH,
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
