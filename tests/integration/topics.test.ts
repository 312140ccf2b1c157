import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, defaultTaxonomy, loadTaxonomy, normalisePaper, type TaxonomyFile } from '@quire/core';
import { createApp } from '@quire/server/api/app';
import { importPaths } from '@quire/server/ingest/import-dumps';
import { openTopics } from '@quire/server/topics/open-topics';
import { retag } from '@quire/server/topics/retag';
import type { TopicDetail, TopicService, TopicSummary } from '@quire/server/topics/topic-service';
import { listingsDir } from '../src/paths.ts';
import { runCli } from '../src/harness/run-cli.ts';
import { tempStore, type TempStore } from '../src/harness/temp-store.ts';
import { sqliteStores } from '@quire/server/store/stores';

let t: TempStore;
let topics: TopicService;

beforeAll(async () => {
  t = tempStore();
  await importPaths(t.store, [listingsDir]);
  const opened = await openTopics(t.store);
  topics = opened.topics;
  expect(opened.retagged.stalePapers).toBe(t.store.papers.count());
});
afterAll(() => t.dispose());

function tagRows(topic: string): string[] {
  return t.store.db
    .prepare("SELECT paper_id || ':' || score FROM paper_tags WHERE topic = ? ORDER BY paper_id")
    .pluck()
    .all(topic) as string[];
}

describe('stored tags', () => {
  it('every topic of the default taxonomy matches some corpus papers, and papers get a few tags each', () => {
    const taxonomy = defaultTaxonomy();
    const empty = taxonomy.topics.filter((topic) => tagRows(topic.slug).length === 0).map((x) => x.slug);
    expect(empty).toEqual([]);
    const perPaper = t.store.db
      .prepare('SELECT COUNT(*) FROM paper_tags GROUP BY paper_id')
      .pluck()
      .all() as number[];
    const mean = perPaper.reduce((s, n) => s + n, 0) / perPaper.length;
    expect(mean).toBeGreaterThan(1);
    expect(mean).toBeLessThan(6);
  });

  it('a second pass with nothing changed does nothing', async () => {
    const again = await retag(t.store.tags, defaultTaxonomy());
    expect(again).toMatchObject({ changedTopics: [], removedTopics: [], stalePapers: 0 });
  });

  it('a changed definition re-tags only the papers that topic touches; a removed topic loses its tags', async () => {
    // An edit of the built-in taxonomy: its version stays, so it keeps the built-in calibration, as an
    // edited taxonomy.json shipped with its refitted calibration does.
    const file = JSON.parse(
      JSON.stringify({ version: defaultTaxonomy().version, topics: defaultTaxonomy().topics }),
    ) as TaxonomyFile;
    const target = file.topics.find((x) => x.slug === 'video-generation');
    const untouched = 'imitation-learning';
    if (!target) throw new Error('taxonomy lacks video-generation');
    target.definition.threshold = (target.definition.threshold ?? 3) + 100;
    const removed = file.topics.pop();
    if (!removed) throw new Error('empty taxonomy');
    // Read with SQL before the change: the papers either topic touched, and the untouched topic's rows
    // on every other paper (a touched paper is tagged anew, so its other tags may move).
    const touched = new Set(
      t.store.db
        .prepare('SELECT paper_id FROM paper_tags WHERE topic IN (?, ?)')
        .pluck()
        .all('video-generation', removed.slug) as string[],
    );
    expect(touched.size).toBeGreaterThan(0);
    const elsewhere = () => tagRows(untouched).filter((row) => !touched.has(row.split(':')[0] ?? ''));
    const before = elsewhere();
    expect(before.length).toBeGreaterThan(0);

    const report = await retag(t.store.tags, loadTaxonomy(file));
    expect(report.changedTopics).toEqual(['video-generation']);
    expect(report.removedTopics).toEqual([removed.slug]);
    // Nothing reaches a threshold raised by 100, so only the papers the two topics had are tagged again.
    expect(report.stalePapers).toBe(touched.size);
    expect(tagRows('video-generation')).toEqual([]);
    expect(tagRows(removed.slug)).toEqual([]);
    expect(elsewhere()).toEqual(before);

    const back = await retag(t.store.tags, defaultTaxonomy());
    expect(back.changedTopics.sort()).toEqual(['video-generation', removed.slug].sort());
    expect(elsewhere()).toEqual(before);
    expect(tagRows('video-generation').length).toBeGreaterThan(0);
  });

  it('a full re-tag stopped between batches keeps every old tag readable, and the next run finishes it', async () => {
    const allTags = () =>
      t.store.db
        .prepare("SELECT topic || ':' || paper_id || ':' || score FROM paper_tags ORDER BY 1")
        .pluck()
        .all() as string[];
    const staleCount = () => t.store.db.prepare('SELECT COUNT(*) FROM papers_to_tag').pluck().get() as number;
    const before = allTags();
    let batches = 0;
    const stopped = await retag(t.store.tags, defaultTaxonomy(), {
      full: true,
      onProgress: () => (batches += 1),
      shouldStop: () => batches >= 1,
    });
    expect(stopped.stopped).toBe(true);
    expect(batches).toBe(1);
    const left = staleCount();
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThan(t.store.papers.count());
    // Papers not reached yet keep their tags (same taxonomy, so the tagged ones got the same again).
    expect(allTags()).toEqual(before);

    // The definitions were recorded when the run began: the next one tags only what is still stale.
    const resumed = await retag(t.store.tags, defaultTaxonomy());
    expect(resumed).toMatchObject({ changedTopics: [], stalePapers: left, stopped: false });
    expect(staleCount()).toBe(0);
    expect(allTags()).toEqual(before);
  });

  it('a new listed paper is tagged and counted; a paper known only from a replacement never counts', async () => {
    const asOf = (await topics.topic('3d-gaussian-splatting')).asOf;
    const before = await topics.topic('3d-gaussian-splatting', { asOf });
    const text = (id: string) => ({
      id,
      title: 'Faster 3D Gaussian Splatting for large scenes',
      abstract:
        'We render 3D Gaussian splats of large scenes in real time with a new rasteriser for splatting.',
      authors: ['A. Author'],
      categories: ['cs.CV'],
    });
    const write = async (fn: () => void) => {
      fn();
      await retag(t.store.tags, defaultTaxonomy());
      // The server does the same after its own writes; other connections' commits are noticed by SQLite.
      topics.invalidate();
    };

    await write(() =>
      t.store.papers.upsertBatch([normalisePaper({ ...text('2605.99001'), listingDate: asOf })], {
        countsAsListing: true,
      }),
    );
    expect((await topics.paperTags('2605.99001')).map((x) => x.slug)).toContain('3d-gaussian-splatting');
    const listed = await topics.topic('3d-gaussian-splatting', { asOf });
    expect(listed.momentum.last28).toBe(before.momentum.last28 + 1);
    expect(listed.momentum.total).toBe(before.momentum.total + 1);
    expect(listed.paperIds[0]).toBe('2605.99001');

    await write(() =>
      t.store.papers.upsertBatch([normalisePaper(text('2605.99002'))], { countsAsListing: false }),
    );
    expect((await topics.paperTags('2605.99002')).map((x) => x.slug)).toContain('3d-gaussian-splatting');
    const replaced = await topics.topic('3d-gaussian-splatting', { asOf });
    expect(replaced.momentum.total).toBe(listed.momentum.total);
    expect(replaced.paperIds).not.toContain('2605.99002');
  });
});

