import * as decoding from 'lib0/decoding';
import * as Y from 'yjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../store/open-store.ts';
import type { StoredUpdate } from '../store/update-log-store.ts';
import { groupServiceOver } from './group-service.ts';
import type { GroupDoc } from './group-doc.ts';
import { loadedGroupDoc, RecordingPeer } from './group-doc-fixture.ts';
import type { ClusterMember, DocCluster } from './doc-cluster.ts';
import { RAW_RELAY_MAX_BYTES } from './deferred-apply.ts';

/*
 * Committed updates reach a node's clients before its document applies them (deferred-apply.ts): what a
 * client is sent, and what a joining client or a compaction reads, must still be every committed update.
 */

let store: Store;
let groupId: string;
const logged: string[] = [];
const docs: GroupDoc[] = [];

beforeEach(async () => {
  store = openStore(':memory:');
  groupId = (await groupServiceOver(store).createGroup('G')).group.id;
  logged.length = 0;
});
afterEach(async () => {
  for (const doc of docs.splice(0)) await doc.unload();
  store.close();
});

const Peer = RecordingPeer;

/** One node of a cluster over the SQLite log; `member` is its document's relay, to hand messages to. */
class OneNodeCluster implements DocCluster {
  readonly nodeId = 'me';
  readonly gapGraceMs = 60_000;
  member: ClusterMember | null = null;
  reads = 0;
  join(member: ClusterMember): Promise<void> {
    this.member = member;
    return Promise.resolve();
  }
  leave(): void {}
  publishUpdate(): void {}
  publishCompacted(): void {}
  publishPresence(): void {}
  async updatesAfter(id: string, seq: number): Promise<StoredUpdate[]> {
    this.reads++;
    return (await store.groupUpdates.load(id)).filter((r) => r.id > seq);
  }
  async compactThrough(id: string, through: number, merged: Uint8Array): Promise<number | null> {
    await store.groupUpdates.replaceThrough(id, through, merged);
    return Math.max(...(await store.groupUpdates.load(id)).map((r) => r.id));
  }
  /** Another node committed `update` as the log's next row and published it. */
  async fromOtherNode(update: Uint8Array): Promise<void> {
    const seq = await store.groupUpdates.append(groupId, update);
    this.member?.receive({ kind: 'update', origin: 'other', seq, update });
  }
}

const loadedDoc = (cluster?: DocCluster): Promise<GroupDoc> =>
  loadedGroupDoc(groupId, store.groupUpdates, { logged, docs }, cluster);

/** Yjs updates of one writer, each pushing one item onto the shared array. */
function writer(): { doc: Y.Doc; edit(text: string): Uint8Array } {
  const doc = new Y.Doc();
  return {
    doc,
    edit(text: string) {
      const before = Y.encodeStateVector(doc);
      doc.getArray<string>('edits').push([text]);
      return Y.encodeStateAsUpdate(doc, before);
    },
  };
}

/** The update a sync message carries (y-websocket's framing: type, step, bytes). */
function payload(message: Uint8Array): Uint8Array {
  const decoder = decoding.createDecoder(message);
  decoding.readVarUint(decoder);
  decoding.readVarUint(decoder);
  return decoding.readVarUint8Array(decoder);
}

function edits(updates: Uint8Array[]): string[] {
  const check = new Y.Doc();
  for (const update of updates) Y.applyUpdate(check, update);
  return check.getArray<string>('edits').toArray().sort();
}

const nothingKnown = Y.encodeStateVector(new Y.Doc());

describe('GroupDoc relays committed updates before it applies them', () => {
  it('sends another node’s updates to its clients as they came, and a joining client gets them all', async () => {
    const cluster = new OneNodeCluster();
    const doc = await loadedDoc(cluster);
    const watcher = new Peer();
    doc.join(watcher);
    const w = writer();
    const sent = [w.edit('one'), w.edit('two'), w.edit('three')];
    for (const update of sent) await cluster.fromOtherNode(update);
    expect(watcher.sent.map(payload)).toEqual(sent);
    // A client joining now asks for everything; no timer has had to run for its answer to hold them.
    expect(edits([payload(doc.syncStep2(nothingKnown))])).toEqual(['one', 'three', 'two']);
  });

  it('sends this node’s clients’ updates past their sender once stored, and compacts every one of them', async () => {
    const doc = await loadedDoc();
    const [a, b] = [new Peer(), new Peer()];
    doc.join(a);
    doc.join(b);
    const w = writer();
    await doc.store(a, w.edit('one'));
    await doc.store(a, w.edit('two'));
    expect(a.sent).toEqual([]);
    expect(edits(b.sent.map(payload))).toEqual(['one', 'two']);
    expect(await doc.compact()).toBe(true);
    const rows = await store.groupUpdates.load(groupId);
    expect(rows).toHaveLength(1);
    expect(edits(rows.map((r) => r.data))).toEqual(['one', 'two']);
  });

  it('relays a large update as what it added to the document, not as it came', async () => {
    const cluster = new OneNodeCluster();
    const doc = await loadedDoc(cluster);
    const watcher = new Peer();
    doc.join(watcher);
    const w = writer();
    await cluster.fromOtherNode(w.edit('x'.repeat(2 * RAW_RELAY_MAX_BYTES)));
    w.edit('small');
    // A client's whole state again, as a sync step 2 after a reconnect sends it: one new edit in it.
    const whole = Y.encodeStateAsUpdate(w.doc);
    expect(whole.byteLength).toBeGreaterThan(RAW_RELAY_MAX_BYTES);
    await cluster.fromOtherNode(whole);
    expect(watcher.sent).toHaveLength(2);
    const added = payload(watcher.sent[1]!);
    expect(added.byteLength).toBeLessThan(RAW_RELAY_MAX_BYTES);
    expect(edits([payload(watcher.sent[0]!), added])).toContain('small');
  });

  it('sends no client an update Yjs cannot read, and reads that row from the log instead', async () => {
    const cluster = new OneNodeCluster();
    const doc = await loadedDoc(cluster);
    const watcher = new Peer();
    doc.join(watcher);
    const good = writer().edit('kept');
    const seq = await store.groupUpdates.append(groupId, good);
    const caughtUp = watcher.nextMessage();
    // What came through Redis for that row is not a Yjs update.
    cluster.member?.receive({ kind: 'update', origin: 'other', seq, update: Uint8Array.from([1, 250, 250]) });
    expect(logged.join('\n')).toContain('could not apply an update from another node');
    await caughtUp;
    expect(cluster.reads).toBe(1);
    expect(watcher.sent.map(payload).map((u) => edits([u]))).toEqual([['kept']]);
  });
});
