import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PaperEntity, StatusDto } from '@quire/core';
import { createApp } from '@quire/server/api/app';
import { fetchPaper } from '@quire/server/harvest/fetch-paper';
import { harvestTarget } from '@quire/server/harvest/harvest-target';
import { PoliteHttpClient } from '@quire/server/harvest/http-client';
import { importPaths } from '@quire/server/ingest/import-dumps';
import { openTopics } from '@quire/server/topics/open-topics';
import { listingsDir } from '../src/paths.ts';
import { loadCorpus, startReplayServer, type CorpusPaper, type ReplayServer } from '../src/replay/index.ts';
import { tempStore, type TempStore } from '../src/harness/temp-store.ts';
import { sqliteStores } from '@quire/server/store/stores';

// Route tests in-process with app.requestasync (): no socket needed to check what the API answers.
let t: TempStore;
let replay: ReplayServer;
let app: ReturnType<typeof createApp>;
let week: CorpusPaper[];

beforeAll(async () => {
  t = tempStore();
  replay = await startReplayServer();
  await importPaths(t.store, [resolve(listingsDir, '2026-03-16.jsonl.br')]);
  week = (await loadCorpus()).filter((p) => p.date <= '2026-03-20');
  const client = new PoliteHttpClient({ minIntervalMs: 0, baseBackoffMs: 10 });
  const target = harvestTarget(t.store);
  app = createApp({
    store: sqliteStores(t.store),
    harvestState: () => null,
    fetchPaper: (id) => fetchPaper(id, { apiUrl: replay.apiUrl, client, target }),
    topics: (await openTopics(t.store)).topics,
  });
});
afterAll(async () => {
  await replay.close();
  t.dispose();
});

describe('JSON API', () => {
  it('GET /api/status reports the store and that harvesting is off', async () => {
    const res = await app.request('/api/status');
    expect(res.status).toBe(200);
    const body = (await res.json()) as StatusDto;
    expect(body.papers).toBe(week.length);
    expect(body.firstListing).toBe('2026-03-16');
    expect(body.lastListing).toBe('2026-03-20');
    const cvPrimary = week.filter((p) => p.categories[0] === 'cs.CV').length;
    expect(body.byPrimaryCategory['cs.CV']).toBe(cvPrimary);
    expect(body.harvest.status).toBe('disabled');
    expect(body.recentIngests[0]).toMatchObject({ kind: 'import', status: 'ok', inserted: week.length });
  });

  it('GET /api/papers/:id answers a stored paper by any id form', async () => {
    const want = week[10];
    if (!want) throw new Error('corpus too small');
    for (const form of [want.id, `${want.id}v2`, `arXiv:${want.id}`]) {
      const res = await app.request(`/api/papers/${encodeURIComponent(form)}`);
      expect(res.status, form).toBe(200);
      const paper = (await res.json()) as PaperEntity;
      expect(paper.id).toBe(want.id);
      expect(paper.listingDate).toBe(want.date);
      expect(paper.links.pdf).toBe(`https://arxiv.org/pdf/${want.id}`);
    }
  });

  it('an unknown id is a 404 that says how to fetch it; a malformed id is a 400', async () => {
    const missing = await app.request('/api/papers/2605.99999');
    expect(missing.status).toBe(404);
    const missingBody = (await missing.json()) as { error: string; message: string };
    expect(missingBody.error).toBe('not-found');
    expect(missingBody.message).toContain('?fetch=1');
    const bad = await app.request('/api/papers/not-an-id');
    expect(bad.status).toBe(400);
    const badBody = (await bad.json()) as { error: string; message: string };
    expect(badBody.error).toBe('invalid-arxiv-id');
    expect(badBody.message).toContain('not-an-id');
  });

  it('GET /api/papers?ids= answers many stored papers at once, in order, and names the missing ones', async () => {
    const wanted = week.slice(20, 26).map((p) => p.id);
    const res = await app.request(
      `/api/papers?ids=${[wanted[0], '2605.99999', ...wanted.slice(1)].join(',')}`,
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as { papers: (PaperEntity & { tags: unknown[] })[]; missing: string[] };
    expect(body.papers.map((p) => p.id)).toEqual(wanted);
    expect(body.missing).toEqual(['2605.99999']);
    expect(body.papers[0]?.title).toBe(week[20]?.title);
    expect(Array.isArray(body.papers[0]?.tags)).toBe(true);
  });

  it('GET /api/papers?ids= refuses no ids, too many, and a malformed one', async () => {
    expect((await app.request('/api/papers')).status).toBe(400);
    const many = Array.from({ length: 101 }, (_, i) => `2603.${String(i).padStart(5, '0')}`).join(',');
    const tooMany = await app.request(`/api/papers?ids=${many}`);
    expect(tooMany.status).toBe(400);
    expect(((await tooMany.json()) as { message: string }).message).toContain('101 given');
    expect((await app.request(`/api/papers?ids=${week[0]?.id},nonsense`)).status).toBe(400);
  });

  it('?fetch=1 fetches a paper the store lacks through the query API and stores it', async () => {
    const later = (await loadCorpus()).find((p) => p.date === '2026-05-12');
    if (!later) throw new Error('corpus lacks 2026-05-12');
    expect(t.store.papers.has(later.id)).toBe(false);
    const res = await app.request(`/api/papers/${later.id}?fetch=1`);
    expect(res.status).toBe(200);
    const paper = (await res.json()) as PaperEntity;
    expect(paper.title).toBe(later.title.replace(/\s+/g, ' ').trim());
    expect(paper.listingDateEstimated).toBe(true);
    expect(t.store.papers.get(later.id)?.id).toBe(later.id);
    const unknown = await app.request('/api/papers/2605.99999?fetch=1');
    expect(unknown.status).toBe(404);
  });

  it('an unknown endpoint answers JSON 404', async () => {
    const res = await app.request('/api/nothing-here');
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: 'not-found' });
  });
});
