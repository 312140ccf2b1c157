import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QuireError } from '@quire/server/errors';
import { harvestTarget } from '@quire/server/harvest/harvest-target';
import { PoliteHttpClient, type WaitEvent } from '@quire/server/harvest/http-client';
import { harvestOai, oaiCheckpointKey, type OaiCheckpoint } from '@quire/server/harvest/oai-harvester';
import { repoRoot } from '../src/paths.ts';
import {
  corpusManifest,
  loadCorpus,
  startReplayServer,
  type CorpusPaper,
  type ReplayServer,
} from '../src/replay/index.ts';
import { squash, tempStore, type TempStore } from '../src/harness/temp-store.ts';

const WINDOW = { from: corpusManifest().window.first, until: corpusManifest().window.last };
/** A test that harvests the whole corpus (26,845 papers) gets room for a loaded machine. */
const WHOLE_CORPUS_MS = 150_000;
const fastClient = (onWait?: (e: WaitEvent) => void) =>
  new PoliteHttpClient({
    minIntervalMs: 0,
    baseBackoffMs: 20,
    maxRetries: 4,
    timeoutMs: 5000,
    ...(onWait ? { onWait } : {}),
  });

let replay: ReplayServer;
let corpus: CorpusPaper[];
const stores: TempStore[] = [];

function newStore(): TempStore {
  const s = tempStore();
  stores.push(s);
  return s;
}

beforeAll(async () => {
  corpus = await loadCorpus();
  replay = await startReplayServer({ oaiPageSize: 2000 });
});
afterAll(async () => {
  await replay.close();
  for (const s of stores) s.dispose();
});

function expectIds(ids: string[], want: Iterable<string>): void {
  const wanted = new Set(want);
  expect(ids.length).toBe(wanted.size);
  expect(new Set(ids)).toEqual(wanted);
}

describe('OAI-PMH harvest from the replay server', () => {
  it.each(['arXivRaw', 'arXiv'] as const)(
    'in the %s format ends with exactly the corpus ids and metadata, listing dates estimated from the v1 date',
    async (metadataPrefix) => {
      const t = newStore();
      const report = await harvestOai({
        baseUrl: replay.oaiUrl,
        set: 'cs',
        metadataPrefix,
        ...WINDOW,
        client: fastClient(),
        target: harvestTarget(t.store),
      });
      expect(report.records).toBe(corpus.length);
      expect(report.pages).toBe(Math.ceil(corpus.length / 2000));
      expect(corpus.length).toBe(corpusManifest().total_records);
      expectIds(
        t.store.papers.ids(),
        corpus.map((p) => p.id),
      );

      const listingDays = [...new Set(corpus.map((p) => p.date))].sort();
      const previousListingDay = (day: string) => listingDays[listingDays.indexOf(day) - 1];
      let exact = 0;
      for (const want of corpus) {
        const got = t.store.papers.get(want.id);
        expect(got, want.id).toBeDefined();
        if (!got) continue;
        expect(got.title).toBe(squash(want.title));
        expect(got.abstract).toBe(squash(want.abstract));
        // A few corpus names carry a stray "and" from the bots' author splitting; Quire drops it.
        expect(got.authors.map((a) => a.name)).toEqual(
          want.authors.map((a) => squash(a)?.replace(/^and | and$/g, '')),
        );
        expect(got.categories).toEqual(want.categories);
        expect(got.comment).toBe(squash(want.comment) || null);
        expect(got.listingDateEstimated).toBe(true);
        if (got.listingDate === want.date) exact += 1;
        else if (metadataPrefix === 'arXiv' && want.date !== listingDays[0]) {
          // The arXiv format gives the v1 day only; read as "before the cut-off", a late submission is
          // estimated one listing day early, never later and never further off.
          expect(got.listingDate, want.id).toBe(previousListingDay(want.date));
        }
      }
      // arXivRaw's full v1 timestamps fall inside arXiv's submission windows, so the schedule is exact.
      if (metadataPrefix === 'arXivRaw') expect(exact).toBe(corpus.length);
      else expect(exact).toBeGreaterThan(corpus.length / 2);
    },
    // Every record of the corpus, parsed and stored: 12 s on an idle machine, 46-49 s at a load of 9.
    WHOLE_CORPUS_MS,
  );

  // Two weeks (5,372 papers, three pages) rather than the whole window: what is checked is the same, and
  // two whole harvests took 55 s at a load of 9, near the timeout.
  it('harvesting the same window again changes nothing', async () => {
    const t = newStore();
    const target = harvestTarget(t.store);
    const weeks = { from: '2026-03-30', until: '2026-04-10' };
    const want = corpus.filter((p) => p.date >= weeks.from && p.date <= weeks.until).length;
    const first = await harvestOai({ baseUrl: replay.oaiUrl, ...weeks, client: fastClient(), target });
    expect(first.counts).toEqual({ inserted: want, updated: 0, unchanged: 0 });
    const again = await harvestOai({ baseUrl: replay.oaiUrl, ...weeks, client: fastClient(), target });
    expect(again.counts).toEqual({ inserted: 0, updated: 0, unchanged: want });
  });

  it(
    'an interrupted harvest resumes from its checkpoint with no duplicate and no gap',
    async () => {
      const t = newStore();
      const target = harvestTarget(t.store);
      const abort = new AbortController();
      await expect(
        harvestOai({
          baseUrl: replay.oaiUrl,
          ...WINDOW,
          client: fastClient(),
          target,
          signal: abort.signal,
          onPage: (p) => {
            if (p.pages === 5) abort.abort(new Error('stop half way'));
          },
        }),
      ).rejects.toThrow('stop half way');
      const checkpoint = await target.getCheckpoint<OaiCheckpoint>(oaiCheckpointKey('cs', 'arXivRaw'));
      expect(checkpoint?.completed).toBe(false);
      expect(checkpoint?.pages).toBe(5);
      expect(t.store.papers.count()).toBe(5 * 2000);

      const before = replay.requests.length;
      const resumed = await harvestOai({ baseUrl: replay.oaiUrl, ...WINDOW, client: fastClient(), target });
      expect(resumed.resumed).toBe(true);
      expect(resumed.records).toBe(corpus.length - 5 * 2000);
      expect(replay.requests[before]?.path).toContain('resumptionToken=');
      expectIds(
        t.store.papers.ids(),
        corpus.map((p) => p.id),
      );
    },
    WHOLE_CORPUS_MS,
  );

  // Three days in pages of 100 (14 pages, a quarter of a second apart, so the kill lands mid-harvest on a
  // fast machine too): the two CLI runs do a twentieth of the whole window's work, so the test no longer
  // needs an idle machine to end within its timeout (it ran past 60 s at a load of 9).
  it('killed with SIGKILL half way through the CLI harvest and restarted, it ends the same', async () => {
    const days = { from: '2026-04-01', until: '2026-04-03' };
    const want = corpus.filter((p) => p.date >= days.from && p.date <= days.until).map((p) => p.id);
    const paged = await startReplayServer({ oaiPageSize: 100 });
    try {
      await killedAndResumed(paged.oaiUrl, days, want);
    } finally {
      await paged.close();
    }
  });
});

