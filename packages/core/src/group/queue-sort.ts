/** Orders for showing the queue. Each ends on the paper id, so every device lists the same order. */
import type { QueueStatus } from './queue-records.ts';
import type { QueueItem } from './queue.ts';
import { invalidInput } from './input-checks.ts';
import { byCodeUnits, compareInstants } from './peer-values.ts';

export type QueueOrder = 'added' | 'status' | 'title' | 'listingDate';

/** What is being read now first, then what waits, then what is done. */
const STATUS_RANK: Record<QueueStatus, number> = { reading: 0, queued: 1, discussed: 2, archived: 3 };

const byAdded = (a: QueueItem, b: QueueItem): number =>
  compareInstants(b.addedAt, a.addedAt) || byCodeUnits(a.paper.id, b.paper.id);

const COMPARATORS: Record<QueueOrder, (a: QueueItem, b: QueueItem) => number> = {
  /** Last added first. */
  added: byAdded,
  /** Reading, queued, discussed, archived; last added first within each. */
  status: (a, b) => STATUS_RANK[a.status] - STATUS_RANK[b.status] || byAdded(a, b),
  /** A to Z, ignoring case and accents. */
  title: (a, b) =>
    a.paper.title.localeCompare(b.paper.title, 'en', { sensitivity: 'base' }) ||
    byCodeUnits(a.paper.id, b.paper.id),
  /** Newest listing first; unknown dates last. */
  listingDate: (a, b) =>
    byCodeUnits(b.paper.listingDate ?? '', a.paper.listingDate ?? '') || byCodeUnits(b.paper.id, a.paper.id),
};

export function sortQueue(items: readonly QueueItem[], order: QueueOrder): QueueItem[] {
  if (!Object.hasOwn(COMPARATORS, order)) {
    throw invalidInput(
      `${JSON.stringify(order)} is not a queue order; use added, status, title or listingDate.`,
    );
  }
  return [...items].sort(COMPARATORS[order]);
}
