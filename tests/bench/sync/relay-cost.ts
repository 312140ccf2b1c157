/**
 * `pnpm bench sync --relay-cost`: one node's CPU per update of a group, in this process, without sockets,
 * PostgreSQL or Redis: an update another node committed (its Redis message decoded, handed to the group's
 * relay, sent to the node's clients, applied), and an update of the node's own client (appended to a log in
 * memory, sent to the others, applied). The cluster bench's CPU seconds move with the machine's load (a
 * starved node batches more and spends less per edit); this measures the node's own work per update at a
 * fixed shape, repeated, so that two versions compare on a busy machine.
 */
import { loadavg } from 'node:os';
import * as Y from 'yjs';
import {
  decodeClusterMessage,
  encodeClusterMessage,
  groupChannel,
} from '@quire/server/cluster/cluster-messages';
import type { ClusterMember, DocCluster } from '@quire/server/sync/doc-cluster';
import { GroupDoc, type DocPeer } from '@quire/server/sync/group-doc';
import type { UpdateLog } from '@quire/server/store/update-log-store';
import { round } from './measure-load.ts';

const ROUNDS = 7;
const WARM = 6000;
const MEASURED = 6000;
/** The node's clients of the group: 10 clients over 3 nodes. */
const LOCAL_CLIENTS = 3;

/** The bench's edits ([client, n, time] pushed on one array) by 10 writers, in an order each could send. */
function edits(n: number): Uint8Array[] {
  const writers = Array.from({ length: 10 }, () => new Y.Doc());
  const out: Uint8Array[] = [];
  for (const w of writers) {
    w.on('update', (update: Uint8Array, origin: unknown) => {
      if (origin === 'peer') return;
      out.push(update);
      for (const other of writers) if (other !== w) Y.applyUpdate(other, update, 'peer');
    });
  }
  for (let i = 0; i < n; i++) writers[i % 10]!.getArray('edits').push([[i % 10, i, i * 0.2]]);
  return out;
}

class Client implements DocPeer {
  bytes = 0;
  send(message: Uint8Array): void {
    this.bytes += message.byteLength;
  }
  close(): void {}
}

function memoryLog(): UpdateLog {
  let id = 0;
  return {
    load: () => Promise.resolve([]),
    count: () => Promise.resolve(id),
    append: () => Promise.resolve(++id),
    replaceThrough: () => Promise.resolve(),
  };
}

async function oneRound(updates: Uint8Array[]): Promise<{ remoteUs: number; localUs: number }> {
  let member: ClusterMember | null = null;
  const cluster: DocCluster = {
    nodeId: 'here',
    gapGraceMs: 1e9,
    join: (m) => {
      member = m;
      return Promise.resolve();
    },
    leave: () => {},
    publishUpdate: () => {},
    publishCompacted: () => {},
    publishPresence: () => {},
    updatesAfter: () => Promise.resolve([]),
    compactThrough: () => Promise.resolve(null),
  };
  const options = { compactAfterUpdates: 1e9, idleUnloadMs: 1e9, cluster, log: () => {} };
  const doc = new GroupDoc('g', memoryLog(), options, () => {});
  await doc.loaded;
  const clients = Array.from({ length: LOCAL_CLIENTS }, () => new Client());
  for (const c of clients) doc.join(c);
  const relay = member as ClusterMember | null;
  if (!relay) throw new Error('the group never joined the cluster');
  const channel = groupChannel('g');
  let seq = 0;
  const fromOtherNode = (update: Uint8Array): void => {
    const data = encodeClusterMessage({ kind: 'update', origin: 'there', groupId: 'g', seq: ++seq, update });
    const message = decodeClusterMessage(channel, data);
    if (message.kind === 'update') relay.receive({ ...message });
  };
  for (const u of updates.slice(0, WARM)) fromOtherNode(u);
  doc.syncStep1();
  const remote = updates.slice(WARM, WARM + MEASURED);
  let t = process.cpuUsage();
  for (const u of remote) fromOtherNode(u);
  doc.syncStep1(); // whatever is still waiting to be applied, applied inside the measure
  let used = process.cpuUsage(t);
  const remoteUs = (used.user + used.system) / MEASURED;
  // Then the node's own client sends the next ones, each awaited as a connection's would be in turn.
  const local = updates.slice(WARM + MEASURED);
  const sender = clients[0]!;
  t = process.cpuUsage();
  for (const u of local) await doc.store(sender, u);
  doc.syncStep1();
  used = process.cpuUsage(t);
  const localUs = (used.user + used.system) / local.length;
  await doc.unload();
  return { remoteUs, localUs };
}

export async function runRelayCostBench(): Promise<Record<string, unknown>> {
  console.log(
    `Relay cost: one node, one group, ${LOCAL_CLIENTS} clients of it on the node; ${MEASURED} updates from another ` +
      `node after ${WARM}, then ${MEASURED} of one of its clients; ${ROUNDS} rounds, CPU µs per update (min, median).`,
  );
  const updates = edits(WARM + 2 * MEASURED);
  const remote: number[] = [];
  const local: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const { remoteUs, localUs } = await oneRound(updates);
    remote.push(remoteUs);
    local.push(localUs);
  }
  const stats = (xs: number[]) => {
    const s = xs.slice().sort((a, b) => a - b);
    return { minUs: round(s[0] ?? Number.NaN), medianUs: round(s[Math.floor(s.length / 2)] ?? Number.NaN) };
  };
  const figures = { fromOtherNode: stats(remote), fromOwnClient: stats(local) };
  console.log(
    `relay cost: from another node ${figures.fromOtherNode.minUs} µs min, ${figures.fromOtherNode.medianUs} µs median; ` +
      `from the node's own client ${figures.fromOwnClient.minUs} µs min, ${figures.fromOwnClient.medianUs} µs median ` +
      `(load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')})`,
  );
  return { relayCost: figures };
}