describe('topic momentum from the store', () => {
  it('counts a topic by listing date, each paper once, narrower topics included', async () => {
    const detail = await topics.topic('reinforcement-learning', { asOf: '2026-05-08', weeks: 8 });
    const dates = new Map(
      (
        t.store.db.prepare('SELECT id, listing_date FROM papers').all() as {
          id: string;
          listing_date: string | null;
        }[]
      ).map((r) => [r.id, r.listing_date]),
    );
    const inWindow = (from: string, to: string) =>
      detail.paperIds.filter((id) => {
        const d = dates.get(id);
        return d !== null && d !== undefined && d >= from && d <= to;
      }).length;
    expect(new Set(detail.paperIds).size).toBe(detail.paperIds.length);
    expect(detail.momentum.last28).toBe(inWindow(addDays('2026-05-08', -27), '2026-05-08'));
    expect(detail.momentum.prev28).toBe(inWindow(addDays('2026-05-08', -55), addDays('2026-05-08', -28)));
    expect(detail.momentum.total).toBe(detail.paperIds.length);
    expect(detail.momentum.weekly).toHaveLength(8);
    // Eight weeks back from 2026-05-08 start on the store's first listing day, so every week has data.
    expect(detail.momentum.weekly.every((w) => w.count !== null)).toBe(true);
    expect(detail.momentum.weekly.reduce((s, w) => s + (w.count ?? 0), 0)).toBe(
      inWindow('2026-03-16', '2026-05-08'),
    );
    // Narrower topics' papers are in their parents.
    const child = await topics.topic('rl-for-llm-agents', { asOf: '2026-05-08' });
    for (const id of child.paperIds) expect(detail.paperIds).toContain(id);
    // Newest first.
    const listed = detail.paperIds.map((id) => dates.get(id) ?? '');
    expect([...listed].sort().reverse()).toEqual(listed);
  });

  it('defaults the as-of date to the latest listing day in the store', async () => {
    expect((await topics.topic('llm-safety')).asOf).toBe('2026-05-15');
  });

  it('withholds the change while the four weeks before reach past the store, and marks its weeks no data', async () => {
    // The corpus starts on Monday 2026-03-16; as of 2026-05-08 the four weeks before start on 03-14.
    const early = await topics.topic('reinforcement-learning', { asOf: '2026-05-08' });
    expect(early.momentum).toMatchObject({ changePct: null, changeWithheld: 'before-first-listing' });
    expect(early.momentum.prev28).toBeGreaterThan(0);
    expect(early.momentum.sentence).toMatch(
      /^[\d,]+ papers in the last four weeks\. [\d.]+% of all new papers\. Not enough history yet for a change\.$/,
    );
    // As of 2026-05-15 they start on 03-21 and hold 20 listing days, as many as the last four weeks.
    const latest = await topics.topic('reinforcement-learning');
    expect(latest.momentum.changeWithheld).toBeNull();
    expect(latest.momentum.changePct).not.toBeNull();
    expect(latest.momentum.sentence).toMatch(
      /^[\d,]+ papers in the last four weeks, .*the four weeks before\. /,
    );
    // Twelve weeks back from the week of 05-11 start on 02-23: three weeks before the store.
    expect(latest.momentum.weekly.map((w) => w.count === null)).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(latest.momentum.weekly[3]).toMatchObject({ weekStart: '2026-03-16' });
  });
});

