import type { PaperEntity } from '@quire/core';
import type { IngestLogEntry } from '../store/harvest-state.ts';
import type { Store } from '../store/open-store.ts';
import type { UpsertCounts } from '../store/paper-store.ts';
import { settled } from '../store/settled.ts';

export type { UpsertCounts } from '../store/paper-store.ts';

/**
 * What a harvester needs from the store. Kept narrow so harvesters stay easy to test and so a page's papers
 * and its checkpoint are written in one transaction: a page is stored whole or not at all.
 */
export interface HarvestTarget {
  /** Upserts every batch and saves the checkpoint in one transaction. */
  storeBatches(
    batches: PaperBatch[],
    checkpoint: { key: string; value: unknown } | null,
  ): Promise<UpsertCounts>;
  getCheckpoint<T>(key: string): Promise<T | null>;
  logIngest(entry: IngestLogEntry): Promise<void>;
}

export interface PaperBatch {
  papers: PaperEntity[];
  /** False for replacements: they refresh metadata but never set a listing date. */
  countsAsListing: boolean;
}

export const ZERO_COUNTS: UpsertCounts = { inserted: 0, updated: 0, unchanged: 0 };

export function addCounts(a: UpsertCounts, b: UpsertCounts): UpsertCounts {
  return {
    inserted: a.inserted + b.inserted,
    updated: a.updated + b.updated,
    unchanged: a.unchanged + b.unchanged,
  };
}

/** The target on SQLite: the node's own file. */
export function harvestTarget(store: Store): HarvestTarget {
  return {
    storeBatches(batches, checkpoint) {
      return settled(() =>
        store.transaction(() => {
          let counts = ZERO_COUNTS;
          for (const batch of batches) {
            if (batch.papers.length === 0) continue;
            counts = addCounts(
              counts,
              store.papers.upsertBatch(batch.papers, { countsAsListing: batch.countsAsListing }),
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
