import * as encoding from 'lib0/encoding';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import * as Y from 'yjs';
import { CLOSE_CODES, WS_MESSAGE_TOO_BIG } from '@quire/core';
import type { CreatedInviteDto, RevokedInviteDto } from '@quire/core';
import { waitFor } from '../src/harness/wait-for.ts';
import {
  createGroup,
  rawSocket,
  startSyncTestServer,
  syncPeer,
  tokenOf,
  type SyncPeer,
} from '../src/harness/sync-harness.ts';
import { describeOnEngines, type GroupEngine } from '../src/harness/engines.ts';

const MAX_FRAME = 64 * 1024;

/** y-websocket framing, written here from the protocol description rather than taken from the server. */
function frame(...parts: (number | Uint8Array)[]): Uint8Array {
  const encoder = encoding.createEncoder();
  for (const part of parts) {
    if (typeof part === 'number') encoding.writeVarUint(encoder, part);
    else encoding.writeVarUint8Array(encoder, part);
  }
  return encoding.toUint8Array(encoder);
}
const SYNC = 0;
const AWARENESS = 1;
const QUERY_AWARENESS = 3;
const STEP2 = 1;
const UPDATE = 2;

/** Random-looking bytes from a fixed seed, so a failure replays. */
function noise(length: number, seed: number): Uint8Array {
  let x = seed;
  return Uint8Array.from({ length }, () => (x = (x * 1103515245 + 12345) >>> 0) >>> 24);
}

function realUpdate(text: string): Uint8Array {
  const doc = new Y.Doc();
  doc.getArray<string>('edits').push([text]);
  return Y.encodeStateAsUpdate(doc);
}

const edits = (doc: Y.Doc) => doc.getArray<string>('edits').toArray();

async function synced(peer: SyncPeer): Promise<void> {
  await waitFor('the client to sync', () => (peer.provider.synced ? true : undefined));
}

/** Another group with two live clients: after each refusal it must still sync. */
async function bystanders(url: string) {
  const group = await createGroup(url, 'Bystanders');
  const token = tokenOf(group, 'read-write');
  const a = syncPeer(url, group.id, token);
  const b = syncPeer(url, group.id, token);
  await Promise.all([synced(a), synced(b)]);
  let n = 0;
  return async function stillServing(): Promise<void> {
    const value = `still serving ${n++}`;
    a.doc.getArray<string>('edits').push([value]);
    await waitFor('the other group to keep syncing', () => (edits(b.doc).includes(value) ? true : undefined));
  };
}

async function serverWithGroup(engine: GroupEngine) {
  const t = await startSyncTestServer(
    {
      syncMaxFrameBytes: MAX_FRAME,
      syncMessagesPerSecond: 20,
      syncMessageBurst: 40,
    },
    engine,
  );
  const group = await createGroup(t.url, 'Target');
  const rw = tokenOf(group, 'read-write');
  const writer = syncPeer(t.url, group.id, rw);
  await synced(writer);
  writer.doc.getArray<string>('edits').push(['genuine']);
  await waitFor('the genuine edit stored', async () =>
    (await t.storedRows(group.id)) > 0 ? true : undefined,
  );
  return { t, group, rw, stillServing: await bystanders(t.url) };
}

