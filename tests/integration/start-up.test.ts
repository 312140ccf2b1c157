import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchResponseDto, StatusDto, TopicDetail } from '@quire/core';
import { DEFAULT_CONFIG } from '@quire/server/config';
import { importPaths } from '@quire/server/ingest/import-dumps';
import { startServer, type RunningServer } from '@quire/server/server';
import { listingsDir } from '../src/paths.ts';
import { tempStore, type TempStore } from '../src/harness/temp-store.ts';
import { waitFor } from '../src/harness/wait-for.ts';

// The whole corpus, imported and never tagged, so that tagging it takes seconds: long enough that the first
// requests below are certainly made while it is under way. The search index was written with the papers,
// so search has nothing to warm up.
let t: TempStore;
let server: RunningServer;

beforeAll(async () => {
  t = tempStore();
  await importPaths(t.store, [listingsDir]);
  t.store.close();
  server = await startServer({ ...DEFAULT_CONFIG, dbPath: t.dbPath, port: 0, harvest: false });
}, 300_000);
afterAll(async () => {
  await server.close();
  t.dispose();
});

const get = (path: string) => fetch(`${server.url}${path}`);

describe('start-up work off the request path', () => {
  it('answers pages, pings and searches while the store is tagged, and says it is warming up', async () => {
    const ready = await get('/api/ready');
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ ready: false, warming: ['tags'] });

    // Answered while tagging is under way: /api/ready, asked after each, still says warming.
    expect((await get('/api/ping')).status).toBe(200);
    const topics = await get('/api/topics');
    expect(topics.status).toBe(200);
    expect(((await topics.json()) as unknown[]).length).toBeGreaterThan(100);
    const status = (await (await get('/api/status')).json()) as StatusDto;
    expect(status.papers).toBe(26_845);
    expect(status.warming).toEqual(['tags']);
    expect((await get('/api/topics/rl-for-llm-agents')).status).toBe(200);
    // The on-disk index answers at once, before any paper is tagged.
    const res = await get(`/api/search?q=${encodeURIComponent('"gaussian splatting"')}`);
    expect(res.status).toBe(200);
    const answer = (await res.json()) as SearchResponseDto;
    expect(answer.total).toBeGreaterThan(50);
    expect(answer.results[0]?.title.toLowerCase()).toContain('gaussian splatting');
    expect((await get('/api/ready')).status).toBe(503);
  });

  // Tagging the corpus takes about 8 s on an idle machine and several times that on a loaded one: the wait is
  // for the signal, with room for a slow machine, not a bound on how long tagging may take.
  it('reports ready once tagged', async () => {
    const ready = await waitFor(
      'the server to be ready',
      async () => {
        const r = await get('/api/ready');
        return r.status === 200 ? ((await r.json()) as { ready: boolean; warming: string[] }) : undefined;
      },
      240_000,
    );
    expect(ready).toEqual({ ready: true, warming: [] });
    const status = (await (await get('/api/status')).json()) as StatusDto;
    expect(status.warming).toEqual([]);
    expect(status.tagging).toBeNull();
  }, 250_000);

  it('once ready, every paper carries its tags, in the topic API and in topic: searches', async () => {
    // The store was never tagged: every tag here was written by the tag thread after the server listened,
    // and topic: searches read them from the store as written.
    const topic = (await (await get('/api/topics/rl-for-llm-agents')).json()) as TopicDetail;
    expect(topic.paperIds.length).toBeGreaterThan(100);
    const res = await get(`/api/search?q=${encodeURIComponent('topic:rl-for-llm-agents')}`);
    const found = (await res.json()) as SearchResponseDto;
    expect(found.total).toBeGreaterThan(100);
  });

  it('answers a search error from the search thread with its status and message', async () => {
    const res = await get(`/api/search?q=${encodeURIComponent('topic:no-such-topic')}`);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: string; message: string };
    expect(body.error).toBe('bad-input');
    expect(body.message).toContain('no-such-topic');
    // A query core refuses to parse (an impossible date) is a CoreError, answered 400 as in-process.
    const badDate = await get(`/api/search?q=${encodeURIComponent('from:2026-13-45')}`);
    expect(badDate.status).toBe(400);
    expect(((await badDate.json()) as { message: string }).message).toContain('2026-13-45');
    const missing = await get('/api/related/2605.99999');
    expect(missing.status).toBe(404);
  });
});
