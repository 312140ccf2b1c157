import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { QuireError } from '../errors.ts';
import { SqliteInviteStore } from './invite-store.ts';
import { MIGRATIONS, migrate, schemaVersion, type Migration } from './migrations.ts';
import { openDatabase } from './open-database.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quire-migrations-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function tables(db: BetterSqlite3.Database): string[] {
  return db
    .prepare<[], string>(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`)
    .pluck()
    .all();
}

describe('openDatabase', () => {
  it('creates the parent folder and the file, tuned for WAL with foreign keys', () => {
    const path = join(dir, 'nested', 'deeper', 'quire.db');
    const db = openDatabase(path);
    try {
      expect(existsSync(path)).toBe(true);
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(db.pragma('synchronous', { simple: true })).toBe(1); // NORMAL
      expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
      expect(db.pragma('busy_timeout', { simple: true })).toBeGreaterThan(0);
      expect(schemaVersion(db)).toBe(MIGRATIONS.length);
      expect(tables(db)).toEqual(
        expect.arrayContaining(['papers', 'paper_categories', 'harvest_checkpoints', 'ingest_log']),
      );
    } finally {
      db.close();
    }
  });

  it('reopens an up-to-date database without migrating again and keeps its rows', () => {
    const path = join(dir, 'quire.db');
    const first = openDatabase(path);
    first
      .prepare(`INSERT INTO harvest_checkpoints (key, value, updated_at) VALUES ('k', '1', '2026-01-01')`)
      .run();
    first.close();

    const again = openDatabase(path);
    try {
      expect(migrate(again)).toEqual({ from: MIGRATIONS.length, to: MIGRATIONS.length, applied: [] });
      expect(again.prepare('SELECT value FROM harvest_checkpoints').pluck().get()).toBe('1');
    } finally {
      again.close();
    }
  });

  it('refuses a file that is not a SQLite database with a sentence naming it', () => {
    const path = join(dir, 'not-a-db.db');
    writeFileSync(path, 'hello, this is not SQLite\n'.repeat(100));
    expect(() => openDatabase(path)).toThrow(QuireError);
    expect(() => openDatabase(path)).toThrow(/not-a-db\.db/);
  });
});

describe('migrate', () => {
  const steps: Migration[] = [
    { name: 'one', sql: 'CREATE TABLE one (a TEXT);' },
    { name: 'two', sql: 'CREATE TABLE two (b TEXT); CREATE INDEX two_b ON two (b);' },
  ];

  it('applies steps in order, recording each as the user_version', () => {
    const db = new BetterSqlite3(join(dir, 'steps.db'));
    try {
      expect(migrate(db, steps.slice(0, 1))).toEqual({ from: 0, to: 1, applied: ['one'] });
      expect(migrate(db, steps)).toEqual({ from: 1, to: 2, applied: ['two'] });
      expect(migrate(db, steps)).toEqual({ from: 2, to: 2, applied: [] });
      expect(tables(db)).toEqual(['one', 'two']);
    } finally {
      db.close();
    }
  });

  it('rolls back a failing step whole and stays at the last good version', () => {
    const db = new BetterSqlite3(join(dir, 'broken.db'));
    const broken: Migration[] = [
      steps[0]!,
      { name: 'half', sql: 'CREATE TABLE half (c TEXT); CREATE TABLE oops (' },
    ];
    try {
      expect(() => migrate(db, broken)).toThrow(/Schema migration 2 \(half\) failed/);
      expect(schemaVersion(db)).toBe(1);
      expect(tables(db)).toEqual(['one']);
    } finally {
      db.close();
    }
  });

  it('refuses a database from a newer schema', () => {
    const db = new BetterSqlite3(join(dir, 'newer.db'));
    try {
      db.pragma(`user_version = ${steps.length + 1}`);
      expect(() => migrate(db, steps)).toThrow(/newer than this Quire knows/);
    } finally {
      db.close();
    }
  });

  it('ingest-log-running keeps the logged runs and lets a row be running or interrupted', () => {
    const db = new BetterSqlite3(join(dir, 'older.db'));
    try {
      const step = MIGRATIONS.findIndex((m) => m.name === 'ingest-log-running');
      migrate(db, MIGRATIONS.slice(0, step));
      db.exec(`INSERT INTO ingest_log (kind, source, started_at, finished_at, duration_ms, inserted, status)
        VALUES ('import', 'week.jsonl.br', '2026-05-01T10:00:00Z', '2026-05-01T10:00:02Z', 2000, 7, 'ok')`);
      migrate(db);
      expect(db.prepare('SELECT source, inserted, status FROM ingest_log').all()).toEqual([
        { source: 'week.jsonl.br', inserted: 7, status: 'ok' },
      ]);
      db.exec(`INSERT INTO ingest_log (kind, source, started_at, status, pid)
        VALUES ('import', 'next.jsonl.br', '2026-05-02T10:00:00Z', 'running', 1)`);
      expect(db.prepare('SELECT max(id) FROM ingest_log').pluck().get()).toBe(2);
      expect(() =>
        db.exec(
          `INSERT INTO ingest_log (kind, source, started_at, status) VALUES ('import', 'x', 'y', 'done')`,
        ),
      ).toThrow(/CHECK/);
    } finally {
      db.close();
    }
  });

  it('topic-counts counts the stored papers per listing day, and each topic once per paper over its closure', () => {
    const db = new BetterSqlite3(join(dir, 'counts.db'));
    try {
      migrate(
        db,
        MIGRATIONS.slice(
          0,
          MIGRATIONS.findIndex((m) => m.name === 'topic-counts'),
        ),
      );
      const paper =
        db.prepare(`INSERT INTO papers (id, title, abstract, authors, categories, primary_category,
        versions, listing_date, links, code_links, updated_at)
        VALUES (?, 't', 'a', '[]', '["cs.LG"]', 'cs.LG', '[]', ?, '{}', '[]', '2026-05-01T00:00:00Z')`);
      const tag = db.prepare(
        `INSERT INTO paper_tags (topic, paper_id, score, evidence) VALUES (?, ?, 1, '[]')`,
      );
      paper.run('a', '2026-05-04');
      paper.run('b', '2026-05-04');
      paper.run('c', '2026-05-05');
      paper.run('replaced-only', null);
      tag.run('rl', 'a');
      tag.run('offline-rl', 'a');
      tag.run('offline-rl', 'b');
      tag.run('offline-rl', 'replaced-only');
      migrate(db);
      const all = (sql: string) =>
        db
          .prepare(sql)
          .raw()
          .all()
          .map((r) => (r as unknown[]).join(' '));
      expect(all('SELECT listing_date, n FROM day_counts ORDER BY 1')).toEqual([
        '2026-05-04 2',
        '2026-05-05 1',
      ]);
      // Topic counts wait for a hierarchy (the re-tag records the taxonomy's).
      expect(all('SELECT * FROM topic_day_counts')).toEqual([]);
      const closure = db.prepare('INSERT INTO topic_closure (topic, broader) VALUES (?, ?)');
      for (const [topic, broader] of [
        ['rl', 'rl'],
        ['offline-rl', 'offline-rl'],
        ['offline-rl', 'rl'],
      ])
        closure.run(topic, broader);
      const counts = () => all('SELECT topic, listing_date, n FROM topic_day_counts ORDER BY 1, 2');
      // Paper a has both tags and counts once in rl; the unlisted paper counts nowhere.
      expect(counts()).toEqual(['offline-rl 2026-05-04 2', 'rl 2026-05-04 2']);
      db.prepare(`UPDATE papers SET listing_date = '2026-05-05' WHERE id = 'b'`).run();
      db.prepare(`UPDATE papers SET listing_date = '2026-05-05' WHERE id = 'replaced-only'`).run();
      db.prepare(`DELETE FROM paper_tags WHERE topic = 'offline-rl' AND paper_id = 'a'`).run();
      expect(counts()).toEqual(['offline-rl 2026-05-05 2', 'rl 2026-05-04 1', 'rl 2026-05-05 2']);
      expect(all('SELECT listing_date, n FROM day_counts ORDER BY 1')).toEqual([
        '2026-05-04 1',
        '2026-05-05 3',
      ]);
      // offline-rl no longer under rl.
      db.prepare(`DELETE FROM topic_closure WHERE topic = 'offline-rl' AND broader = 'rl'`).run();
      expect(counts()).toEqual(['offline-rl 2026-05-05 2', 'rl 2026-05-04 1']);
    } finally {
      db.close();
    }
  });
  it('invite-inviter keeps the invites made before it, naming no inviter, and the store reads them', async () => {
    const db = new BetterSqlite3(join(dir, 'invites.db'));
    try {
      migrate(
        db,
        MIGRATIONS.slice(
          0,
          MIGRATIONS.findIndex((m) => m.name === 'invite-inviter'),
        ),
      );
      db.exec(`INSERT INTO groups (id, name, created_at) VALUES ('g', 'Agents', '2026-05-01T10:00:00Z')`);
      db.prepare(
        `INSERT INTO group_invites (id, group_id, role, token_hash, created_at)
        VALUES ('old', 'g', 'read-write', ?, '2026-05-01T10:00:00Z')`,
      ).run(Buffer.alloc(32, 1));
      migrate(db);
      const invites = new SqliteInviteStore(db);
      expect(await invites.get('g', 'old')).toMatchObject({ role: 'read-write', invitedBy: null });
      await invites.add('g', {
        id: 'new',
        role: 'read-only',
        tokenHash: Buffer.alloc(32, 2),
        createdAt: '2026-05-02T10:00:00Z',
        invitedBy: 'Ana',
      });
      expect((await invites.list('g')).map((i) => [i.id, i.invitedBy])).toEqual([
        ['old', null],
        ['new', 'Ana'],
      ]);
    } finally {
      db.close();
    }
  });
});
