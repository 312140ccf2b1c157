import { randomUUID } from 'node:crypto';
import pg from 'pg';
import * as Y from 'yjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPgGroupStores, type PgNodeStores } from './open-pg-stores.ts';
import { createThrowawayDatabase, type ThrowawayDatabase } from './throwaway-database.ts';

/*
 * What nodes sharing one PostgreSQL update log rely on beyond the engines' common contract: catch-up
 * reads, group heads, and compaction that one node at a time does (the others skip). Real PostgreSQL
 * from `npm test` (QUIRE_TEST_DATABASE_URL), in a database of this file's own.
 */

const PG_URL = process.env.QUIRE_TEST_DATABASE_URL ?? '';
const PG_SKIP = PG_URL
  ? null
  : (process.env.QUIRE_TEST_POSTGRES_SKIP ??
    'QUIRE_TEST_DATABASE_URL is not set (npm test starts a throwaway PostgreSQL; by hand: bash scripts/test-services.sh pnpm exec vitest run <file>)');
if (PG_SKIP) console.warn(`shared update log: PostgreSQL tests skipped: ${PG_SKIP}`);

function anEdit(text: string): Uint8Array {
  const doc = new Y.Doc();
  doc.getArray<string>('edits').push([text]);
  return Y.encodeStateAsUpdate(doc);
}

function editsOf(rows: readonly { data: Uint8Array }[]): string[] {
  const doc = new Y.Doc();
  for (const row of rows) Y.applyUpdate(doc, row.data);
  return doc.getArray<string>('edits').toArray().sort();
}

describe.skipIf(PG_SKIP !== null)('the shared update log on PostgreSQL', () => {
  let database: ThrowawayDatabase;
  let nodeA: PgNodeStores;
  let nodeB: PgNodeStores;
  beforeAll(async () => {
    database = await createThrowawayDatabase(PG_URL, 'shared-update-log');
    nodeA = await openPgGroupStores(database.url);
    nodeB = await openPgGroupStores(database.url);
  });
  afterAll(async () => {
    await nodeA?.close();
    await nodeB?.close();
    await database?.drop();
  });

  async function aGroup(): Promise<string> {
    const id = randomUUID();
    await nodeA.groups.create({ id, name: 'Shared', createdAt: '2026-12-01T10:00:00.000Z' }, []);
    return id;
  }

  it('reads the rows after a number, and each group’s newest number', async () => {
    const g = await aGroup();
    const empty = await aGroup();
    for (const text of ['a', 'b', 'c']) await nodeA.sharedUpdates.append(g, anEdit(text));
    const after = await nodeB.sharedUpdates.after(g, 1);
    expect(after.map((r) => r.id)).toEqual([2, 3]);
    expect(editsOf(after)).toEqual(['b', 'c']);
    const heads = await nodeB.sharedUpdates.heads([g, empty, 'no-such-group']);
    expect([...heads.entries()].sort()).toEqual(
      [
        [empty, 0],
        [g, 3],
      ].sort(),
    );
  });

  it('numbers the merged row after every row it replaced, so a catch-up from before it reads it', async () => {
    const g = await aGroup();
    const first = anEdit('a');
    await nodeA.sharedUpdates.append(g, first);
    for (const text of ['b', 'c']) await nodeA.sharedUpdates.append(g, anEdit(text));
    // From a document that holds row 1 only: the rows it lacks are merged from the log.
    const merged = await nodeA.sharedUpdates.compactThrough(g, 3, first);
    expect(merged).toBe(4);
    // A node that held only row 1 catches up: rows 2 and 3 are gone, their content is in row 4.
    const after = await nodeB.sharedUpdates.after(g, 1);
    expect(after.map((r) => r.id)).toEqual([4]);
    expect(editsOf(after)).toEqual(['a', 'b', 'c']);
  });

  it('skips a compaction while another node compacts the group, changing nothing', async () => {
    const g = await aGroup();
    const first = anEdit('a');
    await nodeA.sharedUpdates.append(g, first);
    await nodeA.sharedUpdates.append(g, anEdit('b'));
    // Another node mid-compaction: its transaction holds the group's compaction lock.
    const other = new pg.Client({ connectionString: database.url });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query(`SELECT pg_advisory_xact_lock(hashtextextended('quire:compact:' || $1, 0))`, [g]);
      expect(await nodeB.sharedUpdates.compactThrough(g, 2, first)).toBeNull();
      expect((await nodeB.sharedUpdates.load(g)).map((r) => r.id)).toEqual([1, 2]);
      await other.query('ROLLBACK');
    } finally {
      await other.end();
    }
    expect(await nodeB.sharedUpdates.compactThrough(g, 2, first)).toBe(3);
  });

  it('numbers each group’s rows 1, 2, 3… when two nodes append to overlapping groups at once', async () => {
    const groups = await Promise.all(Array.from({ length: 6 }, () => aGroup()));
    // Each node sends many groups' appends at once, and the two nodes' appends to the same groups race
    // for each group's row (in opposite orders of arrival).
    const sends = (node: PgNodeStores, tag: string, order: string[]) =>
      Array.from({ length: 5 }, (_, round) =>
        order.map((g) => node.sharedUpdates.append(g, anEdit(`${tag}${round}:${g}`))),
      ).flat();
    const seqs = await Promise.all([
      ...sends(nodeA, 'A', groups),
      ...sends(nodeB, 'B', [...groups].reverse()),
    ]);
    expect(seqs.every((n) => Number.isInteger(n) && n > 0)).toBe(true);
    for (const g of groups) {
      const rows = await nodeA.sharedUpdates.load(g);
      expect(rows.map((r) => r.id)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
      expect(editsOf(rows)).toHaveLength(10);
    }
  });

  it('refuses the append of a group that is gone, and the appends sent beside it still land', async () => {
    const g = await aGroup();
    const results = await Promise.allSettled([
      nodeA.sharedUpdates.append(g, anEdit('first')),
      nodeA.sharedUpdates.append('no-such-group', anEdit('x')),
      nodeA.sharedUpdates.append(g, anEdit('second')),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(editsOf(await nodeA.sharedUpdates.load(g))).toEqual(['first', 'second']);
  });

  it('loses none of the rows another node appends while one compacts again and again', async () => {
    const g = await aGroup();
    const docA = new Y.Doc();
    const written: string[] = [];
    let appending = true;
    const appendsB = (async () => {
      for (let i = 0; appending || i < 50; i++) {
        written.push(`B${i}`);
        await nodeB.sharedUpdates.append(g, anEdit(`B${i}`));
      }
    })();
    let compactions = 0;
    for (let i = 0; i < 30; i++) {
      const before = Y.encodeStateVector(docA);
      docA.getArray<string>('edits').push([`A${i}`]);
      written.push(`A${i}`);
      const last = await nodeA.sharedUpdates.append(g, Y.encodeStateAsUpdate(docA, before));
      // A's document never hears of B's rows; compaction merges them from the log.
      if ((await nodeA.sharedUpdates.compactThrough(g, last, Y.encodeStateAsUpdate(docA))) !== null) {
        compactions++;
      }
    }
    appending = false;
    await appendsB;
    expect(compactions).toBeGreaterThan(0);
    expect(editsOf(await nodeA.sharedUpdates.load(g))).toEqual([...written].sort());
  });
});
