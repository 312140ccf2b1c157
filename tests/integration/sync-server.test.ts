import { expect, it } from 'vitest';
import * as Y from 'yjs';
import { SYNC_SUBPROTOCOL } from '@quire/core';
import { waitFor } from '../src/harness/wait-for.ts';
import {
  createGroup,
  startSyncTestServer,
  syncPeer,
  tokenOf,
  type SyncPeer,
} from '../src/harness/sync-harness.ts';
import { describeOnEngines } from '../src/harness/engines.ts';

const edits = (peer: SyncPeer | Y.Doc) =>
  ('doc' in peer ? peer.doc : peer).getArray<string>('edits').toArray();

async function synced(peer: SyncPeer): Promise<void> {
  await waitFor('the client to sync', () => (peer.provider.synced ? true : undefined));
}

/** One transaction per edit, so each reaches the server as its own update message. */
function edit(peer: SyncPeer, ...values: string[]): void {
  for (const value of values) peer.doc.getArray<string>('edits').push([value]);
}

/**
 * Sends `values` in `chunks`, each once the log holds the one before it: a connection hands its updates on
 * without waiting for their appends, so updates sent together may share a row, and this makes at least
 * `chunks` rows.
 */
async function editInRows(
  t: { storedDoc(groupId: string): Promise<Y.Doc> },
  groupId: string,
  peer: SyncPeer,
  values: string[],
  chunks: number,
): Promise<void> {
  const size = Math.ceil(values.length / chunks);
  for (let at = 0; at < values.length; at += size) {
    edit(peer, ...values.slice(at, at + size));
    const want = Math.min(values.length, at + size);
    await waitFor('the edits stored', async () =>
      edits(await t.storedDoc(groupId)).length >= want ? true : undefined,
    );
  }
}

async function holds(peer: SyncPeer, want: string[]): Promise<void> {
  await waitFor(`client to hold ${want.length} edits`, () =>
    want.every((v) => edits(peer).includes(v)) ? true : undefined,
  );
}

