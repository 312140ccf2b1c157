import { describe, expect, it } from 'vitest';
import { CLOSE_CODES } from '@quire/core';
import type { QuireConfig } from '@quire/server/config';
import { waitFor } from '../src/harness/wait-for.ts';
import {
  awarenessFrame,
  frame,
  fullStateRequest,
  MESSAGE_QUERY_AWARENESS,
  rawClient,
  servedOrClosed,
} from '../src/harness/raw-sync.ts';
import {
  createGroup,
  startSyncTestServer,
  syncPeer,
  tokenOf,
  type SyncPeer,
} from '../src/harness/sync-harness.ts';
import { describeOnEngines, type GroupEngine } from '../src/harness/engines.ts';

/** What a peer shows for a client id: the name in its presence state, or null when it shows none. */
function nameAt(peer: SyncPeer, clientId: number): string | null {
  const state = peer.provider.awareness.getStates().get(clientId) as
    { presence?: { name?: string } } | undefined;
  return state?.presence?.name ?? null;
}

async function sees(peer: SyncPeer, clientId: number, name: string | null): Promise<void> {
  await waitFor(`client ${clientId} shown as ${String(name)}`, () =>
    nameAt(peer, clientId) === name ? true : undefined,
  );
}

/** A doc edit from `from` that `to` receives: everything the server relayed to `to` before it has arrived. */
async function flushed(from: SyncPeer, to: SyncPeer, marker: string): Promise<void> {
  from.doc.getArray<string>('edits').push([marker]);
  await waitFor(`"${marker}" to arrive`, () =>
    to.doc.getArray<string>('edits').toArray().includes(marker) ? true : undefined,
  );
}

const presence = (name: string, extra: Record<string, unknown> = {}) => ({ presence: { name, ...extra } });

async function groupWithMembers(engine: GroupEngine, overrides: Partial<QuireConfig> = {}) {
  const t = await startSyncTestServer(overrides, engine);
  const group = await createGroup(t.url, 'Presence');
  const rw = tokenOf(group, 'read-write');
  const ro = tokenOf(group, 'read-only');
  const ann = syncPeer(t.url, group.id, rw);
  const carol = syncPeer(t.url, group.id, rw);
  ann.provider.awareness.setLocalStateField('presence', { name: 'Ann' });
  await sees(carol, ann.doc.clientID, 'Ann');
  return { t, group, rw, ro, ann, carol };
}

