import { describe, expect, it } from 'vitest';
import type { StoredUpdate } from '../store/update-log-store.ts';
import { CATCH_UP_ORIGIN, ClusterRelay, RemoteNodePeer, type RelayedDoc } from './cluster-relay.ts';
import type { ClusterMember, DocCluster } from './doc-cluster.ts';

/** A document that records what it was given; updates are opaque bytes here, [0] meaning "refuse me". */
class FakeDoc implements RelayedDoc {
  readonly groupId = 'g1';
  isReady = true;
  applied: { bytes: number[]; origin: string }[] = [];
  released: string[] = [];
  applyRemoteUpdate(update: Uint8Array, origin: RemoteNodePeer | typeof CATCH_UP_ORIGIN): boolean {
    if (update[0] === 0) return false;
    this.applied.push({ bytes: [...update], origin: origin === CATCH_UP_ORIGIN ? 'log' : origin.nodeId });
    return true;
  }
  applyRemotePresence(): void {}
  releasePresence(peer: RemoteNodePeer): void {
    this.released.push(peer.nodeId);
  }
  localPresence(): Uint8Array | null {
    return null;
  }
  markCompacted(): void {}
  log(): void {}
}

/** A cluster whose log answers `rows`, and which says when the relay read it. */
class FakeCluster implements DocCluster {
  readonly nodeId = 'me';
  readonly gapGraceMs = 1;
  rows: StoredUpdate[] = [];
  published: number[] = [];
  reads: number[] = [];
  private onRead: (() => void) | null = null;
  join(_member: ClusterMember): Promise<void> {
    return Promise.resolve();
  }
  leave(): void {}
  publishUpdate(_g: string, seq: number): void {
    this.published.push(seq);
  }
  publishCompacted(): void {}
  publishPresence(): void {}
  updatesAfter(_g: string, seq: number): Promise<StoredUpdate[]> {
    this.reads.push(seq);
    this.onRead?.();
    return Promise.resolve(this.rows.filter((r) => r.id > seq));
  }
  compactThrough(): Promise<number | null> {
    return Promise.resolve(null);
  }
  /** Resolves at the next read of the log. */
  nextRead(): Promise<void> {
    return new Promise((resolve) => (this.onRead = resolve));
  }
}

const row = (id: number): StoredUpdate => ({ id, data: new Uint8Array([id]) });
const update = (origin: string, seq: number) => ({
  kind: 'update' as const,
  origin,
  seq,
  update: new Uint8Array([seq]),
});

function settled(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

describe('ClusterRelay', () => {
  it('applies other nodes’ updates once each, holds those that come while loading, ignores its own', () => {
    const doc = new FakeDoc();
    const relay = new ClusterRelay(doc, new FakeCluster());
    relay.receive(update('b', 3)); // while loading
    relay.loaded(2);
    relay.receive(update('b', 3));
    relay.receive(update('c', 4));
    relay.receive(update('me', 5));
    expect(doc.applied).toEqual([
      { bytes: [3], origin: 'b' },
      { bytes: [4], origin: 'c' },
    ]);
    expect(relay.heldThrough()).toBe(4);
  });

  it('reads the log for a hole nothing filled within the grace time, and re-applies every row it reads', async () => {
    const doc = new FakeDoc();
    const cluster = new FakeCluster();
    const relay = new ClusterRelay(doc, cluster);
    relay.loaded(1);
    cluster.rows = [row(2), row(3)];
    const read = cluster.nextRead();
    relay.receive(update('b', 3)); // 2 never comes through Redis
    await read;
    await settled();
    expect(cluster.reads).toEqual([1]);
    expect(doc.applied.map((a) => `${a.bytes[0]} from ${a.origin}`)).toEqual([
      '3 from b',
      '2 from log',
      '3 from log',
    ]);
    expect(relay.heldThrough()).toBe(3);
  });

  it('reads an update Yjs refused back from the log instead of marking it held', async () => {
    const doc = new FakeDoc();
    const cluster = new FakeCluster();
    const relay = new ClusterRelay(doc, cluster);
    relay.loaded(0);
    cluster.rows = [row(1)];
    const read = cluster.nextRead();
    relay.receive({ kind: 'update', origin: 'b', seq: 1, update: new Uint8Array([0]) });
    await read;
    await settled();
    expect(doc.applied).toEqual([{ bytes: [1], origin: 'log' }]);
    expect(relay.heldThrough()).toBe(1);
  });

  it('publishes what this node stored and drops a dead node’s presence', () => {
    const doc = new FakeDoc();
    const cluster = new FakeCluster();
    const relay = new ClusterRelay(doc, cluster);
    relay.loaded(0);
    relay.stored(1, new Uint8Array([1]));
    relay.receive({ kind: 'presence', origin: 'b', update: new Uint8Array([0]) });
    expect(cluster.published).toEqual([1]);
    expect(relay.remoteNodes()).toEqual(['b']);
    relay.forgetNode('b');
    expect(doc.released).toEqual(['b']);
    expect(relay.remoteNodes()).toEqual([]);
  });
});
