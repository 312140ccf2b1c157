import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { DEFAULT_CONFIG } from '@quire/server/config';
import { startServer, type RunningServer } from '@quire/server/server';
import { openPgPool } from '@quire/server/store/pg/pg-pool';
import { createThrowawayDatabase, type ThrowawayDatabase } from '@quire/server/store/pg/throwaway-database';
import { startReplayServer, type ReplayServer } from '../src/replay/index.ts';
import { waitFor } from '../src/harness/wait-for.ts';

/*
 * Two nodes on one PostgreSQL harvest once between them (issue 13): the holder of the harvest lock, a
 * session advisory lock, harvests; the other says so and tries for the lock again every 200 ms here.
 * PostgreSQL comes from `npm test` (scripts/test-services.sh exports QUIRE_TEST_DATABASE_URL).
 */

const PG_URL = process.env.QUIRE_TEST_DATABASE_URL ?? '';
const SKIP = PG_URL ? null : (process.env.QUIRE_TEST_POSTGRES_SKIP ?? 'QUIRE_TEST_DATABASE_URL is not set');
if (SKIP) {
  console.warn(
    `harvest election: skipped: ${SKIP} (npm test starts PostgreSQL; by hand: bash scripts/test-services.sh pnpm exec vitest run tests/integration/harvest-election.test.ts)`,
  );
}

// The session holding the harvest lock, as another session sees it in pg_locks (by the lock's key).
const HARVEST_LOCK_HOLDER = `
  SELECT l.pid FROM pg_locks l
  WHERE l.locktype = 'advisory' AND l.granted
    AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
    AND ((l.classid::bigint << 32) | l.objid::bigint) = (hashtextextended('quire:harvest', 0) & x'ffffffffffffffff'::bigint)`;
const TERMINATE = `SELECT pg_terminate_backend($1)`;

let database: ThrowawayDatabase | null = null;
let replay: ReplayServer;
const dir = mkdtempSync(join(tmpdir(), 'quire-harvest-election-'));
beforeAll(async () => {
  replay = await startReplayServer();
  if (!SKIP) database = await createThrowawayDatabase(PG_URL, 'harvest-election');
});
afterAll(async () => {
  await replay.close();
  await database?.drop();
  rmSync(dir, { recursive: true, force: true });
});

let nodeCount = 0;
const logs = new Map<RunningServer, string[]>();
async function startNode(): Promise<RunningServer> {
  const lines: string[] = [];
  const node = await startServer(
    {
      ...DEFAULT_CONFIG,
      dbPath: join(dir, `node-${++nodeCount}.db`), // not opened: everything is on PostgreSQL
      port: 0,
      harvest: true,
      harvestDelaySeconds: 0,
      oaiUrl: replay.oaiUrl,
      rssUrl: replay.rssUrl,
      categories: ['cs.AI'],
      databaseUrl: database?.url ?? '',
    },
    { harvestElectionMs: 200, log: (line) => lines.push(line) },
  );
  logs.set(node, lines);
  onTestFinished(() => (closed.has(node) ? undefined : node.close()));
  return node;
}

const closed = new Set<RunningServer>();
async function shutDown(node: RunningServer): Promise<void> {
  closed.add(node);
  await node.close();
}

const rssRequests = (): number => replay.requests.filter((r) => r.path.startsWith('/rss/')).length;

async function harvested(node: RunningServer, what: string): Promise<void> {
  await waitFor(what, () => (node.scheduler?.state.lastSuccessAt ? true : undefined), 60_000);
}

async function terminateLockHolder(): Promise<void> {
  const pool = await openPgPool(database?.url ?? '');
  try {
    const { rows } = await pool.query<{ pid: number }>(HARVEST_LOCK_HOLDER);
    expect(rows).toHaveLength(1);
    await pool.query(TERMINATE, [rows[0]!.pid]);
  } finally {
    await pool.end();
  }
}

describe.skipIf(SKIP !== null)('one harvester among nodes on one PostgreSQL', () => {
  it('elects one harvester; when it loses its lock the other takes over, and when that one stops the first does', async () => {
    replay.setDay('2026-04-15');
    const nodes = await Promise.all([startNode(), startNode()]);
    const harvesters = nodes.filter((n) => n.scheduler !== null);
    expect(harvesters).toHaveLength(1);
    const first = harvesters[0]!;
    const second = nodes.find((n) => n !== first)!;
    expect(logs.get(second)?.join('\n')).toContain('another node harvests');
    await harvested(first, 'the elected node to harvest');
    // One harvest, not one per node: one listing request, into the papers both nodes serve.
    expect(rssRequests()).toBe(1);
    const stored = await first.store.papers.count();
    expect(stored).toBeGreaterThan(0);
    expect(await second.store.papers.count()).toBe(stored);
    const status = (await (await fetch(`${second.url}/api/status`)).json()) as {
      harvest: { status: string };
    };
    expect(status.harvest.status).toBe('disabled');

    // Its lock's session ends under it (PostgreSQL restarted, a network cut): it stops, the other wins.
    await terminateLockHolder();
    await waitFor('the first harvester to stop', () => (first.scheduler === null ? true : undefined));
    expect(logs.get(first)?.join('\n')).toContain('lost the PostgreSQL harvest lock');
    await waitFor('the second node to take over', () => (second.scheduler ? true : undefined)).catch(
      (err) => {
        throw new Error(
          `${String(err)}\nfirst: ${logs.get(first)?.join('\n')}\nsecond: ${logs.get(second)?.join('\n')}`,
        );
      },
    );
    await harvested(second, 'the second node to harvest');
    // Into the same papers, from the checkpoints the first left (its harvest may add more).
    expect(await second.store.papers.count()).toBeGreaterThanOrEqual(stored);
    await waitFor('the first node to stay out', () => (first.scheduler === null ? true : undefined));

    // The harvester shuts down: its lock goes with it and the first node, retrying, harvests again.
    await shutDown(second);
    await waitFor('the first node to take over again', () => (first.scheduler ? true : undefined));
    expect(nodes.filter((n) => n.scheduler !== null)).toEqual([first]);
  });
});