describeOnEngines('group sync over y-websocket', (engine) => {
  it('syncs edits both ways and relays presence, removing it when a client leaves', async () => {
    const { url } = await startSyncTestServer({}, engine);
    const group = await createGroup(url);
    const token = tokenOf(group, 'read-write');
    const ann = syncPeer(url, group.id, token);
    const bob = syncPeer(url, group.id, token);
    await Promise.all([synced(ann), synced(bob)]);

    edit(ann, 'from ann');
    await holds(bob, ['from ann']);
    edit(bob, 'from bob');
    await holds(ann, ['from ann', 'from bob']);

    ann.provider.awareness.setLocalStateField('user', { name: 'Ann' });
    await waitFor('bob to see ann', () =>
      bob.provider.awareness.getStates().get(ann.doc.clientID)?.user ? true : undefined,
    );
    bob.provider.awareness.setLocalStateField('user', { name: 'Bob' });
    await waitFor('ann to see bob', () =>
      ann.provider.awareness.getStates().get(bob.doc.clientID)?.user ? true : undefined,
    );

    // A hard disconnect sends no "I left"; the server removes bob's presence for the others.
    bob.drop();
    bob.destroy();
    await waitFor('ann to see bob leave', () =>
      ann.provider.awareness.getStates().has(bob.doc.clientID) ? undefined : true,
    );
  });

  it('takes the token in the subprotocol header (answering quire.v1), and still in the deprecated ?token=', async () => {
    const { url } = await startSyncTestServer({}, engine);
    const group = await createGroup(url);
    const token = tokenOf(group, 'read-write');
    const ann = syncPeer(url, group.id, token, new Y.Doc(), 'protocol');
    const old = syncPeer(url, group.id, token, new Y.Doc(), 'query');
    await Promise.all([synced(ann), synced(old)]);
    const socket = ann.provider.ws as unknown as { url: string; protocol: string };
    expect(socket.url).not.toContain(token);
    expect(socket.url).not.toContain('token=');
    // The server answers with quire.v1, never by echoing the token entry back.
    expect(socket.protocol).toBe(SYNC_SUBPROTOCOL);

    edit(ann, 'from the header client');
    await holds(old, ['from the header client']);
    edit(old, 'from the query client');
    await holds(ann, ['from the header client', 'from the query client']);
    expect([...ann.closes, ...old.closes]).toEqual([]);
  });

  it('gives a client that joins later the whole state, and keeps it across a restart', async () => {
    const t = await startSyncTestServer({}, engine);
    const group = await createGroup(t.url);
    const token = tokenOf(group, 'read-write');
    const ann = syncPeer(t.url, group.id, token);
    const bob = syncPeer(t.url, group.id, token);
    await Promise.all([synced(ann), synced(bob)]);
    const written = Array.from({ length: 40 }, (_, i) => `edit ${i}`);
    edit(ann, ...written.slice(0, 20));
    edit(bob, ...written.slice(20));
    await holds(ann, written);

    const late = syncPeer(t.url, group.id, token);
    await holds(late, written);
    ann.destroy();
    bob.destroy();
    late.destroy();

    await t.restart();
    const fresh = syncPeer(t.url, group.id, token);
    await holds(fresh, written);
    expect(edits(fresh)).toHaveLength(written.length);
  });

  it('compacts a group into one row with the same state, on demand and past the threshold', async () => {
    const t = await startSyncTestServer({ syncCompactAfterUpdates: 1_000_000 }, engine);
    const group = await createGroup(t.url);
    const token = tokenOf(group, 'read-write');
    const ann = syncPeer(t.url, group.id, token);
    await synced(ann);
    const written = Array.from({ length: 30 }, (_, i) => `edit ${i}`);
    await editInRows(t, group.id, ann, written, 5);
    const before = await t.storedRows(group.id);
    const stateBefore = Y.encodeStateVector(await t.storedDoc(group.id));

    expect(await t.server.sync.compact(group.id)).toBe(true);
    expect(await t.storedRows(group.id)).toBe(1);
    const compacted = await t.storedDoc(group.id);
    expect(Y.encodeStateVector(compacted)).toEqual(stateBefore);
    expect(edits(compacted)).toEqual(edits(ann));
    expect(before).toBeGreaterThanOrEqual(5);

    // Past the threshold the server compacts by itself, after answering.
    ann.destroy();
    await t.restart({ syncCompactAfterUpdates: 10 });
    const bob = syncPeer(t.url, group.id, token);
    await holds(bob, written);
    const more = Array.from({ length: 25 }, (_, i) => `more ${i}`);
    edit(bob, ...more);
    await waitFor('the log to be compacted', async () => {
      const doc = await t.storedDoc(group.id);
      return edits(doc).length === 55 && (await t.storedRows(group.id)) < 10 ? true : undefined;
    });
    expect(edits(await t.storedDoc(group.id))).toEqual(edits(bob));
  });

  it('compacts and unloads a group nobody is connected to, and loads it again on the next connection', async () => {
    const t = await startSyncTestServer(
      { syncIdleUnloadSeconds: 0.2, syncCompactAfterUpdates: 1_000_000 },
      engine,
    );
    const group = await createGroup(t.url);
    const token = tokenOf(group, 'read-write');
    const ann = syncPeer(t.url, group.id, token);
    await synced(ann);
    const written = Array.from({ length: 12 }, (_, i) => `edit ${i}`);
    await editInRows(t, group.id, ann, written, 3);
    expect(await t.storedRows(group.id)).toBeGreaterThanOrEqual(3);
    expect(t.server.sync.loadedGroups()).toContain(group.id);
    ann.destroy();

    await waitFor('the group to be unloaded', () =>
      t.server.sync.loadedGroups().includes(group.id) ? undefined : true,
    );
    // The group leaves the loaded list at once; its compaction commits behind it (on PostgreSQL, a few
    // round trips later).
    await waitFor('the unloaded group to be compacted', async () =>
      (await t.storedRows(group.id)) === 1 ? true : undefined,
    );

    const bob = syncPeer(t.url, group.id, token);
    await holds(bob, written);
    edit(bob, 'after reload');
    const carol = syncPeer(t.url, group.id, token);
    await holds(carol, [...written, 'after reload']);
  });
});
