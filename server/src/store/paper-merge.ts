import { mergePapers, paperEquals, type PaperEntity } from '@quire/core';
import type { UpsertCounts, UpsertOptions } from './paper-store.ts';

/** A stored paper as an engine reads it before a batch: the paper and its row's `categories` text. */
export interface StoredPaper {
  paper: PaperEntity;
  categoriesJson: string | null;
}

/** A paper due to be written, and the `categories` column of its row before this batch (null: none). */
export interface PendingWrite {
  paper: PaperEntity;
  storedCategories: string | null;
}

/**
 * What a batch changes, engine apart: papers merged with the merge rule of @quire/core against what is
 * stored (two records of one paper in the batch merge in order, as if stored one after the other), in the
 * order first seen. A paper whose merge changes nothing is left out. `stored` answers for ids the batch names.
 */
export function planPaperWrites(
  papers: readonly PaperEntity[],
  opts: Pick<UpsertOptions, 'countsAsListing'>,
  stored: (id: string) => StoredPaper | undefined,
  onError: (paper: PaperEntity, err: unknown) => never,
): { writes: PendingWrite[]; counts: UpsertCounts } {
  const counts: UpsertCounts = { inserted: 0, updated: 0, unchanged: 0 };
  const writes = new Map<string, PendingWrite>();
  for (const paper of papers) {
    try {
      const due = writes.get(paper.id);
      const before = due ? { paper: due.paper, categoriesJson: due.storedCategories } : stored(paper.id);
      if (!before) {
        writes.set(paper.id, { paper: firstSighting(paper, opts), storedCategories: null });
        counts.inserted++;
        continue;
      }
      const merged = mergePapers(before.paper, paper, opts);
      if (paperEquals(before.paper, merged)) {
        counts.unchanged++;
        continue;
      }
      writes.set(paper.id, { paper: merged, storedCategories: before.categoriesJson });
      counts.updated++;
    } catch (err) {
      onError(paper, err);
    }
  }
  return { writes: [...writes.values()], counts };
}

/**
 * A paper first seen through a replacement has not been listed as far as the store knows, so the date the
 * replacement was announced must not become its listing date; an estimate from its v1 date is still fine.
 */
function firstSighting(paper: PaperEntity, opts: Pick<UpsertOptions, 'countsAsListing'>): PaperEntity {
  if (opts.countsAsListing || paper.listingDate === null || paper.listingDateEstimated) return paper;
  return { ...paper, listingDate: null, listingDateEstimated: false };
}
