import { describe, expect, it } from 'vitest';
import { defaultTaxonomy, type Taxonomy } from '@quire/core';
import type { TagStore } from '@quire/server/store/tag-store';
import { retag, type RetagOptions } from '@quire/server/topics/retag';
import { changedTaxonomy, taggingSnapshot, twinStores } from '../src/harness/twin-stores.ts';

// A re-tag reads the store a page at a time, so its memory does not grow with the store: the same store
// re-tagged through pages of 7 papers and through one page holding every paper ends with the same rows.

const PAGE = 7;
const ONE_PAGE = 1_000_000;

const stores = twinStores('retag-pages', ['paged', 'whole']);

/** The tag store with the largest number of papers any one read returned. */
function watched(store: TagStore): { store: TagStore; largestRead: () => number } {
  let largest = 0;
  const reads = new Set(['papersAfter', 'stalePapersAfter', 'papersById']);
  const proxy = new Proxy(store, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => unknown;
      if (typeof key !== 'string' || !reads.has(key)) return method.bind(target);
      return async (...args: unknown[]) => {
        const papers = (await method.apply(target, args)) as unknown[];
        largest = Math.max(largest, papers.length);
        return papers;
      };
    },
  });
  return { store: proxy, largestRead: () => largest };
}

async function both(taxonomy: Taxonomy, options: RetagOptions = {}) {
  const watch = watched(stores.paged.tags);
  const a = await retag(watch.store, taxonomy, { ...options, pageSize: PAGE });
  const b = await retag(stores.whole.tags, taxonomy, { ...options, pageSize: ONE_PAGE });
  return { paged: a, whole: b, largestRead: watch.largestRead() };
}

const report = (r: Awaited<ReturnType<typeof retag>>) => ({ ...r, durationMs: 0 });

describe('re-tagging a page at a time', () => {
  it('a first tagging through pages of 7 writes exactly the rows one page writes', async () => {
    const run = await both(defaultTaxonomy());
    expect(run.paged.stalePapers).toBe(stores.paged.papers.count());
    expect(report(run.paged)).toEqual(report(run.whole));
    expect(run.largestRead).toBeLessThanOrEqual(PAGE);
    const tagged = taggingSnapshot(stores.paged);
    expect(tagged.tags.length).toBeGreaterThan(stores.paged.papers.count());
    expect(tagged.counts.length).toBeGreaterThan(0);
    expect(tagged.stale).toEqual([]);
    expect(tagged).toEqual(taggingSnapshot(stores.whole));
  });

  it('a changed topic with exemplars, and a removed one, page by page as in one page', async () => {
    const ids = stores.paged.db
      .prepare("SELECT paper_id FROM paper_tags WHERE topic = 'video-generation' ORDER BY paper_id LIMIT 2")
      .pluck()
      .all() as string[];
    expect(ids).toHaveLength(2);
    const taxonomy = changedTaxonomy(ids, ['tabular-learning']);
    const run = await both(taxonomy);
    expect(run.paged.changedTopics).toEqual(['video-generation']);
    expect(run.paged.removedTopics).toEqual(['tabular-learning']);
    expect(run.paged.stalePapers).toBeGreaterThan(0);
    expect(run.paged.stalePapers).toBeLessThan(stores.paged.papers.count());
    expect(report(run.paged)).toEqual(report(run.whole));
    expect(run.largestRead).toBeLessThanOrEqual(PAGE);
    expect(taggingSnapshot(stores.paged)).toEqual(taggingSnapshot(stores.whole));

    // Back again, and a full re-tag stopped after three pages then finished, the same either way.
    await both(defaultTaxonomy());
    expect(taggingSnapshot(stores.paged)).toEqual(taggingSnapshot(stores.whole));
    let pages = 0;
    const stopped = await retag(stores.paged.tags, defaultTaxonomy(), {
      full: true,
      pageSize: PAGE,
      onProgress: () => (pages += 1),
      shouldStop: () => pages >= 3,
    });
    expect(stopped.stopped).toBe(true);
    expect(taggingSnapshot(stores.paged).stale).toHaveLength(stores.paged.papers.count() - 3 * PAGE);
    await retag(stores.paged.tags, defaultTaxonomy(), { pageSize: PAGE });
    await retag(stores.whole.tags, defaultTaxonomy(), { full: true, pageSize: ONE_PAGE });
    expect(taggingSnapshot(stores.paged)).toEqual(taggingSnapshot(stores.whole));
  });
});