describeOnEngines('sync abuse', (engine) => {
  describe('presence (issue 10, finding 3)', () => {
    it("a connection can neither overwrite nor remove another connection's presence, nor take it when leaving", async () => {
      const { t, group, ro, ann, carol } = await groupWithMembers(engine);
      const annId = ann.doc.clientID;
      const forgerId = 900_001;
      const forger = rawClient(t.url, group.id, ro);
      await forger.opened;

      // A higher clock would win in any awareness; the server must not apply it for an id it did not get here.
      forger.ws.send(
        awarenessFrame([
          { clientId: forgerId, clock: 1, state: presence('Forger') },
          { clientId: annId, clock: 1000, state: presence('Mallory') },
        ]),
      );
      await sees(carol, forgerId, 'Forger');
      expect(nameAt(carol, annId)).toBe('Ann');

      forger.ws.send(
        awarenessFrame([
          { clientId: forgerId, clock: 2, state: presence('Forger again') },
          { clientId: annId, clock: 1001, state: null },
        ]),
      );
      await sees(carol, forgerId, 'Forger again');
      expect(nameAt(carol, annId)).toBe('Ann');

      // Leaving removes the forger's own presence, and only that.
      forger.ws.close();
      await sees(carol, forgerId, null);
      await flushed(ann, carol, 'after the forger left');
      expect(nameAt(carol, annId)).toBe('Ann');

      const dave = syncPeer(t.url, group.id, ro);
      await sees(dave, annId, 'Ann');
      expect(nameAt(dave, forgerId)).toBeNull();
    });

    it('refuses a connection announcing more client ids than the limit, relaying none of them', async () => {
      const { t, group, ro, ann, carol } = await groupWithMembers(engine, {
        syncPresenceIdsPerConnection: 4,
      });
      const crowd = Array.from({ length: 20_000 }, (_, i) => ({
        clientId: 500_000 + i,
        clock: 1,
        state: presence(`Fake ${i}`),
      }));
      const forger = rawClient(t.url, group.id, ro);
      expect(await servedOrClosed(forger, [awarenessFrame(crowd)])).toEqual(CLOSE_CODES.presenceRefused);

      await flushed(ann, carol, 'after the crowd');
      const fakes = [...carol.provider.awareness.getStates().keys()].filter(
        (id) => id >= 500_000 && id < 520_000,
      );
      expect(fakes).toEqual([]);
    });

    it('drops a presence state above the size limit, keeping the connection and its small states', async () => {
      const { t, group, ro, ann, carol } = await groupWithMembers(engine, { syncPresenceMaxBytes: 4096 });
      const sender = rawClient(t.url, group.id, ro);
      await sender.opened;
      sender.ws.send(
        awarenessFrame([
          { clientId: 700_001, clock: 1, state: presence('Huge', { blob: 'x'.repeat(64 * 1024) }) },
          { clientId: 700_002, clock: 1, state: presence('Small') },
        ]),
      );
      await sees(carol, 700_002, 'Small');
      expect(carol.provider.awareness.getStates().has(700_001)).toBe(false);
      expect(await servedOrClosed(sender, [])).toBe('served');

      const late = syncPeer(t.url, group.id, ro);
      await sees(late, ann.doc.clientID, 'Ann');
      expect(late.provider.awareness.getStates().has(700_001)).toBe(false);
    });
  });

  /** Message limits kept out of the way unless a test sets them. */
  const ROOMY: Partial<QuireConfig> = {
    syncMessagesPerSecond: 10_000,
    syncMessageBurst: 10_000,
    syncInviteMessagesPerSecond: 10_000,
    syncInviteMessageBurst: 10_000,
    syncAddressMessagesPerSecond: 10_000,
    syncAddressMessageBurst: 10_000,
    syncStateRequestsPerMinute: 10_000,
    syncStateRequestBurst: 10_000,
  };

  const queries = (n: number) => Array.from({ length: n }, () => frame(MESSAGE_QUERY_AWARENESS));

  describe('limits across connections (issue 10, finding 9)', () => {
    it('caps the live connections of one address; other addresses still connect, and a freed slot is reused', async () => {
      const t = await startSyncTestServer({ ...ROOMY, syncConnectionsPerAddress: 3 }, engine);
      const group = await createGroup(t.url);
      const rw = tokenOf(group, 'read-write');
      const first = [0, 1, 2].map(() => rawClient(t.url, group.id, rw));
      for (const client of first) expect(await servedOrClosed(client, [])).toBe('served');

      expect(await servedOrClosed(rawClient(t.url, group.id, rw), [])).toEqual(
        CLOSE_CODES.tooManyConnections,
      );
      const elsewhere = rawClient(t.url, group.id, rw, { localAddress: '127.0.0.2' });
      expect(await servedOrClosed(elsewhere, [])).toBe('served');

      first[0]?.ws.close();
      await first[0]?.closed;
      await waitFor('a connection in the freed slot', async () =>
        (await servedOrClosed(rawClient(t.url, group.id, rw), [])) === 'served' ? true : undefined,
      );
    });

    it('shares one message bucket between the connections of an invite, so reconnecting does not refill it', async () => {
      const t = await startSyncTestServer(
        {
          ...ROOMY,
          syncInviteMessagesPerSecond: 0.01,
          syncInviteMessageBurst: 30,
        },
        engine,
      );
      const group = await createGroup(t.url);
      const ro = tokenOf(group, 'read-only');
      // Each round is 12 queries and one state request: within one connection's limit, not three rounds.
      for (const round of [1, 2]) {
        expect(await servedOrClosed(rawClient(t.url, group.id, ro), queries(12)), `round ${round}`).toBe(
          'served',
        );
      }
      expect(await servedOrClosed(rawClient(t.url, group.id, ro), queries(12))).toEqual(
        CLOSE_CODES.inviteRateLimited,
      );
      // The group's other invite has its own bucket.
      expect(
        await servedOrClosed(rawClient(t.url, group.id, tokenOf(group, 'read-write')), queries(12)),
      ).toBe('served');
    });

    it('shares one message bucket between the connections of an address, across invites and groups', async () => {
      const t = await startSyncTestServer(
        {
          ...ROOMY,
          syncAddressMessagesPerSecond: 0.01,
          syncAddressMessageBurst: 30,
        },
        engine,
      );
      const one = await createGroup(t.url, 'One');
      const two = await createGroup(t.url, 'Two');
      expect(await servedOrClosed(rawClient(t.url, one.id, tokenOf(one, 'read-write')), queries(14))).toBe(
        'served',
      );
      expect(await servedOrClosed(rawClient(t.url, one.id, tokenOf(one, 'read-only')), queries(14))).toBe(
        'served',
      );
      expect(await servedOrClosed(rawClient(t.url, two.id, tokenOf(two, 'read-write')), queries(14))).toEqual(
        CLOSE_CODES.addressRateLimited,
      );
      const elsewhere = rawClient(t.url, two.id, tokenOf(two, 'read-write'), { localAddress: '127.0.0.2' });
      expect(await servedOrClosed(elsewhere, queries(14))).toBe('served');
    });
  });

  describe('full-state requests (issue 10, finding 10)', () => {
    it('throttles repeated full syncs from one address, over reconnects and within one connection', async () => {
      const t = await startSyncTestServer(
        {
          ...ROOMY,
          syncStateRequestsPerMinute: 1,
          syncStateRequestBurst: 3,
        },
        engine,
      );
      const group = await createGroup(t.url);
      const ro = tokenOf(group, 'read-only');
      for (const round of [1, 2, 3]) {
        expect(await servedOrClosed(rawClient(t.url, group.id, ro), []), `round ${round}`).toBe('served');
      }
      expect(await servedOrClosed(rawClient(t.url, group.id, ro), [])).toEqual(
        CLOSE_CODES.stateRequestsLimited,
      );

      const loop = rawClient(t.url, group.id, ro, { localAddress: '127.0.0.3' });
      const requests = [fullStateRequest(), fullStateRequest(), fullStateRequest()];
      expect(await servedOrClosed(loop, requests)).toEqual(CLOSE_CODES.stateRequestsLimited);

      const elsewhere = rawClient(t.url, group.id, ro, { localAddress: '127.0.0.2' });
      expect(await servedOrClosed(elsewhere, [])).toBe('served');
    });

    it('keeps the stock y-websocket client working under the default limits', async () => {
      const t = await startSyncTestServer({}, engine);
      const group = await createGroup(t.url);
      const rw = tokenOf(group, 'read-write');
      const peers = Array.from({ length: 6 }, () => syncPeer(t.url, group.id, rw));
      peers[0]?.doc.getArray<string>('edits').push(['hello']);
      for (const peer of peers) {
        await waitFor('every peer to sync', () =>
          peer.doc.getArray<string>('edits').toArray().includes('hello') ? true : undefined,
        );
        expect(peer.closes).toEqual([]);
      }
    });
  });
});
