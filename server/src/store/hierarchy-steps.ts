/** One row of the hierarchy tags are counted with: a topic and itself or one of its ancestors. */
export interface ClosureRow {
  topic: string;
  broader: string;
}

/** One string per hierarchy, to tell whether the stored one is a taxonomy's. */
export function closureKey(rows: readonly ClosureRow[]): string {
  return rows.map((r) => `${r.topic}>${r.broader}`).join('\n');
}

/** One change to the counted hierarchy: a closure row to insert or delete. */
export interface HierarchyStep extends ClosureRow {
  insert: boolean;
}

/**
 * The closure rows that turn the stored hierarchy `have` into `want`, in batches an engine commits one by
 * one: deletions first (so paper_topics shrinks before it grows), each batch holding at most `batchTags`
 * tag rows' worth of work, since a closure row moves one paper_topics row (and its count) per paper tagged
 * with its topic. Empty when the two are the same.
 */
export function hierarchyBatches(
  have: readonly ClosureRow[],
  want: readonly ClosureRow[],
  tagsByTopic: ReadonlyMap<string, number>,
  batchTags: number,
): HierarchyStep[][] {
  if (closureKey(want) === closureKey(have)) return [];
  const key = (r: ClosureRow) => `${r.topic}>${r.broader}`;
  const wanted = new Set(want.map(key));
  const stored = new Set(have.map(key));
  const steps: HierarchyStep[] = [
    ...have.filter((r) => !wanted.has(key(r))).map((r) => ({ ...r, insert: false })),
    ...want.filter((r) => !stored.has(key(r))).map((r) => ({ ...r, insert: true })),
  ];
  const batches: HierarchyStep[][] = [];
  let batch: HierarchyStep[] = [];
  let cost = 0;
  for (const step of steps) {
    const weight = 1 + (tagsByTopic.get(step.topic) ?? 0);
    if (cost + weight > batchTags && batch.length > 0) {
      batches.push(batch);
      batch = [];
      cost = 0;
    }
    batch.push(step);
    cost += weight;
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}
