import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as Y from 'yjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteCalendarFeedStore } from './calendar-feeds.ts';
import { SqliteGroupStore } from './group-store.ts';
import type { InviteRow } from './invite-store.ts';
import { SqliteInviteStore } from './invite-store.ts';
import { openDatabase } from './open-database.ts';
import { openPgGroupStores, type PgGroupStores } from './pg/open-pg-stores.ts';
import { migratePg, pgSchemaVersion, PG_MIGRATIONS } from './pg/pg-migrations.ts';
import { openPgPool } from './pg/pg-pool.ts';
import { postgresForTests } from './pg/postgres-for-tests.ts';
import { SqliteUpdateLog } from './update-log-store.ts';

/*
 * One contract for the group stores, run against SQLite and PostgreSQL. The PostgreSQL half needs a server:
 * `npm test` starts a throwaway one (scripts/test-services.sh) and exports QUIRE_TEST_DATABASE_URL; this
 * file works in a database of its own, dropped at the end, so files can run in parallel on one server.
 */

type GroupStores = Omit<PgGroupStores, 'close'>;

interface Engine {
  name: string;
  /** Why this engine's tests are skipped, or null. */
  skip: string | null;
  open(): Promise<{ stores: GroupStores; close(): Promise<void> }>;
}

const postgres = postgresForTests('group-stores contract');
beforeAll(() => postgres.create());
afterAll(() => postgres.drop());

const ENGINES: Engine[] = [
  {
    name: 'SQLite',
    skip: null,
    open: () => {
      const dir = mkdtempSync(join(tmpdir(), 'quire-contract-'));
      const db = openDatabase(join(dir, 'quire.db'));
      const stores: GroupStores = {
        groups: new SqliteGroupStore(db),
        invites: new SqliteInviteStore(db),
        groupUpdates: new SqliteUpdateLog(db),
        calendarFeeds: new SqliteCalendarFeedStore(db),
      };
      return Promise.resolve({
        stores,
        close: () => {
          db.close();
          rmSync(dir, { recursive: true, force: true });
          return Promise.resolve();
        },
      });
    },
  },
  {
    name: 'PostgreSQL',
    skip: postgres.skip,
    open: async () => {
      const opened = await openPgGroupStores(postgres.url());
      return { stores: opened, close: () => opened.close() };
    },
  },
];

const hash = (secret: string): Buffer => createHash('sha256').update(secret).digest();
const invite = (role: InviteRow['role'], at: string): InviteRow => ({
  id: randomUUID(),
  role,
  tokenHash: hash(randomUUID()),
  createdAt: at,
  invitedBy: null,
});

function anEdit(text: string): Uint8Array {
  const doc = new Y.Doc();
  doc.getArray<string>('edits').push([text]);
  return Y.encodeStateAsUpdate(doc);
}

/** The edits a set of rows adds up to, in document order. */
function editsOf(rows: readonly { data: Uint8Array }[]): string[] {
  const doc = new Y.Doc();
  for (const row of rows) Y.applyUpdate(doc, row.data);
  return doc.getArray<string>('edits').toArray().sort();
}

