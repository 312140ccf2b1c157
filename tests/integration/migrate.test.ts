import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { Writable } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { defaultTaxonomy } from '@quire/core';
import { runMigrate } from '@quire/server/cli/command-migrate';
import { importPaths } from '@quire/server/ingest/import-dumps';
import { openStore } from '@quire/server/store/open-store';
import { openPgGroupStores } from '@quire/server/store/pg/open-pg-stores';
import { PgHarvestState } from '@quire/server/store/pg/pg-harvest-state';
import { PgPaperStore } from '@quire/server/store/pg/pg-paper-store';
import { openPgPool } from '@quire/server/store/pg/pg-pool';
import { PgTagStore } from '@quire/server/store/pg/pg-tag-store';
import { PgTopicCountsStore } from '@quire/server/store/pg/pg-topic-counts-store';
import { retag } from '@quire/server/topics/retag';
import { createThrowawayDatabase, type ThrowawayDatabase } from '@quire/server/store/pg/throwaway-database';
import { PG_SKIP } from '../src/harness/engines.ts';
import { listingsDir } from '../src/paths.ts';
import { runCli, startCli } from '../src/harness/run-cli.ts';
import { waitFor } from '../src/harness/wait-for.ts';

/*
 * `quire migrate` (issue 13) against a real PostgreSQL: a SQLite installation's group side copied whole and
 * checked through PostgreSQL's own stores, a copy killed part way and run again, and addresses that are
 * wrong in each way a developer gets them wrong.
 */

const PG_URL = process.env.QUIRE_TEST_DATABASE_URL ?? '';
if (PG_SKIP) console.warn(`quire migrate: tests skipped: ${PG_SKIP}`);

const dir = mkdtempSync(join(tmpdir(), 'quire-migrate-'));
const databases: ThrowawayDatabase[] = [];
afterAll(async () => {
  for (const database of databases) await database.drop();
  rmSync(dir, { recursive: true, force: true });
});

async function emptyDatabase(label: string): Promise<string> {
  const database = await createThrowawayDatabase(PG_URL, label);
  databases.push(database);
  return database.url;
}

const hash = (secret: string): Buffer => createHash('sha256').update(secret).digest();

interface Installation {
  path: string;
  groups: { id: string; name: string; edits: string[] }[];
}

/**
 * A SQLite file as a server leaves it: groups with invites (one revoked, one with its inviter), a calendar
 * feed, and update logs of different lengths, written through the store's own interfaces.
 */
async function installation(name: string, groupCount: number, editsPerGroup: number): Promise<Installation> {
  const path = join(dir, `${name}.db`);
  const store = openStore(path);
  const groups: Installation['groups'] = [];
  try {
    for (let g = 0; g < groupCount; g++) {
      const id = randomUUID();
      const createdAt = new Date(Date.UTC(2026, 2, 1 + g)).toISOString();
      await store.groups.create({ id, name: `Group ${g}`, createdAt }, [
        { id: `${id}-rw`, role: 'read-write', tokenHash: hash(`${id} rw`), createdAt, invitedBy: 'Ada' },
        { id: `${id}-ro`, role: 'read-only', tokenHash: hash(`${id} ro`), createdAt, invitedBy: null },
      ]);
      if (g % 2 === 0) await store.invites.revoke(id, `${id}-ro`, createdAt);
      await store.calendarFeeds.add(id, {
        id: `${id}-feed`,
        inviteId: `${id}-rw`,
        tokenHash: hash(`${id} feed`),
        createdAt,
      });
      const doc = new Y.Doc();
      const edits: string[] = [];
      // One update row per edit, as the sync server appends them; groups differ in length.
      const count = editsPerGroup + g;
      for (let e = 0; e < count; e++) {
        const before = Y.encodeStateVector(doc);
        doc.getArray<string>('edits').push([`g${g} e${e}`]);
        edits.push(`g${g} e${e}`);
        await store.groupUpdates.append(id, Y.encodeStateAsUpdate(doc, before));
      }
      groups.push({ id, name: `Group ${g}`, edits });
    }
  } finally {
    store.close();
  }
  return { path, groups };
}

