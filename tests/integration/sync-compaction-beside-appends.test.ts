import * as Y from 'yjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPgGroupStores, type PgNodeStores } from '@quire/server/store/pg/open-pg-stores';
import { createThrowawayDatabase, type ThrowawayDatabase } from '@quire/server/store/pg/throwaway-database';
import { groupServiceOver } from '@quire/server/sync/group-service';
import { GroupDoc, type DocPeer } from '@quire/server/sync/group-doc';
import type { DocCluster } from '@quire/server/sync/doc-cluster';
import { CLUSTER_PG_URL, clusterSkip } from '../src/harness/cluster-services.ts';

/*
 * With other nodes, a live compaction runs beside the group's appends (group-doc.ts). Held open on real
 * PostgreSQL while another node commits and this node appends and unloads, it must leave a log that
 * still holds every edit: the stand-in cluster only holds the compaction; the log is the real one.
 */

const SKIP = clusterSkip(
  'compaction beside appends',
  'tests/integration/sync-compaction-beside-appends.test.ts',
);

let db: ThrowawayDatabase;
let nodeA: PgNodeStores;
let nodeB: PgNodeStores;

function edit(text: string): Uint8Array {
  const doc = new Y.Doc();
  doc.getArray<string>('edits').push([text]);
  return Y.encodeStateAsUpdate(doc);
}

class Writer implements DocPeer {
  send(): void {}
  close(): void {}
}

describe.skipIf(SKIP !== null)('a live compaction beside the appends (PostgreSQL)', () => {
  beforeAll(async () => {
    db = await createThrowawayDatabase(CLUSTER_PG_URL, 'compaction-beside-appends');
    nodeA = await openPgGroupStores(db.url);
    nodeB = await openPgGroupStores(db.url);
  });
  afterAll(async () => {
    await nodeA.close();
    await nodeB.close();
    await db.drop();
  });

  it('keeps every edit when another node commits before and during it and this node appends and unloads', async () => {
    const groupId = (await groupServiceOver(nodeA).createGroup('Compaction group')).group.id;
    let release = (): void => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let entered = (): void => {};
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const cluster: DocCluster = {
      nodeId: 'A',
      gapGraceMs: 60_000,
      join: () => Promise.resolve(),
      leave: () => {},
      publishUpdate: () => {},
      publishCompacted: () => {},
      publishPresence: () => {},
      updatesAfter: (id, seq) => nodeA.sharedUpdates.after(id, seq),
      compactThrough: async (id, through, merged) => {
        entered();
        await held;
        return nodeA.sharedUpdates.compactThrough(id, through, merged);
      },
    };
    const doc = new GroupDoc(
      groupId,
      nodeA.groupUpdates,
      { compactAfterUpdates: 1000, idleUnloadMs: 60_000, log: () => {}, cluster },
      () => {},
    );
    expect(await doc.loaded).toBe(true);
    const writer = new Writer();
    doc.join(writer);
    await doc.store(writer, edit('a1'));
    await doc.store(writer, edit('a2'));
    // Committed by the other node and never relayed to this one.
    await nodeB.sharedUpdates.append(groupId, edit('b1'));
    const compacted = doc.compact();
    await inside;
    await doc.store(writer, edit('a3'));
    await nodeB.sharedUpdates.append(groupId, edit('b2'));
    const unloaded = doc.unload();
    release();
    await compacted;
    await unloaded;
    const rebuilt = new Y.Doc();
    for (const row of await nodeA.groupUpdates.load(groupId)) Y.applyUpdate(rebuilt, row.data);
    expect(rebuilt.getArray<string>('edits').toArray().sort()).toEqual(['a1', 'a2', 'a3', 'b1', 'b2']);
  });
});
