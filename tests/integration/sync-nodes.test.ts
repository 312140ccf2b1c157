import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as Y from 'yjs';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { RedisBus } from '@quire/server/cluster/redis-bus';
import { groupChannel } from '@quire/server/cluster/cluster-messages';
import { DEFAULT_CONFIG, type QuireConfig } from '@quire/server/config';
import { startServer, type RunningServer } from '@quire/server/server';
import { openPgGroupStores } from '@quire/server/store/pg/open-pg-stores';
import { createThrowawayDatabase, type ThrowawayDatabase } from '@quire/server/store/pg/throwaway-database';
import { awarenessFrame, rawClient } from '../src/harness/raw-sync.ts';
import { spawnServer, type ServerProcess } from '../src/harness/spawn-server.ts';
import { createGroup, syncPeer, tokenOf, type SyncPeer } from '../src/harness/sync-harness.ts';
import { waitFor } from '../src/harness/wait-for.ts';
import {
  CLUSTER_PG_URL,
  CLUSTER_REDIS_URL,
  clusterSkip,
  privateRedis,
  REDIS_SERVER,
} from '../src/harness/cluster-services.ts';

/*
 * Three Quire nodes sharing one PostgreSQL (papers and groups) and one Redis (fan-out), as issue 13 runs
 * them. Real services from `npm test`
 * (scripts/test-services.sh exports QUIRE_TEST_DATABASE_URL and QUIRE_TEST_REDIS_URL); the Redis-restart
 * test starts a redis-server of its own, so restarting it disturbs no other test file.
 */

const PG_URL = CLUSTER_PG_URL;
const REDIS_URL = CLUSTER_REDIS_URL;
const SKIP = clusterSkip('sync across nodes', 'tests/integration/sync-nodes.test.ts');

// Bursts far above what people type: the limits are not what these tests are about.
const UNLIMITED = {
  syncMessagesPerSecond: 1_000_000,
  syncMessageBurst: 1_000_000,
  syncInviteMessagesPerSecond: 1_000_000,
  syncInviteMessageBurst: 1_000_000,
  syncAddressMessagesPerSecond: 1_000_000,
  syncAddressMessageBurst: 1_000_000,
};
const UNLIMITED_ENV = {
  QUIRE_SYNC_RATE: '1000000',
  QUIRE_SYNC_BURST: '1000000',
  QUIRE_SYNC_INVITE_RATE: '1000000',
  QUIRE_SYNC_INVITE_BURST: '1000000',
  QUIRE_SYNC_ADDRESS_RATE: '1000000',
  QUIRE_SYNC_ADDRESS_BURST: '1000000',
};

let database: ThrowawayDatabase | null = null;
const dir = mkdtempSync(join(tmpdir(), 'quire-sync-nodes-'));
beforeAll(async () => {
  if (!SKIP) database = await createThrowawayDatabase(PG_URL, 'sync-nodes');
});
afterAll(async () => {
  await database?.drop();
  rmSync(dir, { recursive: true, force: true });
});

function databaseUrl(): string {
  if (!database) throw new Error('the throwaway PostgreSQL database was not created');
  return database.url;
}

let nodeCount = 0;
/** A node in this process, on port 0, over a SQLite file of its own and the shared services. */
async function startNode(redisUrl: string, more: Partial<QuireConfig> = {}): Promise<RunningServer> {
  const node = await startServer({
    ...DEFAULT_CONFIG,
    dbPath: join(dir, `node-${++nodeCount}.db`),
    port: 0,
    harvest: false,
    databaseUrl: databaseUrl(),
    redisUrl,
    clusterHeartbeatSeconds: 0.5,
    ...UNLIMITED,
    ...more,
  });
  onTestFinished(() => node.close());
  return node;
}

const edits = (peer: SyncPeer): string[] => peer.doc.getArray<string>('edits').toArray();
const push = (peer: SyncPeer, text: string): void => peer.doc.getArray<string>('edits').push([text]);

async function synced(peers: SyncPeer[]): Promise<void> {
  await waitFor('every client to sync', () => (peers.every((p) => p.provider.synced) ? true : undefined));
}

/** Waits until every peer holds exactly `expected` (in any order) and all hold the same array. */
async function converged(peers: SyncPeer[], expected: readonly string[], what: string): Promise<void> {
  const want = [...expected].sort().join('\n');
  await waitFor(what, () => {
    const first = edits(peers[0]!).join('\n');
    const same = peers.every((p) => edits(p).join('\n') === first);
    return same && [...edits(peers[0]!)].sort().join('\n') === want ? true : undefined;
  });
}

