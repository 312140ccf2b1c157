import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultTaxonomy, loadTaxonomy, normalisePaper, type Taxonomy, type TaxonomyFile } from '@quire/core';
import { importPaths } from '@quire/server/ingest/import-dumps';
import { retag } from '@quire/server/topics/retag';
import { SqliteTagStore, closureRows } from '@quire/server/store/tag-store';
import { SqliteTopicCountsStore } from '@quire/server/store/topic-counts-store';
import { topicServiceOver } from '@quire/server/topics/open-topics';
import { listingsDir } from '../src/paths.ts';
import { tempStore, type TempStore } from '../src/harness/temp-store.ts';

// The counts the store keeps (topic_day_counts, day_counts, paper_topics) against a scan from scratch,
// written here in plain SQL over paper_tags and papers with the closure taken from the taxonomy file, after
// every kind of write that can move them.

let t: TempStore;
beforeAll(async () => {
  t = tempStore();
  // Two weeks of listings: enough topics and shared tags, quicker than the whole corpus.
  await importPaths(t.store, [
    join(listingsDir, '2026-04-27.jsonl.br'),
    join(listingsDir, '2026-05-04.jsonl.br'),
  ]);
  await retag(t.store.tags, defaultTaxonomy());
});
afterAll(() => t.dispose());

/** Each topic with itself and every topic below it, walked from the parents the taxonomy gives. */
function narrower(taxonomy: Taxonomy): Map<string, string[]> {
  const below = new Map<string, Set<string>>(taxonomy.topics.map((x) => [x.slug, new Set([x.slug])]));
  let grew = true;
  while (grew) {
    grew = false;
    for (const topic of taxonomy.topics) {
      for (const parent of topic.parents) {
        const into = below.get(parent);
        for (const slug of below.get(topic.slug) ?? []) {
          if (into && !into.has(slug)) {
            into.add(slug);
            grew = true;
          }
        }
      }
    }
  }
  return new Map([...below].map(([slug, set]) => [slug, [...set]]));
}

function rows(sql: string, ...params: unknown[]): string[] {
  return t.store.db
    .prepare(sql)
    .raw()
    .all(...params)
    .map((r) => (r as unknown[]).join(' '));
}

function expectCountsExact(taxonomy: Taxonomy): void {
  const db = t.store.db;
  expect(rows('SELECT listing_date, n FROM day_counts ORDER BY listing_date')).toEqual(
    rows(
      'SELECT listing_date, COUNT(*) FROM papers WHERE listing_date IS NOT NULL GROUP BY listing_date ORDER BY listing_date',
    ),
  );
  const counted = new Set(
    db.prepare('SELECT DISTINCT topic FROM topic_day_counts').pluck().all() as string[],
  );
  for (const [slug, closure] of narrower(taxonomy)) {
    counted.delete(slug);
    const json = JSON.stringify(closure);
    const scanDaily = rows(
      `SELECT p.listing_date, COUNT(DISTINCT p.id) FROM paper_tags t JOIN papers p ON p.id = t.paper_id
       WHERE t.topic IN (SELECT value FROM json_each(?)) AND p.listing_date IS NOT NULL
       GROUP BY p.listing_date ORDER BY p.listing_date`,
      json,
    );
    expect({
      slug,
      daily: rows('SELECT listing_date, n FROM topic_day_counts WHERE topic = ? ORDER BY listing_date', slug),
    }).toEqual({
      slug,
      daily: scanDaily,
    });
    // Every paper of the topic once, listed or not, with its listing date, newest first.
    const scanPapers = rows(
      `SELECT DISTINCT p.id, p.listing_date FROM paper_tags t JOIN papers p ON p.id = t.paper_id
       WHERE t.topic IN (SELECT value FROM json_each(?)) ORDER BY p.listing_date DESC, p.id DESC`,
      json,
    );
    expect({
      slug,
      papers: rows(
        'SELECT paper_id, listing_date FROM paper_topics WHERE topic = ? ORDER BY listing_date DESC, paper_id DESC',
        slug,
      ),
    }).toEqual({ slug, papers: scanPapers });
  }
  // Nothing is counted for a topic the taxonomy does not have (a removed one).
  expect([...counted]).toEqual([]);
  expect(
    rows(
      'SELECT DISTINCT topic FROM paper_topics WHERE topic NOT IN (SELECT value FROM json_each(?))',
      JSON.stringify(taxonomy.topics.map((x) => x.slug)),
    ),
  ).toEqual([]);
}