/** Every group of `source`, read back through the PostgreSQL stores a node uses. */
async function expectCopied(url: string, source: Installation): Promise<void> {
  const pg = await openPgGroupStores(url);
  try {
    for (const group of source.groups) {
      expect(await pg.groups.get(group.id)).toMatchObject({ id: group.id, name: group.name });
      const invites = await pg.invites.list(group.id);
      expect(invites.map((i) => [i.id, i.role, i.invitedBy]).sort()).toEqual(
        [
          [`${group.id}-ro`, 'read-only', null],
          [`${group.id}-rw`, 'read-write', 'Ada'],
        ].sort(),
      );
      expect((await pg.invites.byHash(hash(`${group.id} rw`)))?.id).toBe(`${group.id}-rw`);
      expect(await pg.calendarFeeds.list(group.id)).toHaveLength(1);
      const rows = await pg.groupUpdates.load(group.id);
      // Numbered 1…n in the order SQLite stored them, so nodes continue the numbering from there.
      expect(rows.map((r) => r.id)).toEqual(group.edits.map((_, i) => i + 1));
      const doc = new Y.Doc();
      for (const row of rows) Y.applyUpdate(doc, row.data);
      expect(doc.getArray<string>('edits').toArray()).toEqual(group.edits);
      // The next append continues the numbering.
      expect(await pg.groupUpdates.append(group.id, Y.encodeStateAsUpdate(new Y.Doc()))).toBe(
        rows.length + 1,
      );
    }
  } finally {
    await pg.close();
  }
}

/** `quire migrate` in this process, for the answers that need no child: its exit code and stderr. */
async function migrateHere(args: string[]): Promise<{ code: number; stderr: string }> {
  let stderr = '';
  const err = new Writable({
    write(chunk: Buffer, _encoding, done) {
      stderr += chunk.toString();
      done();
    },
  });
  const out = new Writable({ write: (_chunk, _encoding, done) => done() });
  const ctx = { dbPath: join(dir, 'none.db'), args, env: {}, stdout: out, stderr: err };
  try {
    return { code: await runMigrate(ctx), stderr };
  } catch (thrown) {
    // As main.ts reports what a command throws: exit 1 with the message.
    return { code: 1, stderr: stderr + (thrown instanceof Error ? thrown.message : String(thrown)) };
  }
}

