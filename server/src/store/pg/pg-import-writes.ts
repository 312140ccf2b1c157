import { AS_LISTING, type ImportWrites } from '../import-writes.ts';
import type { PgHarvestState } from './pg-harvest-state.ts';
import type { PgPaperStore } from './pg-paper-store.ts';
import { inTransaction, type PgPool } from './pg-pool.ts';
import type { PgTagStore } from './pg-tag-store.ts';

/**
 * Why an import into PostgreSQL tags nothing as it stores: its batches write papers only, and the papers'
 * trigger marks each one stale, so the re-tag after the import tags them all.
 */
export const PG_IMPORT_LEAVES_TAGS = "PostgreSQL stores an import's papers untagged";

/**
 * An import's writes on PostgreSQL: each batch and its file's checkpoint in one transaction, so a killed
 * import resumes after exactly the batches that committed, as on SQLite. Search terms the parse thread
 * computed are not used: PostgreSQL's search index is written from the papers themselves.
 */
export function pgImportWrites(
  pool: PgPool,
  papers: PgPaperStore,
  state: PgHarvestState,
  tags: PgTagStore,
): ImportWrites {
  return {
    tags,
    noPreparedTags: PG_IMPORT_LEAVES_TAGS,
    storeBatch: (batch, _extras, checkpoint) =>
      inTransaction(pool, async (client) => {
        const counts = await papers.upsertWith(client, batch, AS_LISTING);
        if (!checkpoint) return counts;
        if ('clear' in checkpoint) await state.clearCheckpoint(checkpoint.key, client);
        else await state.setCheckpoint(checkpoint.key, checkpoint.value, client);
        return counts;
      }),
    getCheckpoint: (key) => state.getCheckpoint(key),
    startIngest: (kind, source, startedAt) => state.startIngest(kind, source, startedAt),
    finishIngest: async (id, entry) => {
      await state.finishIngest(id, entry);
    },
  };
}