/** The default taxonomy with one definition changed, two topics moved under other parents, one removed. */
function changedTaxonomy(): { taxonomy: Taxonomy; moved: string; removed: string } {
  const file = JSON.parse(
    JSON.stringify({ version: 'changed', topics: defaultTaxonomy().topics }),
  ) as TaxonomyFile;
  const find = (slug: string) => {
    const topic = file.topics.find((x) => x.slug === slug);
    if (!topic) throw new Error(`the taxonomy lacks ${slug}`);
    return topic;
  };
  const video = find('video-generation');
  video.definition.threshold = (video.definition.threshold ?? 3) + 100;
  find('offline-rl').parents = ['machine-learning'];
  find('reinforcement-learning').parents = ['robotics'];
  const removed = 'tabular-learning';
  if (file.topics.some((x) => x.parents.includes(removed))) throw new Error(`${removed} has children`);
  file.topics = file.topics.filter((x) => x.slug !== removed);
  return { taxonomy: loadTaxonomy(file), moved: 'offline-rl', removed };
}

function paperText(id: string) {
  return {
    id,
    title: 'Offline reinforcement learning from logged data with conservative Q-learning',
    abstract:
      'We study offline reinforcement learning: a policy learnt from a fixed dataset of logged transitions, without exploration, with a conservative Q-function.',
    authors: ['A. Author'],
    categories: ['cs.LG'],
  };
}

