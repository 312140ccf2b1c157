import { addCounts, ZERO_COUNTS, type HarvestWrites } from '../harvest-writes.ts';
import type { PgHarvestState } from './pg-harvest-state.ts';
import type { PgPaperStore } from './pg-paper-store.ts';
import { inTransaction, type PgPool } from './pg-pool.ts';

/** A harvester's writes on PostgreSQL: a page's papers and its checkpoint commit in one transaction. */
export function pgHarvestWrites(pool: PgPool, papers: PgPaperStore, state: PgHarvestState): HarvestWrites {
  return {
    storeBatches(batches, checkpoint) {
      return inTransaction(pool, async (client) => {
        let counts = ZERO_COUNTS;
        for (const batch of batches) {
          if (batch.papers.length === 0) continue;
          counts = addCounts(
            counts,
            await papers.upsertWith(client, batch.papers, { countsAsListing: batch.countsAsListing }),
          );
        }
        if (checkpoint) await state.setCheckpoint(checkpoint.key, checkpoint.value, client);
        return counts;
      });
    },
    async getCheckpoint<T>(key: string): Promise<T | null> {
      return (await state.getCheckpoint<T>(key)) ?? null;
    },
    async logIngest(entry) {
      await state.logIngest(entry);
    },
  };
}
