import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultTaxonomy, loadTaxonomy, type Taxonomy, type TaxonomyFile } from '@quire/core';
import { importPaths } from '@quire/server/ingest/import-dumps';
import { openStore, type Store } from '@quire/server/store/open-store';
import { retag } from '@quire/server/topics/retag';
import { listingsDir } from '../src/paths.ts';

// A large re-tag tags its pages in worker threads while its own thread reads and writes the store; each
// thread compiles the engine from the same statistics, so the rows written are those of tagging here.

const PAGE = 50;

let dir: string;
let threaded: Store;
let here: Store;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quire-retag-threads-'));
  const first = openStore(join(dir, 'threaded.db'));
  await importPaths(first, [join(listingsDir, '2026-05-04.jsonl.br')]);
  first.db.pragma('wal_checkpoint(TRUNCATE)');
  first.close();
  copyFileSync(join(dir, 'threaded.db'), join(dir, 'here.db'));
  threaded = openStore(join(dir, 'threaded.db'));
  here = openStore(join(dir, 'here.db'));
});
afterAll(() => {
  threaded.close();
  here.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Every row tagging writes or derives, as text. */
function snapshot(store: Store) {
  const rows = (sql: string) =>
    store.db
      .prepare(sql)
      .raw()
      .all()
      .map((r) => (r as unknown[]).join(' '));
  return {
    tags: rows('SELECT topic, paper_id, score, evidence FROM paper_tags ORDER BY topic, paper_id'),
    topics: rows('SELECT topic, paper_id, listing_date FROM paper_topics ORDER BY topic, paper_id'),
    counts: rows('SELECT topic, listing_date, n FROM topic_day_counts ORDER BY topic, listing_date'),
    stale: rows('SELECT paper_id FROM papers_to_tag ORDER BY paper_id'),
    state: rows('SELECT topic, definition_hash FROM topic_state ORDER BY topic'),
  };
}

/** The default taxonomy with one definition changed and given exemplars from the store. */
function changedTaxonomy(exemplars: string[]): Taxonomy {
  // The built-in version kept: a new one would change every topic's hash (see topics.test.ts).
  const file = JSON.parse(
    JSON.stringify({ version: defaultTaxonomy().version, topics: defaultTaxonomy().topics }),
  ) as TaxonomyFile;
  const video = file.topics.find((x) => x.slug === 'video-generation');
  if (!video) throw new Error('the taxonomy lacks video-generation');
  video.definition.exemplars = exemplars;
  video.definition.threshold = (video.definition.threshold ?? 3) + 1;
  return loadTaxonomy(file);
}

const report = (r: Awaited<ReturnType<typeof retag>>) => ({ ...r, durationMs: 0 });

describe('re-tagging in threads', () => {
  it('a first tagging stopped part way, then finished, in two threads writes the rows tagging here writes', async () => {
    let pagesAsked = 0;
    const stopped = await retag(threaded.tags, defaultTaxonomy(), {
      pageSize: PAGE,
      tagThreads: 2,
      shouldStop: () => ++pagesAsked > 4,
    });
    expect(stopped.stopped).toBe(true);
    const left = snapshot(threaded).stale.length;
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThan(threaded.papers.count());

    const rest = await retag(threaded.tags, defaultTaxonomy(), { pageSize: PAGE, tagThreads: 2 });
    expect(rest.stalePapers).toBe(left);
    const whole = await retag(here.tags, defaultTaxonomy(), { pageSize: PAGE, tagThreads: 0 });
    expect(whole.stalePapers).toBe(here.papers.count());
    const tagged = snapshot(threaded);
    expect(tagged.tags.length).toBeGreaterThan(threaded.papers.count());
    expect(tagged.stale).toEqual([]);
    expect(tagged).toEqual(snapshot(here));
  });

  it('a changed topic with exemplars is tagged in one thread as here', async () => {
    const ids = here.db
      .prepare("SELECT paper_id FROM paper_tags WHERE topic = 'video-generation' ORDER BY paper_id LIMIT 2")
      .pluck()
      .all() as string[];
    expect(ids).toHaveLength(2);
    const taxonomy = changedTaxonomy(ids);
    const a = await retag(threaded.tags, taxonomy, { pageSize: PAGE, tagThreads: 1 });
    const b = await retag(here.tags, taxonomy, { pageSize: PAGE, tagThreads: 0 });
    expect(a.changedTopics).toEqual(['video-generation']);
    expect(a.stalePapers).toBeGreaterThan(0);
    expect(report(a)).toEqual(report(b));
    expect(snapshot(threaded)).toEqual(snapshot(here));
  });
});