async function killedAndResumed(
  oaiUrl: string,
  days: { from: string; until: string },
  want: readonly string[],
): Promise<void> {
  const t = newStore();
  t.store.close();
  const cli = resolve(repoRoot, 'server/src/cli/main.ts');
  const args = [
    '--import',
    'tsx',
    cli,
    'harvest',
    '--db',
    t.dbPath,
    '--oai',
    oaiUrl,
    '--from',
    days.from,
    '--until',
    days.until,
    '--delay',
    '0.25',
  ];
  const key = oaiCheckpointKey('cs', 'arXivRaw');
  const child = spawn(process.execPath, args, { stdio: 'ignore', cwd: repoRoot });
  const exited = new Promise((r) => child.once('exit', r));
  // Kill it as soon as a few pages are committed, watching the checkpoint through a second connection.
  let pages = 0;
  while (pages < 3) {
    await new Promise((r) => setTimeout(r, 50));
    if (child.exitCode !== null) throw new Error('the harvest finished before it could be killed');
    try {
      const watcher = new Database(t.dbPath, { readonly: true, fileMustExist: true });
      const row = watcher.prepare('SELECT value FROM harvest_checkpoints WHERE key = ?').pluck().get(key);
      watcher.close();
      pages = typeof row === 'string' ? (JSON.parse(row) as OaiCheckpoint).pages : 0;
    } catch {
      // the file or its schema is not there yet
    }
  }
  child.kill('SIGKILL');
  await exited;

  const second = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], cwd: repoRoot });
  let out = '';
  second.stdout.on('data', (d: Buffer) => (out += d.toString()));
  second.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const code = await new Promise((r) => second.once('exit', r));
  expect(out).toContain('(resumed)');
  expect(code).toBe(0);
  const db = new Database(t.dbPath, { readonly: true });
  try {
    expectIds(db.prepare('SELECT id FROM papers').pluck().all() as string[], want);
  } finally {
    db.close();
  }
}

