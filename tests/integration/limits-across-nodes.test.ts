import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { DEFAULT_CONFIG, type QuireConfig } from '@quire/server/config';
import { startServer, type RunningServer } from '@quire/server/server';
import { createThrowawayDatabase, type ThrowawayDatabase } from '@quire/server/store/pg/throwaway-database';
import { CLOSE_CODES } from '@quire/core';
import { frame, MESSAGE_QUERY_AWARENESS, rawClient, servedOrClosed } from '../src/harness/raw-sync.ts';
import { createGroup, tokenOf } from '../src/harness/sync-harness.ts';
import {
  CLUSTER_PG_URL,
  CLUSTER_REDIS_URL,
  clusterSkip,
  privateRedis,
  REDIS_SERVER,
} from '../src/harness/cluster-services.ts';

/*
 * Limits hold across nodes (issue 13): two nodes on one PostgreSQL and one Redis count one address's
 * group creations and sync joins together, so two nodes do not allow twice the allowance. Real services
 * from `npm test` (scripts/test-services.sh).
 */

const PG_URL = CLUSTER_PG_URL;
const REDIS_URL = CLUSTER_REDIS_URL;
const SKIP = clusterSkip('limits across nodes', 'tests/integration/limits-across-nodes.test.ts');

const dir = mkdtempSync(join(tmpdir(), 'quire-limits-nodes-'));
// A database for each test: the limits' Redis keys are named after it, so each test has its own allowance.
const databases: ThrowawayDatabase[] = [];
let database: ThrowawayDatabase | null = null;
beforeEach(async () => {
  database = await createThrowawayDatabase(PG_URL, 'limits-nodes');
  databases.push(database);
});
afterAll(async () => {
  for (const db of databases) await db.drop();
  rmSync(dir, { recursive: true, force: true });
});

let nodeCount = 0;
async function startNode(
  more: Partial<QuireConfig>,
  log: (line: string) => void = () => {},
): Promise<RunningServer> {
  const node = await startServer(
    {
      ...DEFAULT_CONFIG,
      dbPath: join(dir, `node-${++nodeCount}.db`),
      port: 0,
      harvest: false,
      databaseUrl: database?.url ?? '',
      redisUrl: REDIS_URL,
      clusterHeartbeatSeconds: 0.5,
      ...more,
    },
    { log },
  );
  onTestFinished(() => node.close());
  return node;
}

async function createStatus(url: string): Promise<number> {
  const res = await fetch(`${url}/api/groups`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Limited' }),
  });
  await res.body?.cancel();
  return res.status;
}

/** 'joined' once the server greets the socket (its sync step 1), else the close it got instead. */
async function joinAs(url: string, groupId: string, token: string): Promise<string> {
  const client = rawClient(url, groupId, token);
  onTestFinished(() => client.ws.close());
  const first = await client.next(() => true);
  if (first) return 'joined';
  const closed = await client.closed;
  return `${closed.code} ${closed.reason}`;
}

describe.skipIf(SKIP !== null)('rate limits across two nodes (PostgreSQL + Redis)', () => {
  it('counts one address’s group creations on both nodes against one allowance', async () => {
    // A different allowance from other files' (the bucket's key is the address and the limit's name).
    const limit = { groupCreateBurst: 3, groupCreatePerHour: 1 };
    const [a, b] = await Promise.all([startNode(limit), startNode(limit)]);
    expect([await createStatus(a.url), await createStatus(b.url), await createStatus(a.url)]).toEqual([
      201, 201, 201,
    ]);
    // Each node alone has allowed at most two: only the shared count refuses these.
    expect(await createStatus(b.url)).toBe(429);
    expect(await createStatus(a.url)).toBe(429);
  });

  it('counts one address’s sync joins on both nodes against one allowance', async () => {
    const limits = { syncStateRequestBurst: 3, syncStateRequestsPerMinute: 1, groupCreateBurst: 100 };
    const [a, b] = await Promise.all([startNode(limits), startNode(limits)]);
    const group = await createGroup(a.url);
    const token = tokenOf(group, 'read-write');
    expect(await joinAs(a.url, group.id, token)).toBe('joined');
    expect(await joinAs(b.url, group.id, token)).toBe('joined');
    expect(await joinAs(a.url, group.id, token)).toBe('joined');
    // Node B has seen one join from this address; the allowance of three is spent across both.
    expect(await joinAs(b.url, group.id, token)).toMatch(
      /^4529 rate limited: too many requests for the whole group/,
    );
  });

  it('counts one invite’s sync messages on both nodes against one allowance', async () => {
    const limits = { syncInviteMessagesPerSecond: 0.01, syncInviteMessageBurst: 30, groupCreateBurst: 100 };
    const [a, b] = await Promise.all([startNode(limits), startNode(limits)]);
    const group = await createGroup(a.url);
    const ro = tokenOf(group, 'read-only');
    // Each round is 12 presence queries and one state request: 13 messages on the invite.
    const queries = Array.from({ length: 12 }, () => frame(MESSAGE_QUERY_AWARENESS));
    expect(await servedOrClosed(rawClient(a.url, group.id, ro), queries)).toBe('served');
    await a.sync.reportSharedCounts();
    expect(await servedOrClosed(rawClient(b.url, group.id, ro), queries)).toBe('served');
    await b.sync.reportSharedCounts();
    // Node B alone has counted 13 of the 30 and would serve this round too; both nodes' 26 leave 4.
    expect(await servedOrClosed(rawClient(b.url, group.id, ro), queries)).toEqual(
      CLOSE_CODES.inviteRateLimited,
    );
  });

  it('caps one address’s live connections over both nodes, and frees a stopped node’s places', async () => {
    const limits = { syncConnectionsPerAddress: 3, groupCreateBurst: 100 };
    const [a, b] = await Promise.all([startNode(limits), startNode(limits)]);
    const group = await createGroup(a.url);
    const token = tokenOf(group, 'read-write');
    expect(await joinAs(a.url, group.id, token)).toBe('joined');
    expect(await joinAs(a.url, group.id, token)).toBe('joined');
    expect(await joinAs(b.url, group.id, token)).toBe('joined');
    // Node B holds one of the three: only the count over both nodes refuses this one.
    const { code, reason } = CLOSE_CODES.tooManyConnections;
    expect(await joinAs(b.url, group.id, token)).toBe(`${code} ${reason}`);
    // A stopped node's places are free at once (its heartbeat key goes with it), whatever its sockets did.
    await a.close();
    expect(await joinAs(b.url, group.id, token)).toBe('joined');
  });

  it.skipIf(!REDIS_SERVER)(
    'falls back to each node’s own count while Redis is down: limited, never locked out',
    async () => {
      const redis = await privateRedis();
      const logged: string[] = [];
      const limit = { groupCreateBurst: 2, groupCreatePerHour: 1, redisUrl: redis.url };
      const a = await startNode(limit, (line) => logged.push(line));
      const group = await createGroup(a.url);
      await redis.stop();
      // Redis spent one of the two; the node's own bucket, untouched so far, allows its two, then refuses.
      expect([await createStatus(a.url), await createStatus(a.url), await createStatus(a.url)]).toEqual([
        201, 201, 429,
      ]);
      expect(logged.filter((l) => l.includes('Redis cannot count group creations'))).toHaveLength(1);
      // Members still join while Redis is away.
      expect(await joinAs(a.url, group.id, tokenOf(group, 'read-write'))).toBe('joined');
    },
  );
});
