import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PaperEntity } from '@quire/core';
import { createApp } from '@quire/server/api/app';
import { DEFAULT_CONFIG } from '@quire/server/config';
import { PaperFetcher } from '@quire/server/harvest/fetch-paper';
import { harvestTarget } from '@quire/server/harvest/harvest-target';
import { PoliteHttpClient } from '@quire/server/harvest/http-client';
import { startServer } from '@quire/server/server';
import { openTopics } from '@quire/server/topics/open-topics';
import { loadCorpus, startReplayServer, type ReplayServer } from '../src/replay/index.ts';
import { tempStore } from '../src/harness/temp-store.ts';
import { waitFor } from '../src/harness/wait-for.ts';
import { sqliteStores } from '@quire/server/store/stores';

// GET /api/papers/:id?fetch=1 is open to anyone who can reach the server: one id asked for many times must
// cost arXiv one request, and many ids must not queue without end behind the 3-second spacing.
let replay: ReplayServer;

beforeAll(async () => {
  replay = await startReplayServer();
});
afterAll(async () => {
  await replay.close();
});

function apiRequests(): number {
  return replay.requests.filter((r) => r.path.startsWith('/api/query')).length;
}

describe('?fetch=1 against the query API', () => {
  it('concurrent requests for the same unknown id make one request to arXiv', async () => {
    const t = tempStore();
    try {
      const paper = (await loadCorpus())[0];
      if (!paper) throw new Error('empty corpus');
      const client = new PoliteHttpClient({ minIntervalMs: 0, baseBackoffMs: 10 });
      const fetcher = new PaperFetcher({
        apiUrl: replay.apiUrl,
        client,
        target: harvestTarget(t.store),
        maxPending: DEFAULT_CONFIG.fetchMaxPending,
      });
      // In-process: every request below reaches the route before arXiv can answer the first.
      const app = createApp({
        store: sqliteStores(t.store),
        harvestState: () => null,
        fetchPaper: (id) => fetcher.fetch(id),
        topics: (await openTopics(t.store)).topics,
      });
      replay.reset();
      const answers = await Promise.all(
        Array.from({ length: 12 }, async () => app.request(`/api/papers/${paper.id}?fetch=1`)),
      );
      expect(answers.map((r) => r.status)).toEqual(Array.from({ length: 12 }, () => 200));
      for (const answer of answers) expect(((await answer.json()) as PaperEntity).id).toBe(paper.id);
      expect(apiRequests()).toBe(1);
      expect(t.store.papers.has(paper.id)).toBe(true);
    } finally {
      t.dispose();
    }
  });

  it('more distinct ids than the cap get 429 naming the limit, on a real server', async () => {
    const t = tempStore();
    t.store.close();
    const server = await startServer({
      ...DEFAULT_CONFIG,
      dbPath: t.dbPath,
      port: 0,
      harvest: false,
      harvestDelaySeconds: 0,
      apiUrl: replay.apiUrl,
      fetchMaxPending: 2,
    });
    let release = (): void => {};
    try {
      replay.reset();
      // arXiv holds the first answer, so the fetches let in stay pending while the others arrive.
      replay.inject({ kind: 'hold', until: new Promise<void>((r) => (release = r)), match: /^\/api\/query/ });
      const ids = ['2605.99991', '2605.99992', '2605.99993', '2605.99994', '2605.99995'];
      const answered: { status: number; body: { error: string; message: string } }[] = [];
      const all = ids.map(async (id) => {
        const res = await fetch(`${server.url}/api/papers/${id}?fetch=1`);
        answered.push({ status: res.status, body: (await res.json()) as { error: string; message: string } });
      });
      const refused = await waitFor('three fetches refused while two are pending', () =>
        answered.length >= 3 ? answered.slice() : undefined,
      );
      expect(refused.map((a) => a.status)).toEqual([429, 429, 429]);
      expect(refused[0]?.body.error).toBe('rate-limited');
      expect(refused[0]?.body.message).toContain('QUIRE_FETCH_MAX_PENDING');
      release();
      await Promise.all(all);
      // The two let in reach arXiv, which has neither paper.
      expect(answered.slice(3).map((a) => a.status)).toEqual([404, 404]);
      expect(apiRequests()).toBe(2);
      // Once they are done, a new id is let in again.
      const again = await fetch(`${server.url}/api/papers/2605.99996?fetch=1`);
      expect(again.status).toBe(404);
    } finally {
      release();
      await server.close();
      t.dispose();
    }
  });
});
