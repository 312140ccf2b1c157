import type { PaperEntity } from '@quire/core';
import type { IngestLogEntry } from './harvest-state.ts';
import type { Store } from './open-store.ts';
import type { UpsertCounts } from './paper-store.ts';
import { settled } from './settled.ts';

/** Papers of one kind within a harvested page. */
export interface PaperBatch {
  papers: PaperEntity[];
  /** False for replacements: they refresh metadata but never set a listing date. */
  countsAsListing: boolean;
}

/**
 * What a harvester writes: a page's batches with its checkpoint, stored whole or not at all, the saved
 * checkpoints, and the ingest log. Asynchronous for a network engine; SQLite's answers at once.
 */
export interface HarvestWrites {
  /** Upserts every batch and saves the checkpoint in one transaction. */
  storeBatches(
    batches: PaperBatch[],
    checkpoint: { key: string; value: unknown } | null,
  ): Promise<UpsertCounts>;
  getCheckpoint<T>(key: string): Promise<T | null>;
  logIngest(entry: IngestLogEntry): Promise<void>;
}

export const ZERO_COUNTS: UpsertCounts = { inserted: 0, updated: 0, unchanged: 0 };

export function addCounts(a: UpsertCounts, b: UpsertCounts): UpsertCounts {
  return {
    inserted: a.inserted + b.inserted,
    updated: a.updated + b.updated,
    unchanged: a.unchanged + b.unchanged,
  };
}

/** A harvester's writes into the node's own SQLite file. */
export function sqliteHarvestWrites(store: Store): HarvestWrites {
  return {
    // The batches join this transaction (no savepoint each): a failure undoes the page and its checkpoint.
    storeBatches(batches, checkpoint) {
      return settled(() =>
        store.transaction(() => {
          let counts = ZERO_COUNTS;
          for (const batch of batches) {
            if (batch.papers.length === 0) continue;
            counts = addCounts(
              counts,
              store.papers.upsertInTransaction(batch.papers, { countsAsListing: batch.countsAsListing }),
            );
          }
          if (checkpoint) store.state.setCheckpoint(checkpoint.key, checkpoint.value);
          return counts;
        }),
      );
    },
    getCheckpoint<T>(key: string): Promise<T | null> {
      return settled(() => store.state.getCheckpoint<T>(key) ?? null);
    },
    logIngest(entry) {
      return settled(() => {
        store.state.logIngest(entry);
      });
    },
  };
}