describe.skipIf(PG_SKIP !== null)('quire migrate --from sqlite:… --to postgres://…', () => {
  let small: Installation;
  beforeAll(async () => {
    small = await installation('small', 3, 4);
  });

  it('copies groups, invites with their inviters, calendar feeds and update logs, and verifies them', async () => {
    const url = await emptyDatabase('migrate-full');
    const result = await runCli(['migrate', '--from', `sqlite:${small.path}`, '--to', url]);
    expect(result.stderr).not.toMatch(/Error|failed/);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      '0 papers, 0 tags, 0 ingest log entries; 3 groups, 6 invites, 3 calendar feeds, 15 updates',
    );
    expect(result.stdout).toContain('verified');
    // Run again: the finished copy is checked, nothing is written twice.
    const again = await runCli(['migrate', '--from', `sqlite:${small.path}`, '--to', url]);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('holds a finished migration');
    expect(again.stdout).toContain('15 updates');
    await expectCopied(url, small);
  });

  it('copies papers with their tags, hierarchy, stale marks, checkpoints and log; PostgreSQL derives the same counts', async () => {
    const path = join(dir, 'papers.db');
    const store = openStore(path);
    const taxonomy = defaultTaxonomy();
    try {
      await importPaths(store, [join(listingsDir, '2026-05-04.jsonl.br')]);
      await retag(store.tags, taxonomy);
      // One paper changed after tagging: it waits to be tagged on either engine.
      const [first] = store.papers.ids();
      const paper = first ? store.papers.get(first) : undefined;
      if (!paper) throw new Error('the listing imported no paper');
      store.papers.upsertBatch([{ ...paper, title: `${paper.title} (v2)` }], { countsAsListing: false });
    } finally {
      store.close();
    }
    const sqlite = openStore(path);
    const url = await emptyDatabase('migrate-papers');
    try {
      const result = await migrateHere(['--from', `sqlite:${path}`, '--to', url, '--batch-size', '700']);
      expect(result.stderr).not.toMatch(/does not match|failed/);
      expect(result.code).toBe(0);
      const pool = await openPgPool(url);
      try {
        const papers = new PgPaperStore(pool);
        const tags = new PgTagStore(pool);
        const counts = new PgTopicCountsStore(pool);
        const ids = sqlite.papers.ids();
        expect(ids.length).toBeGreaterThan(2000);
        expect(await papers.ids()).toEqual(ids);
        for (const id of [ids[0], ids[Math.floor(ids.length / 2)], ids.at(-1)].filter(
          (x) => x !== undefined,
        )) {
          expect(await papers.get(id)).toEqual(sqlite.papers.get(id));
          expect(await tags.tagsOf(id)).toEqual(await sqlite.tags.tagsOf(id));
        }
        expect(await tags.staleCount()).toBe(1);
        expect(await tags.topicHashes()).toEqual(await sqlite.tags.topicHashes());
        expect(await tags.storedClosure()).toEqual(await sqlite.tags.storedClosure());
        const asOf = (await sqlite.topicCounts.latestDay()) ?? '';
        for (const { slug } of taxonomy.topics) {
          expect(await counts.topicTotal(slug, asOf), slug).toBe(
            await sqlite.topicCounts.topicTotal(slug, asOf),
          );
          expect(await counts.topicLatest(slug, asOf, 5), slug).toEqual(
            await sqlite.topicCounts.topicLatest(slug, asOf, 5),
          );
        }
        expect(await counts.allDays('2000-01-01', asOf)).toEqual(
          [...(await sqlite.topicCounts.allDays('2000-01-01', asOf))].sort((a, b) =>
            a.day.localeCompare(b.day),
          ),
        );
        const log = await new PgHarvestState(pool).recentIngests(5);
        expect(log.map((r) => [r.id, r.kind, r.source, r.status])).toEqual(
          sqlite.state.recentIngests(5).map((r) => [r.id, r.kind, r.source, r.status]),
        );
      } finally {
        await pool.end();
      }
    } finally {
      sqlite.close();
    }
  });

  it('draws a bar with rows/s and an ETA on a terminal, redrawn in place, with each table above it', async () => {
    const url = await emptyDatabase('migrate-tty');
    let written = '';
    const tty = Object.assign(
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          written += chunk.toString();
          done();
        },
      }),
      { isTTY: true, columns: 200 },
    );
    const out = new Writable({ write: (_chunk, _encoding, done) => done() });
    const code = await runMigrate({
      dbPath: small.path,
      args: ['--to', url, '--batch-size', '2'],
      env: {},
      stdout: out,
      stderr: tty,
    });
    expect(code).toBe(0);
    const frames = written.split('\r\x1b[K').filter(Boolean);
    expect(
      frames.some((f) =>
        /^█+░* +\d+% {2}[\d,]+ of 27 rows {2}[\d,]+ rows\/s {2}ETA \S+ {2}group_updates$/.test(f),
      ),
    ).toBe(true);
    expect(frames.at(-1)).toMatch(/^█{24} 100% {2}27 of 27 rows .* ETA 0s {2}group_updates$/);
    expect(frames).toContain('group_updates: 15 rows copied\n');
  });

  it('copies updates of several MiB each, as offline clients send their whole state, 20 MiB in all', async () => {
    const path = join(dir, 'large.db');
    const store = openStore(path);
    const id = randomUUID();
    const createdAt = '2026-03-01T00:00:00.000Z';
    const sizes: number[] = [];
    try {
      await store.groups.create({ id, name: 'Offline states', createdAt }, []);
      // Five offline clients' whole states of 4 MiB: past the 16 MiB a page holds.
      for (let i = 0; i < 5; i++) {
        const doc = new Y.Doc();
        doc.getText('note').insert(0, String(i).repeat(4 * 1024 * 1024));
        const update = Y.encodeStateAsUpdate(doc);
        sizes.push(update.length);
        await store.groupUpdates.append(id, update);
      }
    } finally {
      store.close();
    }
    const url = await emptyDatabase('migrate-large');
    const result = await migrateHere(['--from', `sqlite:${path}`, '--to', url]);
    expect(result).toMatchObject({ code: 0 });
    const pg = await openPgGroupStores(url);
    try {
      expect((await pg.groupUpdates.load(id)).map((r) => [r.id, r.data.length])).toEqual(
        sizes.map((size, i) => [i + 1, size]),
      );
    } finally {
      await pg.close();
    }
  });

  it('killed part way, continues where it stopped when run again, writing no row twice', async () => {
    // 12 groups, 300-311 updates each (3,666 rows), in batches of 2: about 1,840 transactions, so some
    // 1,100 commits still lie ahead when the 40% line is read (polled every 50 ms): on an idle machine
    // with fsync off (about 0.5 ms a commit) the copy cannot finish before the kill lands.
    const big = await installation('big', 12, 300);
    const url = await emptyDatabase('migrate-resume');
    const args = ['migrate', '--from', `sqlite:${big.path}`, '--to', url, '--batch-size', '2'];
    const first = startCli(args);
    // Killed on its own progress line (a plain line each tenth without a terminal), not after a delay.
    await waitFor(
      'the copy to pass 40%',
      () => (/migrate: (4|5|6)\d% /.test(first.stderr) ? true : undefined),
      60_000,
    );
    first.child.kill('SIGKILL');
    const killed = await first.done;
    expect(killed.signal).toBe('SIGKILL');
    expect(killed.stdout).not.toContain('Copied from');

    const second = await runCli(args);
    console.log(
      `migrate killed after: ${killed.stderr.trim().split('\n').at(-1)}; rerun: ${second.stderr.trim().split('\n')[0]}`,
    );
    expect(second.code).toBe(0);
    expect(second.stderr).toMatch(
      /Resuming the migration from .* [1-9][\d,]* rows were copied before it stopped/,
    );
    expect(second.stdout).toContain('12 groups, 24 invites, 12 calendar feeds, 3,666 updates');
    await expectCopied(url, big);
  });

  it('refuses a target that already holds groups no migration wrote, and one migrated from another file', async () => {
    const url = await emptyDatabase('migrate-busy');
    const pg = await openPgGroupStores(url);
    await pg.groups.create(
      { id: 'existing', name: 'Already here', createdAt: '2026-03-01T00:00:00.000Z' },
      [],
    );
    await pg.close();
    const refused = await migrateHere(['--from', `sqlite:${small.path}`, '--to', url]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('already holds groups or papers that no quire migrate wrote');
    expect(refused.stderr).toContain('Give an empty database as --to');

    const other = await emptyDatabase('migrate-other');
    expect((await migrateHere(['--from', `sqlite:${small.path}`, '--to', other])).code).toBe(0);
    const second = await installation('second', 1, 1);
    const mixed = await migrateHere(['--from', `sqlite:${second.path}`, '--to', other]);
    expect(mixed.code).toBe(1);
    expect(mixed.stderr).toContain(`holds a migration from ${small.path}, not ${second.path}`);
  });

  it('names what to fix in a wrong address', async () => {
    const from = `sqlite:${small.path}`;
    const cases: [string[], RegExp][] = [
      [['--from', from], /--to is missing: give the PostgreSQL to copy into, --to postgres:\/\//],
      [
        ['--from', from, '--to', 'mysql://db/quire'],
        /--to: must be a postgres:\/\/ or postgresql:\/\/ address, not mysql:/,
      ],
      [
        ['--from', from, '--to', 'not an address'],
        /--to: is not an address; give postgres:\/\/user@host:port\/database/,
      ],
      [['--from', 'sqlite:/no/such/quire.db', '--to', PG_URL], /no SQLite database at \/no\/such\/quire\.db/],
      [['--from', PG_URL, '--to', PG_URL], /copies from SQLite to PostgreSQL only; give --from sqlite:PATH/],
    ];
    for (const [args, message] of cases) {
      const result = await migrateHere(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toMatch(message);
    }
    // A server that does not answer (through the CLI's own process, as a developer sees it), and a
    // database that does not exist: said, with the password hidden.
    const closed = await runCli([
      'migrate',
      '--from',
      from,
      '--to',
      'postgres://quire:secret@127.0.0.1:1/quire',
    ]);
    expect(closed.code).toBe(1);
    expect(closed.stderr).toMatch(
      /Cannot reach PostgreSQL at postgres:\/\/quire:\*\*\*@127\.0\.0\.1:1\/quire.*\(--to\)/,
    );
    expect(closed.stderr).not.toContain('secret');
    const missing = new URL(PG_URL);
    missing.pathname = '/quire_no_such_database';
    const absent = await migrateHere(['--from', from, '--to', missing.toString()]);
    expect(absent.code).toBe(1);
    expect(absent.stderr).toMatch(/quire_no_such_database.*does not exist.*must exist already/s);
  });
});
