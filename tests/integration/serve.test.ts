import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StatusDto } from '@quire/core';
import { DEFAULT_CONFIG } from '@quire/server/config';
import { PoliteHttpClient } from '@quire/server/harvest/http-client';
import { startServer, type RunningServer } from '@quire/server/server';
import { loadCorpus, startReplayServer, type ReplayServer } from '../src/replay/index.ts';
import { tempStore, type TempStore } from '../src/harness/temp-store.ts';
import { waitFor } from '../src/harness/wait-for.ts';

let replay: ReplayServer;
const cleanups: (() => Promise<void> | void)[] = [];

beforeAll(async () => {
  replay = await startReplayServer();
});
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
  await replay.close();
});

async function serverWith(
  overrides: Partial<typeof DEFAULT_CONFIG>,
  client?: PoliteHttpClient,
): Promise<RunningServer> {
  const t: TempStore = tempStore();
  t.store.close();
  const server = await startServer(
    {
      ...DEFAULT_CONFIG,
      dbPath: t.dbPath,
      port: 0,
      harvestDelaySeconds: 0,
      ...overrides,
    },
    client ? { client } : {},
  );
  cleanups.push(
    () => t.dispose(),
    () => server.close(),
  );
  return server;
}

async function status(server: RunningServer): Promise<StatusDto> {
  return (await (await fetch(`${server.url}/api/status`)).json()) as StatusDto;
}

describe('the server on a real port with background harvesting', () => {
  it('keeps serving when arXiv cannot be reached, reports the failure and schedules a retry', async () => {
    const server = await serverWith(
      {
        oaiUrl: 'http://127.0.0.1:9/oai2',
        rssUrl: 'http://127.0.0.1:9/rss',
        harvestRetrySeconds: 600,
      },
      new PoliteHttpClient({ minIntervalMs: 0, baseBackoffMs: 10, maxRetries: 2 }),
    );
    const failed = await waitFor(
      'the harvest to fail',
      async () => {
        const s = await status(server);
        return s.harvest.status === 'waiting-to-retry' ? s : undefined;
      },
      60_000,
    );
    expect(failed.harvest.lastError).toContain('127.0.0.1:9');
    expect(failed.harvest.consecutiveFailures).toBe(1);
    expect(
      Date.parse(failed.harvest.nextRunAt ?? '') - Date.parse(failed.harvest.lastErrorAt ?? ''),
    ).toBeGreaterThanOrEqual(599_000);
    expect(failed.recentIngests[0]).toMatchObject({ kind: 'harvest', status: 'failed' });
    const ping = await fetch(`${server.url}/api/ping`);
    expect(ping.status).toBe(200);
  });

  it("harvests the day's listings from the replay server in the background", async () => {
    const day = '2026-04-15';
    replay.setDay(day);
    const categories = ['cs.AI', 'cs.CL', 'cs.CV', 'cs.LG', 'cs.RO', 'cs.IR', 'cs.MA'];
    const server = await serverWith({ oaiUrl: replay.oaiUrl, rssUrl: replay.rssUrl, categories });
    const done = await waitFor(
      'the harvest to finish',
      async () => {
        const s = await status(server);
        return s.harvest.lastSuccessAt ? s : undefined;
      },
      60_000,
    );
    const corpus = await loadCorpus();
    const listed = corpus.filter((p) => p.date === day && p.categories.some((c) => categories.includes(c)));
    expect(done.harvest.status).toBe('idle');
    expect(done.harvest.lastRun?.rssListed).toBe(listed.length);
    expect(done.lastListing).toBe(day);
    // Replacements in the feed are papers from earlier days: stored, but with no listing date of today.
    const today = await server.store.papers.byListingDate(day, day);
    expect(new Set(today.map((p) => p.id))).toEqual(new Set(listed.map((p) => p.id)));
  });
});