describeOnEngines('the sync endpoint', (engine) => {
  describe('the sync endpoint refuses', () => {
    it('connections without a valid token, to an unknown group, and other paths', async () => {
      const { t, group, stillServing } = await serverWithGroup(engine);
      const other = await createGroup(t.url, 'Other');
      const cases: [string, string, string | null, number][] = [
        ['no token', group.id, null, CLOSE_CODES.unauthorized.code],
        ['a malformed token', group.id, 'abc', CLOSE_CODES.unauthorized.code],
        ['a well-formed unknown token', group.id, 'A'.repeat(43), CLOSE_CODES.unauthorized.code],
        ["another group's token", group.id, tokenOf(other, 'read-write'), CLOSE_CODES.unauthorized.code],
        ['an unknown group', 'no-such-group', tokenOf(group, 'read-write'), CLOSE_CODES.unknownGroup.code],
      ];
      for (const [what, groupId, token, code] of cases) {
        const socket = rawSocket(t.url, groupId, token);
        // A client that ignores the refusal and writes anyway changes nothing.
        socket.ws.on('open', () => socket.ws.send(frame(SYNC, UPDATE, realUpdate(`intruder: ${what}`))));
        const closed = await socket.closed;
        expect(closed.code, what).toBe(code);
        expect(closed.reason.length, what).toBeGreaterThan(0);
      }
      // The deprecated query form is refused with the same codes.
      const queried = rawSocket(t.url, group.id, tokenOf(other, 'read-write'), 'query');
      expect((await queried.closed).code).toBe(CLOSE_CODES.unauthorized.code);
      expect(edits(await t.storedDoc(group.id))).toEqual(['genuine']);

      // The y-websocket provider reads 44xx as final and stops reconnecting.
      const provider = syncPeer(t.url, group.id, null);
      const closed = new Promise((resolve) => provider.provider.once('closed', resolve));
      expect(await closed).toMatchObject({ code: CLOSE_CODES.unauthorized.code });
      expect(provider.closes).toHaveLength(1);

      const stray = new WebSocket(`${t.url.replace(/^http/, 'ws')}/elsewhere/${group.id}`);
      const status = await new Promise<number | undefined>((resolve) => {
        stray.on('unexpected-response', (_req, res) => resolve(res.statusCode));
        stray.on('error', () => resolve(undefined));
      });
      expect(status).toBe(404);
      await stillServing();
    });

    it('a revoked invite, closing the live connections that used it', async () => {
      const { t, group, rw, stillServing } = await serverWithGroup(engine);
      const res = await fetch(`${t.url}/api/groups/${group.id}/invites`, {
        method: 'POST',
        headers: { authorization: `Bearer ${rw}`, 'content-type': 'application/json' },
        body: JSON.stringify({ role: 'read-write' }),
      });
      const invite = (await res.json()) as CreatedInviteDto;
      const guest = syncPeer(t.url, group.id, invite.token);
      await synced(guest);

      const revoke = await fetch(`${t.url}/api/groups/${group.id}/invites/${invite.id}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${rw}` },
      });
      expect(((await revoke.json()) as RevokedInviteDto).closedConnections).toBe(1);
      await waitFor('the guest to be closed', () => (guest.closes.length > 0 ? true : undefined));
      expect(guest.closes[0]?.code).toBe(CLOSE_CODES.revoked.code);

      const again = rawSocket(t.url, group.id, invite.token);
      again.ws.on('open', () => again.ws.send(frame(SYNC, UPDATE, realUpdate('after revocation'))));
      expect((await again.closed).code).toBe(CLOSE_CODES.revoked.code);
      expect((await rawSocket(t.url, group.id, invite.token, 'query').closed).code).toBe(
        CLOSE_CODES.revoked.code,
      );
      expect(edits(await t.storedDoc(group.id))).toEqual(['genuine']);
      await stillServing();
    });

    it('writes from a read-only invite, which may still read and show presence', async () => {
      const { t, group, rw, stillServing } = await serverWithGroup(engine);
      const writer = syncPeer(t.url, group.id, rw);
      const reader = syncPeer(t.url, group.id, tokenOf(group, 'read-only'));
      await waitFor('the reader to receive the group', () =>
        edits(reader.doc).includes('genuine') ? true : undefined,
      );
      reader.provider.awareness.setLocalStateField('user', { name: 'Reader' });
      await waitFor('the writer to see the reader', () =>
        writer.provider.awareness.getStates().get(reader.doc.clientID)?.user ? true : undefined,
      );

      reader.doc.getArray<string>('edits').push(['read-only write']);
      await waitFor('the reader to be closed', () => (reader.closes.length > 0 ? true : undefined));
      expect(reader.closes[0]?.code).toBe(CLOSE_CODES.readOnly.code);

      const raw = rawSocket(t.url, group.id, tokenOf(group, 'read-only'));
      await raw.opened;
      raw.ws.send(frame(SYNC, STEP2, realUpdate('read-only step 2')));
      expect((await raw.closed).code).toBe(CLOSE_CODES.readOnly.code);

      const fresh = syncPeer(t.url, group.id, rw);
      await synced(fresh);
      expect(edits(fresh.doc)).toEqual(['genuine']);
      expect(edits(await t.storedDoc(group.id))).toEqual(['genuine']);
      await stillServing();
    });

    it('oversize frames, with our code below twice the limit and ws 1009 above it', async () => {
      const { t, group, rw, stillServing } = await serverWithGroup(engine);
      const big = new Y.Doc();
      big.getArray<string>('edits').push(['x'.repeat(MAX_FRAME)]);
      const socket = rawSocket(t.url, group.id, rw);
      await socket.opened;
      socket.ws.send(frame(SYNC, UPDATE, Y.encodeStateAsUpdate(big)));
      expect(await socket.closed).toEqual(CLOSE_CODES.frameTooLarge);

      const huge = rawSocket(t.url, group.id, rw);
      await huge.opened;
      huge.ws.send(new Uint8Array(2 * MAX_FRAME + 1));
      expect((await huge.closed).code).toBe(WS_MESSAGE_TOO_BIG);
      expect(edits(await t.storedDoc(group.id))).toEqual(['genuine']);
      await stillServing();
    });

    it('a message flood past the rate limit', async () => {
      const { t, group, rw, stillServing } = await serverWithGroup(engine);
      const socket = rawSocket(t.url, group.id, rw);
      await socket.opened;
      for (let i = 0; i < 200; i++) socket.ws.send(frame(QUERY_AWARENESS));
      expect(await socket.closed).toEqual(CLOSE_CODES.rateLimited);
      await stillServing();
    });

    it('hostile frames: noise, truncated messages, garbage updates and presence, text', async () => {
      const { t, group, rw, stillServing } = await serverWithGroup(engine);
      const update = realUpdate('truncated');
      const hostile: [string, Uint8Array | string][] = [
        ['noise', noise(512, 7)],
        ['noise framed as an update', frame(SYNC, UPDATE, noise(256, 11))],
        ['an unknown message type', frame(9)],
        ['the auth message, which only servers send', frame(2, 0)],
        ['a sync message cut after its type', frame(SYNC)],
        ['a length prefix longer than the frame', frame(SYNC, UPDATE, 500)],
        ['a truncated update', frame(SYNC, UPDATE, update.subarray(0, update.length - 3))],
        ['trailing bytes', Uint8Array.from([...frame(SYNC, UPDATE, update), 1, 2, 3])],
        ['an unknown sync step', frame(SYNC, 7, update)],
        ['garbage presence', frame(AWARENESS, Uint8Array.from([1, 5, 1, 3, 0x7b, 0x7b, 0x7b]))],
        ['a text frame', 'hello'],
      ];
      for (const [what, payload] of hostile) {
        const socket = rawSocket(t.url, group.id, rw);
        await socket.opened;
        socket.ws.send(payload);
        expect((await socket.closed).code, what).toBe(CLOSE_CODES.badMessage.code);
      }
      expect(await t.storedRows(group.id)).toBe(1);
      expect(edits(await t.storedDoc(group.id))).toEqual(['genuine']);
      await stillServing();
    });
  });

  describe('the sync endpoint with its default limits', () => {
    it("accepts an offline client's whole state of several MiB in one frame", async () => {
      const t = await startSyncTestServer({}, engine);
      const group = await createGroup(t.url);
      const token = tokenOf(group, 'read-write');
      const offline = new Y.Doc();
      const notes = offline.getArray<string>('edits');
      for (let i = 0; i < 3000; i++) notes.push([`${i} ${'note text '.repeat(120)}`]);
      expect(Y.encodeStateAsUpdate(offline).length).toBeGreaterThan(3 * 1024 * 1024);

      const ann = syncPeer(t.url, group.id, token, offline);
      const bob = syncPeer(t.url, group.id, token);
      await waitFor('bob to get the whole state', () => (edits(bob.doc).length === 3000 ? true : undefined));
      expect(ann.closes).toEqual([]);
    });

    it('a reader that stops reading, once its backlog passes the limit; it resyncs on reconnect', async () => {
      const t = await startSyncTestServer(
        {
          syncMaxBufferedBytes: 256 * 1024,
          syncMessagesPerSecond: 100_000,
          syncMessageBurst: 100_000,
        },
        engine,
      );
      const stillServing = await bystanders(t.url);
      const group = await createGroup(t.url, 'Slow reader');
      const token = tokenOf(group, 'read-write');
      const writer = syncPeer(t.url, group.id, token);
      const reader = rawSocket(t.url, group.id, token);
      await Promise.all([synced(writer), reader.opened]);
      // Stop reading at the TCP level: what the server sends piles up in its buffer for this socket.
      const tcp = (reader.ws as unknown as { _socket: { pause(): void; resume(): void } })._socket;
      tcp.pause();
      const chunk = 'x'.repeat(100 * 1024);
      for (let i = 0; i < 300; i++) {
        writer.doc.getArray<string>('edits').push([`${i} ${chunk}`]);
        if (i % 20 === 19) await new Promise((resolve) => setImmediate(resolve));
      }
      await waitFor('every edit stored', async () =>
        edits(await t.storedDoc(group.id)).length === 300 ? true : undefined,
      );
      tcp.resume();
      const closed = await reader.closed;
      expect(closed.code).toBe(CLOSE_CODES.tooSlow.code);
      expect(writer.closes).toEqual([]);
      // A fresh connection gets the whole group in one exchange.
      const again = syncPeer(t.url, group.id, token);
      await waitFor('the reader to resync', () => (edits(again.doc).length === 300 ? true : undefined));
      await stillServing();
    });
  });
});