describe.each(ENGINES)('group stores on $name', (engine) => {
  describe.skipIf(engine.skip !== null)('contract', () => {
    let stores: GroupStores;
    let opened: Awaited<ReturnType<Engine['open']>> | null = null;
    beforeAll(async () => {
      opened = await engine.open();
      stores = opened.stores;
    });
    afterAll(async () => {
      await opened?.close();
    });

    async function aGroup(name = 'Reading group'): Promise<string> {
      const id = randomUUID();
      await stores.groups.create({ id, name, createdAt: '2026-12-01T10:00:00.000Z' }, []);
      return id;
    }

    it('stores a group with its first invites in one step and finds both again', async () => {
      const id = randomUUID();
      const first = invite('read-write', '2026-12-01T10:00:00.000Z');
      const second = invite('read-only', '2026-12-01T10:00:01.000Z');
      await stores.groups.create({ id, name: 'Agents', createdAt: '2026-12-01T10:00:00.000Z' }, [
        first,
        second,
      ]);

      expect(await stores.groups.get(id)).toEqual({
        id,
        name: 'Agents',
        createdAt: '2026-12-01T10:00:00.000Z',
      });
      expect(await stores.groups.get(randomUUID())).toBeNull();
      expect((await stores.invites.list(id)).map((i) => [i.id, i.role, i.revokedAt])).toEqual([
        [first.id, 'read-write', null],
        [second.id, 'read-only', null],
      ]);
      expect(await stores.invites.byHash(second.tokenHash)).toEqual({
        id: second.id,
        groupId: id,
        role: 'read-only',
        createdAt: second.createdAt,
        revokedAt: null,
        invitedBy: null,
      });
    });

    it('keeps who made an invite, as given, through every way of reading it back', async () => {
      const groupId = randomUUID();
      const first = { ...invite('read-write', '2026-12-01T10:00:00.000Z'), invitedBy: 'Ana' };
      await stores.groups.create({ id: groupId, name: 'Agents', createdAt: first.createdAt }, [first]);
      const later = { ...invite('read-only', '2026-12-02T10:00:00.000Z'), invitedBy: 'Zoë Ñúñez 李' };
      const nameless = invite('read-only', '2026-12-03T10:00:00.000Z');
      await stores.invites.add(groupId, later);
      await stores.invites.add(groupId, nameless);

      expect((await stores.invites.byHash(first.tokenHash))?.invitedBy).toBe('Ana');
      expect((await stores.invites.get(groupId, later.id))?.invitedBy).toBe('Zoë Ñúñez 李');
      expect((await stores.invites.list(groupId)).map((i) => i.invitedBy)).toEqual([
        'Ana',
        'Zoë Ñúñez 李',
        null,
      ]);
      expect((await stores.invites.revoke(groupId, later.id, '2026-12-04T00:00:00.000Z'))?.invitedBy).toBe(
        'Zoë Ñúñez 李',
      );
    });

    it('writes no group when one of its invites is refused (a secret already in use)', async () => {
      const taken = invite('read-write', '2026-12-01T10:00:00.000Z');
      const owner = randomUUID();
      await stores.groups.create({ id: owner, name: 'First', createdAt: '2026-12-01T10:00:00.000Z' }, [
        taken,
      ]);
      const id = randomUUID();
      const clash = { ...invite('read-only', '2026-12-01T10:00:00.000Z'), tokenHash: taken.tokenHash };
      await expect(
        stores.groups.create({ id, name: 'Second', createdAt: '2026-12-01T10:00:00.000Z' }, [
          invite('read-write', '2026-12-01T10:00:00.000Z'),
          clash,
        ]),
      ).rejects.toThrow();
      expect(await stores.groups.get(id)).toBeNull();
      expect(await stores.invites.list(id)).toEqual([]);
    });

    it('refuses a second group under an id already taken', async () => {
      const id = await aGroup();
      await expect(stores.groups.create({ id, name: 'Twin', createdAt: 'x' }, [])).rejects.toThrow();
      expect((await stores.groups.get(id))?.name).toBe('Reading group');
    });

    it('adds, finds and revokes invites; a second revoke keeps the first time', async () => {
      const groupId = await aGroup();
      const later = invite('read-only', '2026-12-02T00:00:00.000Z');
      const earlier = invite('read-write', '2026-12-01T00:00:00.000Z');
      await stores.invites.add(groupId, later);
      await stores.invites.add(groupId, earlier);
      expect((await stores.invites.list(groupId)).map((i) => i.id)).toEqual([earlier.id, later.id]);
      expect((await stores.invites.get(groupId, later.id))?.role).toBe('read-only');
      expect(await stores.invites.get(await aGroup(), later.id)).toBeNull();

      const revoked = await stores.invites.revoke(groupId, later.id, '2026-12-03T00:00:00.000Z');
      expect(revoked?.revokedAt).toBe('2026-12-03T00:00:00.000Z');
      const again = await stores.invites.revoke(groupId, later.id, '2026-12-04T00:00:00.000Z');
      expect(again?.revokedAt).toBe('2026-12-03T00:00:00.000Z');
      expect(await stores.invites.revoke(groupId, randomUUID(), '2026-12-04T00:00:00.000Z')).toBeNull();
      expect((await stores.invites.byHash(later.tokenHash))?.revokedAt).toBe('2026-12-03T00:00:00.000Z');
      expect(await stores.invites.byHash(hash('never issued'))).toBeNull();
    });

    it('refuses an invite for a group that does not exist', async () => {
      await expect(stores.invites.add(randomUUID(), invite('read-write', 'x'))).rejects.toThrow();
    });

    it('adds, finds, lists and revokes calendar feeds', async () => {
      const groupId = await aGroup();
      const made = invite('read-write', '2026-12-01T00:00:00.000Z');
      await stores.invites.add(groupId, made);
      const feed = { id: randomUUID(), inviteId: made.id, tokenHash: hash(randomUUID()), createdAt: 'a' };
      const other = { id: randomUUID(), inviteId: made.id, tokenHash: hash(randomUUID()), createdAt: 'b' };
      await stores.calendarFeeds.add(groupId, other);
      await stores.calendarFeeds.add(groupId, feed);
      expect(await stores.calendarFeeds.byHash(feed.tokenHash)).toEqual({
        id: feed.id,
        groupId,
        inviteId: made.id,
        createdAt: 'a',
        revokedAt: null,
      });
      expect((await stores.calendarFeeds.list(groupId)).map((f) => f.id)).toEqual([feed.id, other.id]);
      expect((await stores.calendarFeeds.revoke(groupId, feed.id, 'then'))?.revokedAt).toBe('then');
      expect((await stores.calendarFeeds.revoke(groupId, feed.id, 'later'))?.revokedAt).toBe('then');
      expect(await stores.calendarFeeds.revoke(groupId, randomUUID(), 'then')).toBeNull();
      expect(await stores.calendarFeeds.byHash(hash('never issued'))).toBeNull();
      await expect(stores.calendarFeeds.add(randomUUID(), { ...feed, id: randomUUID() })).rejects.toThrow();
    });

    it('keeps each group its own log of updates, byte for byte, in the order they were appended', async () => {
      const [a, b] = [await aGroup(), await aGroup()];
      const updates = ['one', 'two', 'three'].map(anEdit);
      const ids: number[] = [];
      for (const u of updates) {
        ids.push(await stores.groupUpdates.append(a, u));
        await stores.groupUpdates.append(b, anEdit('elsewhere'));
      }
      expect([...ids].sort((x, y) => x - y)).toEqual(ids);
      const rows = await stores.groupUpdates.load(a);
      expect(rows.map((r) => r.id)).toEqual(ids);
      expect(rows.map((r) => Buffer.from(r.data))).toEqual(updates.map((u) => Buffer.from(u)));
      expect(await stores.groupUpdates.count(a)).toBe(3);
      expect(await stores.groupUpdates.count(b)).toBe(3);
      expect(await stores.groupUpdates.load(await aGroup())).toEqual([]);
      expect(await stores.groupUpdates.count(randomUUID())).toBe(0);
    });

    it('refuses an update for a group that does not exist', async () => {
      await expect(stores.groupUpdates.append(randomUUID(), anEdit('lost'))).rejects.toThrow();
    });

    it('compacts the rows up to an id into one, keeping the rows after it', async () => {
      const groupId = await aGroup();
      const doc = new Y.Doc();
      let throughId = 0;
      for (const text of ['a', 'b', 'c']) {
        const before = Y.encodeStateVector(doc);
        doc.getArray<string>('edits').push([text]);
        throughId = await stores.groupUpdates.append(groupId, Y.encodeStateAsUpdate(doc, before));
      }
      const after = await stores.groupUpdates.append(groupId, anEdit('d'));
      await stores.groupUpdates.replaceThrough(groupId, throughId, Y.encodeStateAsUpdate(doc));

      const rows = await stores.groupUpdates.load(groupId);
      expect(rows).toHaveLength(2);
      expect(rows.map((r) => r.id)).toContain(after);
      expect(editsOf(rows)).toEqual(['a', 'b', 'c', 'd']);
      expect(await stores.groupUpdates.count(groupId)).toBe(2);
      // New appends come after the merged row.
      const next = await stores.groupUpdates.append(groupId, anEdit('e'));
      expect(next).toBeGreaterThan(Math.max(...rows.map((r) => r.id)));
    });
  });
});