describe('topic API and CLI', () => {
  it('GET /api/topics/:slug and /api/topics answer the documented shapes; unknown slug is 404', async () => {
    const app = createApp({ store: sqliteStores(t.store), harvestState: () => null, topics });
    const res = await app.request('/api/topics/rl-for-llm-agents?asOf=2026-05-08&weeks=6');
    expect(res.status).toBe(200);
    const body = (await res.json()) as TopicDetail;
    expect(body).toMatchObject({ slug: 'rl-for-llm-agents', name: 'RL for LLM Agents', asOf: '2026-05-08' });
    expect(body.momentum.weekly).toHaveLength(6);
    expect(body.momentum.sentence).toMatch(/papers? in the last four weeks/);
    const list = (await (await app.request('/api/topics')).json()) as TopicSummary[];
    expect(list.length).toBe(defaultTaxonomy().topics.length);
    expect(list[0]).not.toHaveProperty('paperIds');
    const missing = await app.request('/api/topics/no-such-topic');
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { message: string }).message).toContain(
      'There is no topic "no-such-topic"',
    );
    const paper = (await (await app.request(`/api/papers/${body.paperIds[0] ?? ''}`)).json()) as {
      tags: { slug: string }[];
    };
    expect(paper.tags.map((x) => x.slug)).toContain('rl-for-llm-agents');
  });

  it("GET /api/topics/:slug/ask answers with sentences quoted from the topic's papers, each cited", async () => {
    const app = createApp({ store: sqliteStores(t.store), harvestState: () => null, topics });
    const res = await app.request('/api/topics/rl-for-llm-agents/ask?q=credit%20assignment%20across%20turns');
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      papersRead: number;
      answers: { paperId: string; sentence: string; matched: string[] }[];
    };
    const topicPapers = new Set((await topics.topic('rl-for-llm-agents')).paperIds);
    expect(body.papersRead).toBe(topicPapers.size);
    expect(body.answers.length).toBeGreaterThan(0);
    for (const a of body.answers) {
      expect(topicPapers.has(a.paperId)).toBe(true);
      const abstract = (t.store.papers.get(a.paperId)?.abstract ?? '').replace(/\s+/g, ' ');
      expect(abstract).toContain(a.sentence);
      expect(a.matched.length).toBeGreaterThan(0);
    }
    expect(new Set(body.answers.map((a) => a.paperId)).size).toBe(body.answers.length);
    expect((await app.request('/api/topics/rl-for-llm-agents/ask?q=')).status).toBe(400);
  });

  it('pnpm quire topic/topics/tags --json print the documented objects', async () => {
    const topic = await runCli([
      'topic',
      'rl-for-llm-agents',
      '--as-of',
      '2026-05-08',
      '--weeks',
      '4',
      '--json',
      '--db',
      t.dbPath,
    ]);
    expect(topic.code).toBe(0);
    const obj = JSON.parse(topic.stdout) as TopicDetail;
    for (const key of ['slug', 'name', 'parents', 'asOf', 'momentum', 'paperIds'])
      expect(obj).toHaveProperty(key);
    for (const key of [
      'last28',
      'prev28',
      'changePct',
      'changeWithheld',
      'sharePct',
      'allNewLast28',
      'total',
      'weekly',
      'sentence',
    ]) {
      expect(obj.momentum).toHaveProperty(key);
    }
    expect(obj.momentum.weekly).toHaveLength(4);
    for (const key of ['score', 'z', 'significant']) expect(obj.rising).toHaveProperty(key);
    const all = JSON.parse((await runCli(['topics', '--json', '--db', t.dbPath])).stdout) as TopicSummary[];
    expect(all.map((x) => x.slug)).toContain('agentic-rag');
    const id = obj.paperIds[0] ?? '';
    const tags = JSON.parse((await runCli(['tags', id, '--json', '--db', t.dbPath])).stdout) as {
      id: string;
      tags: { slug: string; name: string; score: number; evidence: unknown[] }[];
    };
    expect(tags.id).toBe(id);
    expect(tags.tags.find((x) => x.slug === 'rl-for-llm-agents')?.evidence.length).toBeGreaterThan(0);
    const unknown = await runCli(['topic', 'nope', '--db', t.dbPath]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('There is no topic "nope"');
  });
});