/** The group as PostgreSQL holds it, rebuilt from its rows alone. */
async function storedEdits(groupId: string): Promise<string[]> {
  const stores = await openPgGroupStores(databaseUrl());
  try {
    const doc = new Y.Doc();
    for (const row of await stores.groupUpdates.load(groupId)) Y.applyUpdate(doc, row.data);
    return doc.getArray<string>('edits').toArray();
  } finally {
    await stores.close();
  }
}

describe.skipIf(SKIP !== null)('group sync across three nodes (PostgreSQL + Redis)', () => {
  it('lets clients on three nodes see each other’s edits and presence, the stock client’s too', async () => {
    // Compacting every few rows, so the nodes compact one group while the others append to it.
    const nodes = await Promise.all(
      [1, 2, 3].map(() => startNode(REDIS_URL, { syncCompactAfterUpdates: 8 })),
    );
    const [a, b, c] = nodes as [RunningServer, RunningServer, RunningServer];
    const group = await createGroup(a.url);
    const token = tokenOf(group, 'read-write');
    // The app's way (token as a subprotocol) on each node, and the stock client's query token on one.
    const peers = [
      syncPeer(a.url, group.id, token),
      syncPeer(b.url, group.id, token),
      syncPeer(c.url, group.id, token),
      syncPeer(c.url, group.id, token, new Y.Doc(), 'query'),
    ];
    await synced(peers);
    const written: string[] = [];
    for (let round = 0; round < 10; round++) {
      peers.forEach((peer, i) => {
        const text = `p${i}-${round}`;
        push(peer, text);
        written.push(text);
      });
    }
    await converged(peers, written, 'every client to hold every edit');
    expect([...(await storedEdits(group.id))].sort()).toEqual([...written].sort());
    // Through Redis, not only by reading the log back.
    for (const node of nodes) expect(node.cluster?.stats().updatesReceived).toBeGreaterThan(0);

    peers[0]!.provider.awareness.setLocalStateField('user', { name: 'Ann on node A' });
    const annId = peers[0]!.doc.clientID;
    await waitFor('node C’s clients to see Ann’s presence', () =>
      peers.slice(2).every((p) => p.provider.awareness.getStates().get(annId)) ? true : undefined,
    );
    // A connection on node B can no more overwrite a client of node A's presence than one on A could.
    const spoofer = rawClient(b.url, group.id, token);
    await spoofer.opened;
    const spoofClock = (peers[0]!.provider.awareness.meta.get(annId)?.clock ?? 0) + 10;
    spoofer.ws.send(
      awarenessFrame([{ clientId: annId, clock: spoofClock, state: { user: { name: 'Eve' } } }]),
    );
    // Its own presence, sent after: once the others see it, the spoof before it was handled too.
    spoofer.ws.send(
      awarenessFrame([{ clientId: 424242, clock: 1, state: { user: { name: 'Eve herself' } } }]),
    );
    await waitFor('node C’s clients to see the spoofer’s own presence', () =>
      peers.slice(2).every((p) => p.provider.awareness.getStates().get(424242)) ? true : undefined,
    );
    for (const peer of peers.slice(1)) {
      expect(peer.provider.awareness.getStates().get(annId)).toEqual({ user: { name: 'Ann on node A' } });
    }
    // A client that joins later, on a node that had not loaded the group, is told who is here too.
    const late = syncPeer(b.url, group.id, token);
    await waitFor('a late client on node B to see Ann', () =>
      late.provider.awareness.getStates().get(annId) ? true : undefined,
    );
  });

  it('drops malformed Redis messages, counts them, and keeps fanning out', async () => {
    const [a, b] = await Promise.all([startNode(REDIS_URL), startNode(REDIS_URL)]);
    const group = await createGroup(a.url);
    const token = tokenOf(group, 'read-write');
    const peers = [syncPeer(a.url, group.id, token), syncPeer(b.url, group.id, token)];
    await synced(peers);
    const bus = await RedisBus.open(REDIS_URL, { message: () => {}, reconnected: () => {}, log: () => {} });
    onTestFinished(() => bus.close());
    const channel = groupChannel(group.id);
    for (const junk of [[0xff, 0xff, 0xff], [1], [1, 0, 1, 0x61, 0]]) {
      await bus.publish(channel, new Uint8Array(junk));
    }
    push(peers[0]!, 'after the junk');
    await converged(peers, ['after the junk'], 'the edit after the junk to reach node B');
    expect(b.cluster?.stats().malformed).toBeGreaterThanOrEqual(3);
  });

  it('catches a node up from PostgreSQL when a committed update never came through Redis', async () => {
    const [a, b] = await Promise.all([startNode(REDIS_URL), startNode(REDIS_URL)]);
    const group = await createGroup(a.url);
    const token = tokenOf(group, 'read-write');
    const peers = [syncPeer(a.url, group.id, token), syncPeer(b.url, group.id, token)];
    await synced(peers);
    // A node that commits and dies before publishing: the row is in the log, no message says so.
    const silent = await openPgGroupStores(databaseUrl());
    onTestFinished(() => silent.close());
    const doc = new Y.Doc();
    doc.getArray<string>('edits').push(['committed, never published']);
    await silent.groupUpdates.append(group.id, Y.encodeStateAsUpdate(doc));
    await converged(peers, ['committed, never published'], 'both nodes to read the row from the log');
  });

  it('loses nothing when a node is killed mid-burst; its clients reconnect to another and converge', async () => {
    const env = {
      ...UNLIMITED_ENV,
      QUIRE_DATABASE_URL: databaseUrl(),
      QUIRE_REDIS_URL: REDIS_URL,
      QUIRE_CLUSTER_HEARTBEAT_SECONDS: '0.5',
    };
    const nodes: ServerProcess[] = await Promise.all(
      [1, 2, 3].map((n) => spawnServer(join(dir, `killed-${n}.db`), env)),
    );
    const [a, b, c] = nodes as [ServerProcess, ServerProcess, ServerProcess];
    const group = await createGroup(a.url);
    const token = tokenOf(group, 'read-write');
    const onA = syncPeer(a.url, group.id, token);
    const onB = syncPeer(b.url, group.id, token);
    const onC = [syncPeer(c.url, group.id, token), syncPeer(c.url, group.id, token)];
    const leaving = syncPeer(c.url, group.id, token); // its presence must go with node C
    const peers = [onA, onB, ...onC];
    await synced([...peers, leaving]);
    leaving.provider.awareness.setLocalStateField('user', { name: 'on node C' });
    const leavingId = leaving.doc.clientID;
    await waitFor('node A’s client to see the client on node C', () =>
      onA.provider.awareness.getStates().get(leavingId) ? true : undefined,
    );

    // Clients on A and C type as fast as their sockets take it until C dies.
    let burst = true;
    let sent = 0;
    const typing = (async () => {
      while (burst && sent < 100_000) {
        push(sent % 2 ? onA : onC[0]!, `edit ${sent++}`);
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    await waitFor('node B’s client to see part of the burst', () =>
      edits(onB).length >= 200 ? true : undefined,
    );
    await c.kill9();
    burst = false;
    await typing;
    leaving.destroy();
    // Node C is gone: what the clients of A and B hold now is all they can have received from it.
    const received = new Set([...edits(onA), ...edits(onB)]);

    // A load balancer would send them elsewhere: node C's clients reconnect to node B.
    for (const peer of onC) peer.provider.serverUrl = `${b.url.replace(/^http/, 'ws')}/yjs`;
    push(onC[1]!, 'typed while node C was down');
    await waitFor('node C’s clients to be back', () =>
      onC.every((p) => p.provider.wsconnected) ? true : undefined,
    );
    // Every edit any client made, on whichever node: all of them, everywhere.
    const all = [...new Set(peers.flatMap(edits))];
    await converged(peers, all, 'every client to converge after the kill');
    const stored = new Set(await storedEdits(group.id));
    expect([...received].filter((e) => !stored.has(e))).toEqual([]);
    expect(all.length).toBeGreaterThanOrEqual(received.size);
    expect(stored.has('typed while node C was down')).toBe(true);

    await waitFor('the dead node’s client to leave node A’s presence', () =>
      onA.provider.awareness.getStates().has(leavingId) ? undefined : true,
    );
  }, 120_000); // three child processes to start, beside the rest of the suite

  it.skipIf(!REDIS_SERVER)(
    'loses nothing when Redis restarts during edits (catch-up from PostgreSQL)',
    async () => {
      const redis = await privateRedis();
      const nodes = await Promise.all([1, 2, 3].map(() => startNode(redis.url)));
      const [a, b, c] = nodes as [RunningServer, RunningServer, RunningServer];
      const group = await createGroup(a.url);
      const token = tokenOf(group, 'read-write');
      const peers = nodes.map((n) => syncPeer(n.url, group.id, token));
      await synced(peers);
      const written: string[] = [];
      const type = (n: number, label: string) => {
        for (let i = 0; i < n; i++) {
          const peer = peers[i % peers.length]!;
          const text = `${label} ${i}`;
          push(peer, text);
          written.push(text);
        }
      };
      type(30, 'before');
      await redis.stop();
      type(30, 'while Redis is down');
      // Without Redis the nodes still converge: each compares its groups with the log's head.
      await converged(peers, written, 'the edits made without Redis to reach every node');
      await redis.start();
      await waitFor('every node to see Redis back', () =>
        [a, b, c].every((n) => (n.cluster?.stats().reconnects ?? 0) >= 1) ? true : undefined,
      );
      type(30, 'after');
      await converged(peers, written, 'every edit to reach every node');
      expect([...(await storedEdits(group.id))].sort()).toEqual([...written].sort());
    },
  );
});
