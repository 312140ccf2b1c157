import * as decoding from 'lib0/decoding';
import * as Y from 'yjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../store/open-store.ts';
import { groupServiceOver } from './group-service.ts';
import type { GroupDoc } from './group-doc.ts';
import { loadedGroupDoc, RecordingPeer } from './group-doc-fixture.ts';
import type { StoredUpdate, UpdateLog } from '../store/update-log-store.ts';
import type { ClusterMember, DocCluster } from './doc-cluster.ts';

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

const loadedDoc = (updates: UpdateLog = store.groupUpdates, cluster?: DocCluster): Promise<GroupDoc> =>
  loadedGroupDoc(groupId, updates, { logged, docs }, cluster);

function anEdit(text: string): Uint8Array {
  const doc = new Y.Doc();
  doc.getArray<string>('edits').push([text]);
  return Y.encodeStateAsUpdate(doc);
}

describe('GroupDoc', () => {
  it('appends an update to the log before applying and broadcasting it; a failed append changes nothing', async () => {
    const doc = await loadedDoc();
    const [writer, watcher] = [new Peer(), new Peer()];
    doc.join(writer);
    doc.join(watcher);

    store.db.pragma('query_only = ON'); // the real database refusing writes, like a full disk
    await expect(doc.store(writer, anEdit('lost'))).rejects.toThrow();
    expect(watcher.sent).toEqual([]);
    expect(await store.groupUpdates.count(groupId)).toBe(0);

    store.db.pragma('query_only = OFF');
    await doc.store(writer, anEdit('kept'));
    expect(await store.groupUpdates.count(groupId)).toBe(1);
    expect(watcher.sent).toHaveLength(1);
    expect(writer.sent).toEqual([]); // not echoed to its sender
  });

  it('answers requests for everything from one encoding until an update changes the group', async () => {
    const doc = await loadedDoc();
    const writer = new Peer();
    doc.join(writer);
    await doc.store(writer, anEdit('first'));
    const nothingKnown = Y.encodeStateVector(new Y.Doc());
    const whole = doc.syncStep2(nothingKnown);
    expect(doc.syncStep2(nothingKnown)).toBe(whole);

    await doc.store(writer, anEdit('second'));
    const after = doc.syncStep2(nothingKnown);
    expect(after).not.toBe(whole);
    const reader = new Y.Doc();
    const message = decoding.createDecoder(after);
    decoding.readVarUint(message); // message type
    decoding.readVarUint(message); // sync step
    Y.applyUpdate(reader, decoding.readVarUint8Array(message));
    expect(reader.getArray('edits').toArray().sort()).toEqual(['first', 'second']);
    // A client that has part of the group still gets only the rest, encoded for it.
    const partial = doc.syncStep2(Y.encodeStateVector(reader));
    expect(partial.length).toBeLessThan(after.length);
  });

  it('loads around a stored row Yjs cannot read, and compaction drops it', async () => {
    await store.groupUpdates.append(groupId, anEdit('before'));
    await store.groupUpdates.append(groupId, Uint8Array.from([1, 2, 3, 250, 250, 250]));
    await store.groupUpdates.append(groupId, anEdit('after'));
    const doc = await loadedDoc();
    expect(logged.join('\n')).toContain('skipped stored update');
    const peer = new Peer();
    doc.join(peer);
    expect(await doc.compact()).toBe(true);
    const rows = await store.groupUpdates.load(groupId);
    expect(rows).toHaveLength(1);
    const check = new Y.Doc();
    Y.applyUpdate(check, rows[0]?.data ?? new Uint8Array());
    expect(check.getArray('edits').toArray().sort()).toEqual(['after', 'before']);
  });

  it('a compaction replaces only the rows the document holds: a row appended beside it stays', async () => {
    const doc = await loadedDoc();
    const writer = new Peer();
    doc.join(writer);
    await doc.store(writer, anEdit('one'));
    await doc.store(writer, anEdit('two'));
    // Another writer of the same log (a second node, say) appends a row this document never applied.
    await store.groupUpdates.append(groupId, anEdit('beside'));
    expect(await doc.compact()).toBe(true);
    const check = new Y.Doc();
    for (const row of await store.groupUpdates.load(groupId)) Y.applyUpdate(check, row.data);
    expect(check.getArray('edits').toArray().sort()).toEqual(['beside', 'one', 'two']);
    expect(await store.groupUpdates.count(groupId)).toBe(2);
  });

  it('appends the updates that arrive while an append is out as one row, each applied with its sender', async () => {
    // The first append is held until released, as a slow database round trip would hold it.
    let release = (): void => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let started = (): void => {};
    const firstAppendOut = new Promise<void>((resolve) => (started = resolve));
    let appends = 0;
    const log = store.groupUpdates;
    const slow: UpdateLog = {
      load: (id) => log.load(id),
      count: (id) => log.count(id),
      replaceThrough: (id, through, merged) => log.replaceThrough(id, through, merged),
      append: async (id, update) => {
        if (++appends === 1) {
          started();
          await held;
        }
        return log.append(id, update);
      },
    };
    const doc = await loadedDoc(slow);
    const [a, b, c] = [new Peer(), new Peer(), new Peer()];
    for (const p of [a, b, c]) doc.join(p);
    const first = doc.store(a, anEdit('a1'));
    await firstAppendOut;
    const rest = [doc.store(b, anEdit('b1')), doc.store(c, anEdit('c1')), doc.store(a, anEdit('a2'))];
    release();
    await Promise.all([first, ...rest]);
    expect(appends).toBe(2);
    const rows = await log.load(groupId);
    expect(rows).toHaveLength(2);
    const check = new Y.Doc();
    Y.applyUpdate(check, rows[1]!.data);
    expect(check.getArray('edits').toArray().sort()).toEqual(['a2', 'b1', 'c1']);
    // Each peer was sent the others' updates and none of its own.
    expect([a.sent.length, b.sent.length, c.sent.length]).toEqual([2, 3, 3]);
  });

  it('with other nodes, appends go on while a compaction is out, and nothing is lost', async () => {
    // One node of a cluster over the SQLite log, whose compaction is held until released, as a slow
    // read, merge and insert on PostgreSQL would hold it.
    const log = store.groupUpdates;
    let release = (): void => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let compactions = 0;
    const cluster: DocCluster = {
      nodeId: 'me',
      gapGraceMs: 60_000,
      join: (_member: ClusterMember) => Promise.resolve(),
      leave: () => {},
      publishUpdate: () => {},
      publishCompacted: () => {},
      publishPresence: () => {},
      updatesAfter: async (id, seq): Promise<StoredUpdate[]> =>
        (await log.load(id)).filter((r) => r.id > seq),
      compactThrough: async (id, through, merged) => {
        compactions++;
        await held;
        await log.replaceThrough(id, through, merged);
        return Math.max(...(await log.load(id)).map((r) => r.id));
      },
    };
    const doc = await loadedDoc(log, cluster);
    const writer = new Peer();
    const watcher = new Peer();
    doc.join(writer);
    doc.join(watcher);
    await doc.store(writer, anEdit('one'));
    await doc.store(writer, anEdit('two'));
    const compacted = doc.compact();
    // Stored, applied and relayed while the compaction waits (held in the chain, this never resolved).
    await doc.store(writer, anEdit('three'));
    expect(watcher.sent).toHaveLength(3);
    expect(compactions).toBe(1);
    release();
    expect(await compacted).toBe(true);
    const check = new Y.Doc();
    for (const row of await log.load(groupId)) Y.applyUpdate(check, row.data);
    expect(check.getArray('edits').toArray().sort()).toEqual(['one', 'three', 'two']);
    // The merged row and the one appended beside the compaction.
    expect(await log.count(groupId)).toBe(2);
  });
});