describe('OAI-PMH faults', () => {
  const small = { from: '2026-04-01', until: '2026-04-03' };
  const smallIds = () => corpus.filter((p) => p.date >= small.from && p.date <= small.until).map((p) => p.id);

  it('a 503 with Retry-After is waited out and retried', async () => {
    const t = newStore();
    const waits: WaitEvent[] = [];
    replay.inject({ kind: 'status503', retryAfterSeconds: 1, match: /verb=ListRecords/ });
    await harvestOai({
      baseUrl: replay.oaiUrl,
      ...small,
      client: fastClient((e) => waits.push(e)),
      target: harvestTarget(t.store),
    });
    expect(waits.find((w) => w.reason === 'retry-after')?.ms).toBe(1000);
    expectIds(t.store.papers.ids(), smallIds());
  });

  it('a 429 with Retry-After is waited out too', async () => {
    const t = newStore();
    const waits: WaitEvent[] = [];
    replay.inject({ kind: 'status429', retryAfterSeconds: 1, match: /verb=ListRecords/ });
    await harvestOai({
      baseUrl: replay.oaiUrl,
      ...small,
      client: fastClient((e) => waits.push(e)),
      target: harvestTarget(t.store),
    });
    expect(waits.filter((w) => w.reason === 'retry-after').map((w) => w.ms)).toEqual([1000]);
    expectIds(t.store.papers.ids(), smallIds());
  });

  it('HTTP 500, a truncated body, a reset and a slow answer are retried with backoff', async () => {
    const t = newStore();
    const waits: WaitEvent[] = [];
    const client = new PoliteHttpClient({
      minIntervalMs: 0,
      baseBackoffMs: 20,
      maxRetries: 6,
      timeoutMs: 1000,
      onWait: (e) => waits.push(e),
    });
    replay.inject({ kind: 'status500', match: /verb=ListRecords/ });
    replay.inject({ kind: 'reset', match: /verb=ListRecords/ });
    replay.inject({ kind: 'slow', delayMs: 3000, match: /verb=ListRecords/ });
    await harvestOai({ baseUrl: replay.oaiUrl, ...small, client, target: harvestTarget(t.store) });
    expect(waits.filter((w) => w.reason === 'backoff').length).toBe(3);
    expectIds(t.store.papers.ids(), smallIds());
  });

  it('a truncated or malformed page fails whole: nothing of it is stored, the checkpoint stays, a re-run completes', async () => {
    const t = newStore();
    const target = harvestTarget(t.store);
    const replaySmall = await startReplayServer({ oaiPageSize: 200 });
    try {
      const first = await harvestOai({
        baseUrl: replaySmall.oaiUrl,
        ...small,
        client: fastClient(),
        target,
        onPage: (p) => {
          if (p.pages !== 2) return;
          replaySmall.inject({ kind: 'truncated', match: /resumptionToken=/ });
          replaySmall.inject({ kind: 'malformedXml', match: /resumptionToken=/ });
          replaySmall.inject({ kind: 'malformedXml', match: /resumptionToken=/ });
        },
      }).catch((err: unknown) => err);
      expect(first).toBeInstanceOf(QuireError);
      expect((first as QuireError).code).toBe('malformed-xml');
      expect(t.store.papers.count()).toBe(400);
      expect((await target.getCheckpoint<OaiCheckpoint>(oaiCheckpointKey('cs', 'arXivRaw')))?.pages).toBe(2);
      expect(t.store.state.lastIngest('harvest')?.status).toBe('failed');

      const second = await harvestOai({
        baseUrl: replaySmall.oaiUrl,
        ...small,
        client: fastClient(),
        target,
      });
      expect(second.resumed).toBe(true);
      expectIds(t.store.papers.ids(), smallIds());
    } finally {
      await replaySmall.close();
    }
  });

  it('an expired resumption token restarts from the last stored datestamp and ends the same', async () => {
    const t = newStore();
    const replaySmall = await startReplayServer({ oaiPageSize: 300 });
    try {
      replaySmall.inject({ kind: 'expiredToken', match: /resumptionToken=/ });
      const report = await harvestOai({
        baseUrl: replaySmall.oaiUrl,
        ...small,
        client: fastClient(),
        target: harvestTarget(t.store),
      });
      expect(report.restarts).toBe(1);
      expectIds(t.store.papers.ids(), smallIds());
    } finally {
      await replaySmall.close();
    }
  });

  it('noRecordsMatch means nothing new', async () => {
    const t = newStore();
    const report = await harvestOai({
      baseUrl: replay.oaiUrl,
      from: '2020-01-01',
      until: '2020-01-31',
      client: fastClient(),
      target: harvestTarget(t.store),
    });
    expect(report.nothingNew).toBe(true);
    expect(t.store.papers.count()).toBe(0);
  });

  it('an unreachable source fails with a clear error and leaves the store as it was', async () => {
    const t = newStore();
    const client = new PoliteHttpClient({
      minIntervalMs: 0,
      baseBackoffMs: 5,
      maxRetries: 1,
      timeoutMs: 1000,
    });
    const err = await harvestOai({
      baseUrl: 'http://127.0.0.1:9/oai2',
      ...small,
      client,
      target: harvestTarget(t.store),
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(QuireError);
    expect((err as QuireError).code).toBe('source-unreachable');
    expect((err as QuireError).message).toContain('127.0.0.1:9');
    expect(t.store.papers.count()).toBe(0);
  });
});
