import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
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
import {
  describeOnPaperEngines,
  peek,
  type PaperEngine,
  type PaperEngineStore,
} from '../src/harness/paper-engines.ts';
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
});

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
});

/*
 * What a harvest does to the store, on each engine: the same window again changes nothing, a stopped
 * harvest resumes from the checkpoint committed with its last page, a CLI harvest killed outright resumes
 * the same way, a malformed page stores nothing of itself and keeps the checkpoint, and a source that has
 * nothing (or cannot be reached) leaves the store as it was.
 */
describeOnPaperEngines('harvest_oai', 'OAI-PMH harvest into the store', (engine) => {
  const small = { from: '2026-04-01', until: '2026-04-03' };
  const smallIds = () => corpus.filter((p) => p.date >= small.from && p.date <= small.until).map((p) => p.id);
  // Three days (1,377 papers) in pages of 400, so four pages: a repeat and a resume need several pages, not
  // many papers. Two weeks in pages of 2,000 ran past the 60 s timeout at a load of 20-30.
  const PAGE = 400;
  let paged400: ReplayServer;
  beforeAll(async () => {
    paged400 = await startReplayServer({ oaiPageSize: PAGE });
  });
  const opened: PaperEngineStore[] = [];
  const fresh = async (label: string) => {
    const store = await engine.fresh(label);
    opened.push(store);
    return store;
  };
  afterAll(async () => {
    for (const store of opened) await store.close();
    await paged400.close();
  });

  it('harvesting the same window again changes nothing', async () => {
    const t = await fresh('again');
    const want = smallIds().length;
    const first = await harvestOai({
      baseUrl: paged400.oaiUrl,
      ...small,
      client: fastClient(),
      target: t.target,
    });
    expect(first.counts).toEqual({ inserted: want, updated: 0, unchanged: 0 });
    const before = await t.fingerprint();
    const again = await harvestOai({
      baseUrl: paged400.oaiUrl,
      ...small,
      client: fastClient(),
      target: t.target,
    });
    expect(again.counts).toEqual({ inserted: 0, updated: 0, unchanged: want });
    expect(await t.fingerprint()).toBe(before);
    const log = await t.recentIngests(5, 'harvest');
    expect(log.map((r) => [r.status, r.inserted, r.unchanged])).toEqual([
      ['ok', 0, want],
      ['ok', want, 0],
    ]);
  });

  it('an interrupted harvest resumes from its checkpoint with no duplicate and no gap', async () => {
    const t = await fresh('resumed');
    const abort = new AbortController();
    await expect(
      harvestOai({
        baseUrl: paged400.oaiUrl,
        ...small,
        client: fastClient(),
        target: t.target,
        signal: abort.signal,
        onPage: (p) => {
          if (p.pages === 2) abort.abort(new Error('stop half way'));
        },
      }),
    ).rejects.toThrow('stop half way');
    const checkpoint = await t.target.getCheckpoint<OaiCheckpoint>(oaiCheckpointKey('cs', 'arXivRaw'));
    expect(checkpoint?.completed).toBe(false);
    expect(checkpoint?.pages).toBe(2);
    expect(await t.papers.count()).toBe(2 * PAGE);

    const before = paged400.requests.length;
    const resumed = await harvestOai({
      baseUrl: paged400.oaiUrl,
      ...small,
      client: fastClient(),
      target: t.target,
    });
    expect(resumed.resumed).toBe(true);
    expect(resumed.records).toBe(smallIds().length - 2 * PAGE);
    expect(resumed.counts.unchanged).toBe(0);
    expect(paged400.requests[before]?.path).toContain('resumptionToken=');
    expectIds(await t.papers.ids(), smallIds());
  });

  // Three days in pages of 100 (14 pages, a quarter of a second apart, so the kill lands mid-harvest on a
  // fast machine too): the two CLI runs do a twentieth of the whole window's work, so the test no longer
  // needs an idle machine to end within its timeout (it ran past 60 s at a load of 9).
  it('killed with SIGKILL half way through the CLI harvest and restarted, it ends the same', async () => {
    const paged = await startReplayServer({ oaiPageSize: 100 });
    try {
      await killedAndResumed(engine, paged.oaiUrl, small, smallIds());
    } finally {
      await paged.close();
    }
  });

  it('a truncated or malformed page fails whole: nothing of it is stored, the checkpoint stays, a re-run completes', async () => {
    const t = await fresh('malformed');
    const replaySmall = await startReplayServer({ oaiPageSize: 200 });
    try {
      const first = await harvestOai({
        baseUrl: replaySmall.oaiUrl,
        ...small,
        client: fastClient(),
        target: t.target,
        onPage: (p) => {
          if (p.pages !== 2) return;
          replaySmall.inject({ kind: 'truncated', match: /resumptionToken=/ });
          replaySmall.inject({ kind: 'malformedXml', match: /resumptionToken=/ });
          replaySmall.inject({ kind: 'malformedXml', match: /resumptionToken=/ });
        },
      }).catch((err: unknown) => err);
      expect(first).toBeInstanceOf(QuireError);
      expect((first as QuireError).code).toBe('malformed-xml');
      expect(await t.papers.count()).toBe(400);
      expect((await t.target.getCheckpoint<OaiCheckpoint>(oaiCheckpointKey('cs', 'arXivRaw')))?.pages).toBe(
        2,
      );
      expect((await t.lastIngest('harvest'))?.status).toBe('failed');

      const second = await harvestOai({
        baseUrl: replaySmall.oaiUrl,
        ...small,
        client: fastClient(),
        target: t.target,
      });
      expect(second.resumed).toBe(true);
      expectIds(await t.papers.ids(), smallIds());
    } finally {
      await replaySmall.close();
    }
  });

  it('noRecordsMatch means nothing new', async () => {
    const t = await fresh('nothing');
    const report = await harvestOai({
      baseUrl: replay.oaiUrl,
      from: '2020-01-01',
      until: '2020-01-31',
      client: fastClient(),
      target: t.target,
    });
    expect(report.nothingNew).toBe(true);
    expect(await t.papers.count()).toBe(0);
  });

  it('after a run that found nothing new, the next lists from the same day, not from the beginning', async () => {
    // The scheduler's first run on a fresh store asks from a few days back; the checkpoint it leaves has
    // no stored datestamp. The next run must not fall back to listing the whole archive.
    const t = await fresh('nothing-then-incremental');
    const first = await harvestOai({
      baseUrl: replay.oaiUrl,
      from: '2099-01-01',
      client: fastClient(),
      target: t.target,
    });
    expect(first.nothingNew).toBe(true);
    const before = replay.requests.length;
    const next = await harvestOai({ baseUrl: replay.oaiUrl, client: fastClient(), target: t.target });
    const asked = replay.requests.slice(before).map((r) => r.path);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('from=2099-01-01');
    expect(next.nothingNew).toBe(true);
    expect(await t.papers.count()).toBe(0);
  });

  it('an unreachable source fails with a clear error and leaves the store as it was', async () => {
    const t = await fresh('unreachable');
    await harvestOai({ baseUrl: replay.oaiUrl, ...small, client: fastClient(), target: t.target });
    const before = await t.fingerprint();
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
      target: t.target,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(QuireError);
    expect((err as QuireError).code).toBe('source-unreachable');
    expect((err as QuireError).message).toContain('127.0.0.1:9');
    expect(await t.fingerprint()).toBe(before);
  });
});

async function killedAndResumed(
  engine: PaperEngine,
  oaiUrl: string,
  days: { from: string; until: string },
  want: readonly string[],
): Promise<void> {
  const at = await engine.address('killed');
  const cli = resolve(repoRoot, 'server/src/cli/main.ts');
  const args = [
    '--import',
    'tsx',
    cli,
    'harvest',
    ...at.cliArgs,
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
    const rows = await peek<{ value: string }>(at, 'SELECT value FROM harvest_checkpoints WHERE key = $1', [
      key,
    ]);
    const row = rows?.[0];
    pages = row ? (JSON.parse(row.value) as OaiCheckpoint).pages : 0;
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
  const store = await engine.open(at);
  try {
    expectIds(await store.papers.ids(), want);
    expect(await store.tags.staleCount()).toBe(0);
  } finally {
    await store.close();
  }
}