// What only PostgreSQL is for: several nodes over one database. Two stores over two pools stand for two nodes.
describe.skipIf(postgres.skip !== null)('group stores on PostgreSQL, two nodes', () => {
  let nodeA: PgGroupStores;
  let nodeB: PgGroupStores;
  beforeAll(async () => {
    // Both open (and migrate) at once, as nodes started together do.
    [nodeA, nodeB] = await Promise.all([
      openPgGroupStores(postgres.url()),
      openPgGroupStores(postgres.url()),
    ]);
  });
  afterAll(async () => {
    await Promise.all([nodeA.close(), nodeB.close()]);
  });

  async function aGroup(): Promise<string> {
    const id = randomUUID();
    await nodeA.groups.create({ id, name: 'Shared', createdAt: '2026-12-01T10:00:00.000Z' }, []);
    return id;
  }

  it('migrates an empty database once when several nodes start on it at once', async () => {
    const fresh = postgresForTests('migrate-race');
    await fresh.create();
    try {
      const nodes = await Promise.all([1, 2, 3].map(() => openPgGroupStores(fresh.url())));
      await Promise.all(nodes.map((n) => n.close()));
      const pool = await openPgPool(fresh.url());
      try {
        expect(await pgSchemaVersion(pool)).toBe(PG_MIGRATIONS.length);
        const again = await migratePg(pool);
        expect(again).toEqual({ from: PG_MIGRATIONS.length, to: PG_MIGRATIONS.length, applied: [] });
      } finally {
        await pool.end();
      }
    } finally {
      await fresh.drop();
    }
  });

  it('sees what the other node wrote', async () => {
    const groupId = await aGroup();
    expect((await nodeB.groups.get(groupId))?.name).toBe('Shared');
    await nodeB.groupUpdates.append(groupId, anEdit('from B'));
    expect(editsOf(await nodeA.groupUpdates.load(groupId))).toEqual(['from B']);
  });

  it("keeps the other node's rows when one compacts from a document that lacks them", async () => {
    const groupId = await aGroup();
    const docA = new Y.Doc();
    docA.getArray<string>('edits').push(['A1']);
    await nodeA.groupUpdates.append(groupId, Y.encodeStateAsUpdate(docA));
    // B appends after A loaded: A's document never hears of it (no fan-out between nodes yet).
    await nodeB.groupUpdates.append(groupId, anEdit('B1'));
    const before = Y.encodeStateVector(docA);
    docA.getArray<string>('edits').push(['A2']);
    const lastA = await nodeA.groupUpdates.append(groupId, Y.encodeStateAsUpdate(docA, before));

    await nodeA.groupUpdates.replaceThrough(groupId, lastA, Y.encodeStateAsUpdate(docA));

    const rows = await nodeB.groupUpdates.load(groupId);
    expect(rows).toHaveLength(1);
    expect(editsOf(rows)).toEqual(['A1', 'A2', 'B1']);
  });

  it('loses nothing when both nodes append and compact one group at the same time', async () => {
    const groupId = await aGroup();
    const written: string[] = [];
    const docs = { A: new Y.Doc(), B: new Y.Doc() };
    const work = (['A', 'B'] as const).map(async (name) => {
      const node = name === 'A' ? nodeA : nodeB;
      const doc = docs[name];
      for (let i = 0; i < 40; i++) {
        const text = `${name}${i}`;
        const before = Y.encodeStateVector(doc);
        doc.getArray<string>('edits').push([text]);
        written.push(text);
        const last = await node.groupUpdates.append(groupId, Y.encodeStateAsUpdate(doc, before));
        if (i % 10 === 9) await node.groupUpdates.replaceThrough(groupId, last, Y.encodeStateAsUpdate(doc));
      }
    });
    await Promise.all(work);
    expect(editsOf(await nodeA.groupUpdates.load(groupId))).toEqual([...written].sort());
    expect(await nodeA.groupUpdates.count(groupId)).toBeLessThan(80);
  });

  it('numbers a group’s rows in the order they commit, whichever node appends', async () => {
    const groupId = await aGroup();
    const ids = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        (i % 2 ? nodeA : nodeB).groupUpdates.append(groupId, anEdit(`${i}`)),
      ),
    );
    expect([...ids].sort((x, y) => x - y)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
  });
});
