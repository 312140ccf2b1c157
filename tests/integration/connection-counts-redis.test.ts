import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisBus } from '@quire/server/cluster/redis-bus';
import { RedisConnectionCounts } from '@quire/server/cluster/redis-connection-counts';
import { CLUSTER_REDIS_URL, clusterSkip } from '../src/harness/cluster-services.ts';

/*
 * The live-connection counts' scripts on a real Redis (issue 13): places per node, a dead node's dropped,
 * and a node's own count written again (what a lost release or a Redis restart leaves wrong).
 */

const SKIP = clusterSkip('connection counts on Redis', 'tests/integration/connection-counts-redis.test.ts');
const HEARTBEATS = `quire:test-node:${process.pid}:`;
let bus: RedisBus;

beforeAll(async () => {
  if (SKIP !== null) return;
  bus = await RedisBus.open(CLUSTER_REDIS_URL, { message: () => {}, reconnected: () => {}, log: () => {} });
});
afterAll(async () => {
  await bus?.close();
});

let run = 0;
/** Two live nodes counting in a namespace of their own. */
async function twoNodes(): Promise<[RedisConnectionCounts, RedisConnectionCounts, string]> {
  const namespace = `connection-counts-${process.pid}-${++run}`;
  await bus.setKey(`${HEARTBEATS}a`, 60_000);
  await bus.setKey(`${HEARTBEATS}b`, 60_000);
  return [
    new RedisConnectionCounts(bus, namespace, 'a', HEARTBEATS),
    new RedisConnectionCounts(bus, namespace, 'b', HEARTBEATS),
    namespace,
  ];
}

describe.skipIf(SKIP !== null)('live-connection counts on Redis', () => {
  it('counts both nodes’ places against one cap and frees what a node gives back', async () => {
    const [a, b] = await twoNodes();
    expect(await a.reserve('10.1.0.1', 3)).toBe(true);
    expect(await a.reserve('10.1.0.1', 3)).toBe(true);
    expect(await b.reserve('10.1.0.1', 3)).toBe(true);
    expect(await b.reserve('10.1.0.1', 3)).toBe(false);
    await a.release('10.1.0.1');
    expect(await b.reserve('10.1.0.1', 3)).toBe(true);
  });

  it('takes a node’s count as written, so a place whose release was lost is freed', async () => {
    const [a, b] = await twoNodes();
    expect(await a.reserve('10.1.0.2', 2)).toBe(true);
    expect(await a.reserve('10.1.0.2', 2)).toBe(true);
    expect(await b.reserve('10.1.0.2', 2)).toBe(false);
    // Node a's socket closed while Redis did not answer: a writes what it really holds.
    await a.set('10.1.0.2', 1);
    expect(await b.reserve('10.1.0.2', 2)).toBe(true);
    expect(await b.reserve('10.1.0.2', 2)).toBe(false);
    // Zero removes a's share altogether; b's one place stays counted.
    await a.set('10.1.0.2', 0);
    expect(await a.reserve('10.1.0.2', 2)).toBe(true);
    expect(await a.reserve('10.1.0.2', 2)).toBe(false);
  });

  it('drops the places of a node whose heartbeat key is gone', async () => {
    const [, , namespace] = await twoNodes();
    const gone = new RedisConnectionCounts(bus, namespace, 'gone', HEARTBEATS);
    await gone.set('10.1.0.4', 5);
    const live = new RedisConnectionCounts(bus, namespace, 'a', HEARTBEATS);
    expect(await live.reserve('10.1.0.4', 1)).toBe(true);
    expect(await live.reserve('10.1.0.4', 1)).toBe(false);
  });

  it('still counts after Redis forgot its scripts (a restart), sending the script again', async () => {
    const [a, b] = await twoNodes();
    expect(await a.reserve('10.1.0.5', 2)).toBe(true);
    await flushScripts();
    expect(await b.reserve('10.1.0.5', 2)).toBe(true);
    expect(await a.reserve('10.1.0.5', 2)).toBe(false);
  });
});

/** SCRIPT FLUSH, as a restarted Redis stands: no script cached, so the next run by SHA1 is refused. */
async function flushScripts(): Promise<void> {
  const url = new URL(CLUSTER_REDIS_URL);
  const socket = connect(Number(url.port), url.hostname);
  try {
    const reply = await new Promise<string>((resolve, reject) => {
      socket.once('error', reject);
      socket.once('data', (data) => resolve(data.toString()));
      socket.write('*2\r\n$6\r\nSCRIPT\r\n$5\r\nFLUSH\r\n');
    });
    expect(reply).toBe('+OK\r\n');
  } finally {
    socket.destroy();
  }
}
