import { describe, expect, it } from 'vitest';
import { defaultTaxonomy } from '@quire/core';
import { retag } from '@quire/server/topics/retag';
import { changedTaxonomy, taggingSnapshot, twinStores } from '../src/harness/twin-stores.ts';

// A large re-tag tags its pages in worker threads while its own thread reads and writes the store; each
// thread compiles the engine from the same statistics, so the rows written are those of tagging here.

const PAGE = 50;

const stores = twinStores('retag-threads', ['threaded', 'here']);

const report = (r: Awaited<ReturnType<typeof retag>>) => ({ ...r, durationMs: 0 });

describe('re-tagging in threads', () => {
  it('a first tagging stopped part way, then finished, in two threads writes the rows tagging here writes', async () => {
    let pagesAsked = 0;
    const stopped = await retag(stores.threaded.tags, defaultTaxonomy(), {
      pageSize: PAGE,
      tagThreads: 2,
      shouldStop: () => ++pagesAsked > 4,
    });
    expect(stopped.stopped).toBe(true);
    const left = taggingSnapshot(stores.threaded).stale.length;
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThan(stores.threaded.papers.count());

    const rest = await retag(stores.threaded.tags, defaultTaxonomy(), { pageSize: PAGE, tagThreads: 2 });
    expect(rest.stalePapers).toBe(left);
    const whole = await retag(stores.here.tags, defaultTaxonomy(), { pageSize: PAGE, tagThreads: 0 });
    expect(whole.stalePapers).toBe(stores.here.papers.count());
    const tagged = taggingSnapshot(stores.threaded);
    expect(tagged.tags.length).toBeGreaterThan(stores.threaded.papers.count());
    expect(tagged.stale).toEqual([]);
    expect(tagged).toEqual(taggingSnapshot(stores.here));
  });

  it('a changed topic with exemplars is tagged in one thread as here', async () => {
    const ids = stores.here.db
      .prepare("SELECT paper_id FROM paper_tags WHERE topic = 'video-generation' ORDER BY paper_id LIMIT 2")
      .pluck()
      .all() as string[];
    expect(ids).toHaveLength(2);
    const taxonomy = changedTaxonomy(ids);
    const a = await retag(stores.threaded.tags, taxonomy, { pageSize: PAGE, tagThreads: 1 });
    const b = await retag(stores.here.tags, taxonomy, { pageSize: PAGE, tagThreads: 0 });
    expect(a.changedTopics).toEqual(['video-generation']);
    expect(a.stalePapers).toBeGreaterThan(0);
    expect(report(a)).toEqual(report(b));
    expect(taggingSnapshot(stores.threaded)).toEqual(taggingSnapshot(stores.here));
  });
});