describe('topic counts kept by every write', () => {
  it('match a scan from scratch after import, a changed taxonomy, date corrections and a removed topic', async () => {
    const db = t.store.db;
    expectCountsExact(defaultTaxonomy());
    expect(db.prepare('SELECT COUNT(*) FROM topic_day_counts').pluck().get()).toBeGreaterThan(0);

    const { taxonomy, moved, removed } = changedTaxonomy();
    expect(db.prepare('SELECT COUNT(*) FROM paper_tags WHERE topic = ?').pluck().get(removed)).not.toBe(0);
    const report = await retag(t.store.tags, taxonomy);
    expect(report.removedTopics).toEqual([removed]);
    expectCountsExact(taxonomy);
    // The moved topic's papers count under its new parent.
    const movedPapers = db.prepare('SELECT paper_id FROM paper_tags WHERE topic = ?').pluck().all(moved);
    expect(movedPapers.length).toBeGreaterThan(0);
    const underNewParent = db
      .prepare("SELECT paper_id FROM paper_topics WHERE topic = 'machine-learning' AND paper_id = ?")
      .pluck();
    expect(movedPapers.filter((id) => underNewParent.get(id) === undefined)).toEqual([]);

    // A paper with an estimated date, corrected by a listing (as RSS corrects an OAI estimate).
    const upsert = (raw: Parameters<typeof normalisePaper>[0], countsAsListing: boolean) =>
      t.store.papers.upsertBatch([normalisePaper(raw)], { countsAsListing });
    upsert({ ...paperText('2605.99101'), listingDate: '2026-05-01', listingDateEstimated: true }, true);
    await retag(t.store.tags, taxonomy);
    expect(
      db.prepare('SELECT COUNT(*) FROM paper_topics WHERE paper_id = ?').pluck().get('2605.99101'),
    ).toBeGreaterThan(0);
    expectCountsExact(taxonomy);
    upsert({ ...paperText('2605.99101'), listingDate: '2026-05-05' }, true);
    expect(t.store.papers.get('2605.99101')?.listingDate).toBe('2026-05-05');
    expectCountsExact(taxonomy);

    // Known only from a replacement: tagged, never counted, until a listing names its day.
    upsert({ ...paperText('2605.99102'), listingDate: '2026-05-06' }, false);
    await retag(t.store.tags, taxonomy);
    expect(t.store.papers.get('2605.99102')?.listingDate).toBeNull();
    expectCountsExact(taxonomy);
    upsert({ ...paperText('2605.99102'), listingDate: '2026-05-07' }, true);
    expect(t.store.papers.get('2605.99102')?.listingDate).toBe('2026-05-07');
    expectCountsExact(taxonomy);

    // Any other writer of the column is counted too: a date moved and one cleared with plain SQL.
    const [first, second] = db
      .prepare(
        "SELECT DISTINCT paper_id FROM paper_tags WHERE topic = 'reinforcement-learning' ORDER BY paper_id LIMIT 2",
      )
      .pluck()
      .all() as string[];
    db.prepare("UPDATE papers SET listing_date = '2026-04-01' WHERE id = ?").run(first);
    db.prepare('UPDATE papers SET listing_date = NULL WHERE id = ?').run(second);
    expectCountsExact(taxonomy);

    // Back to the default taxonomy: the removed topic returns, the moved one goes home.
    await retag(t.store.tags, defaultTaxonomy());
    expectCountsExact(defaultTaxonomy());
  });

  it('the topic service answers the same from the counts as from the tags', async () => {
    const topics = topicServiceOver(t.store, defaultTaxonomy());
    const answers = async () => ({
      list: await topics.topics(),
      longer: await topics.topics({ asOf: '2026-05-06', weeks: 20 }),
      each: await Promise.all(defaultTaxonomy().topics.map((x) => topics.topic(x.slug))),
    });
    // Robotics takes in every reinforcement-learning paper in the changed hierarchy.
    const robotics = () => rows("SELECT listing_date, n FROM topic_day_counts WHERE topic = 'robotics'");
    const fromCounts = await answers();
    const roboticsCounts = robotics();
    // The counts follow another hierarchy now, so a service over the default taxonomy reads the tags.
    await t.store.tags.recordHierarchy(closureRows(changedTaxonomy().taxonomy));
    expect(robotics()).not.toEqual(roboticsCounts);
    topics.invalidate();
    expect(await answers()).toEqual(fromCounts);
    await t.store.tags.recordHierarchy(closureRows(defaultTaxonomy()));
    expect(robotics()).toEqual(roboticsCounts);
    topics.invalidate();
    expect(await answers()).toEqual(fromCounts);
  });

  it("a topic's latest papers stop at the limit asked, the newest, from the counts and from the tags", async () => {
    const counts = new SqliteTopicCountsStore(t.store.db);
    const slug = 'large-language-models';
    const below = narrower(defaultTaxonomy()).get(slug) ?? [];
    const asOf = '2026-05-08';
    const every = await counts.topicLatest(slug, asOf, 1_000_000);
    expect(every.length).toBeGreaterThan(50);
    expect(await counts.topicLatest(slug, asOf, 50)).toEqual(every.slice(0, 50));
    expect(await counts.scanTopicLatest(below, asOf, 1_000_000)).toEqual(every);
    expect(await counts.scanTopicLatest(below, asOf, 50)).toEqual(every.slice(0, 50));
  });

  it('a hierarchy recorded in many small batches, each committed whole, ends with the counts exact', async () => {
    // A batch of a few hundred tag rows: every closure row of a broad topic is a batch of its own.
    const small = new SqliteTagStore(t.store.db, { batchTags: 300 });
    const count = (table: string) =>
      t.store.db.prepare(`SELECT COUNT(*) FROM ${table}`).pluck().get() as number;
    // No hierarchy at all (a store from before the counts), then the taxonomy's, both ways in batches.
    const cleared = await small.recordHierarchy([]);
    expect(cleared.batches).toBeGreaterThan(10);
    expect([count('topic_closure'), count('paper_topics'), count('topic_day_counts')]).toEqual([0, 0, 0]);
    const filled = await small.recordHierarchy(closureRows(defaultTaxonomy()));
    expect(filled).toMatchObject({ changed: true, rows: closureRows(defaultTaxonomy()).length });
    expect(filled.batches).toBeGreaterThan(10);
    expectCountsExact(defaultTaxonomy());
    const { taxonomy } = changedTaxonomy();
    expect((await small.recordHierarchy(closureRows(taxonomy))).changed).toBe(true);
    expectCountsExact(taxonomy);
    await small.recordHierarchy(closureRows(defaultTaxonomy()));
    expectCountsExact(defaultTaxonomy());
    expect(await small.recordHierarchy(closureRows(defaultTaxonomy()))).toEqual({
      changed: false,
      batches: 0,
      rows: 0,
    });
  });
});
