import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { normalisePaper, type PaperEntity, type RawPaper } from '@quire/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, migrate } from './migrations.ts';
import { openStore } from './open-store.ts';

// Which papers wait for tags lives in papers_to_tag (migration papers-to-tag), not in a column of papers.

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quire-papers-to-tag-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function paper(overrides: Partial<RawPaper> = {}): PaperEntity {
  return normalisePaper({
    id: '2604.01234',
    title: 'Step-Level Credit Assignment for LLM Agents',
    abstract: 'We assign credit to steps.',
    authors: ['Ada Lovelace'],
    categories: ['cs.LG'],
    listingDate: '2026-04-02',
    ...overrides,
  });
}

describe('papers waiting for tags', () => {
  it('the migration carries over the papers the old column marked, and only those', () => {
    const db = new BetterSqlite3(join(dir, 'old.db'));
    const before = MIGRATIONS.findIndex((m) => m.name === 'papers-to-tag');
    migrate(db, MIGRATIONS.slice(0, before));
    const insert = db.prepare(
      `INSERT INTO papers (id, title, abstract, authors, categories, primary_category, versions, links, code_links, updated_at, tags_stale)
       VALUES (?, 't', 'a', '[]', '["cs.LG"]', 'cs.LG', '[]', '{}', '[]', '2026-01-01T00:00:00Z', ?)`,
    );
    insert.run('2601.00001', 1);
    insert.run('2601.00002', 0);
    insert.run('2601.00003', 1);
    migrate(db);
    expect(db.prepare('SELECT paper_id FROM papers_to_tag ORDER BY 1').pluck().all()).toEqual([
      '2601.00001',
      '2601.00003',
    ]);
    db.close();
  });

  it('a new paper and a changed one wait; an unchanged write does not; a deleted paper leaves', async () => {
    let clock = new Date('2026-05-01T12:00:00Z');
    const store = openStore(join(dir, 'quire.db'), { now: () => clock });
    try {
      const waiting = () => store.db.prepare('SELECT paper_id FROM papers_to_tag ORDER BY 1').pluck().all();
      store.papers.upsertBatch([paper(), paper({ id: '2604.05678' })], { countsAsListing: true });
      expect(waiting()).toEqual(['2604.01234', '2604.05678']);
      expect(await store.tags.staleCount()).toBe(2);

      const [a, b] = await store.tags.stalePapersAfter('', 10);
      if (!a || !b) throw new Error('two stale papers expected');
      await store.tags.replacePaperTags([a, b].map((p) => ({ id: p.id, tags: [], updatedAt: p.updatedAt })));
      expect(waiting()).toEqual([]);

      store.papers.upsertBatch([paper()], { countsAsListing: true });
      expect(waiting()).toEqual([]);
      clock = new Date('2026-05-02T12:00:00Z');
      store.papers.upsertBatch([paper({ title: 'Credit Assignment for LLM Agents, Step by Step' })], {
        countsAsListing: true,
      });
      expect(waiting()).toEqual(['2604.01234']);

      store.db.prepare('DELETE FROM papers WHERE id = ?').run('2604.01234');
      expect(waiting()).toEqual([]);
    } finally {
      store.close();
    }
  });
});
