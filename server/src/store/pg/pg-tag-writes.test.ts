import { normalisePaper, type PaperTag } from '@quire/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClosureRow } from '../tag-store.ts';
import { migratePg } from './pg-migrations.ts';
import { PgPaperStore } from './pg-paper-store.ts';
import { openPgPool, type PgPool } from './pg-pool.ts';
import { PgTagStore } from './pg-tag-store.ts';
import { postgresForTests } from './postgres-for-tests.ts';

/*
 * The tag writes of migration step tags-without-paper-key (pg-tag-schema.ts): paper_tags has no foreign key,
 * so a deleted or truncated paper takes its tags through the papers' triggers, a tag of a paper not stored
 * is left out, and the rewritten tag and count triggers keep closure rows and counts what a set-wise recount
 * of the tags gives.
 */

const db = postgresForTests('pg tag writes');
let pool: PgPool | null = null;
const p = (): PgPool => {
  if (!pool) throw new Error('pool not open');
  return pool;
};
beforeAll(async () => {
  await db.create();
  if (db.skip !== null) return;
  pool = await openPgPool(db.url());
  await migratePg(pool);
});
afterAll(async () => {
  await pool?.end();
  await db.drop();
});

const HIERARCHY: ClosureRow[] = [
  { topic: 'cv', broader: 'cv' },
  { topic: 'rl', broader: 'rl' },
  { topic: 'rl-agents', broader: 'rl' },
  { topic: 'rl-agents', broader: 'rl-agents' },
];
const tag = (slug: string, score: number): PaperTag => ({ slug, score, evidence: [] });
const paper = (n: number, listingDate: string | null) =>
  normalisePaper({
    id: `2604.${String(n).padStart(5, '0')}`,
    title: `Paper ${n}`,
    abstract: `About ${n}.`,
    authors: ['Ada Lovelace'],
    categories: ['cs.LG'],
    listingDate,
  });

async function rows(sql: string): Promise<string[]> {
  return (await p().query<{ r: string }>(sql)).rows.map((x) => x.r);
}
const closureRows = () => rows(`SELECT paper_id || ' ' || topic AS r FROM paper_topics ORDER BY 1`);
const recountedClosure = () =>
  rows(`SELECT DISTINCT t.paper_id || ' ' || c.broader AS r
        FROM paper_tags t JOIN topic_closure c ON c.topic = t.topic ORDER BY 1`);
const counts = () =>
  rows(`SELECT topic || ' ' || listing_date || ' ' || n AS r FROM topic_day_counts ORDER BY 1`);
const recounts = () =>
  rows(`SELECT topic || ' ' || listing_date || ' ' || count(*) AS r FROM paper_topics
        WHERE listing_date IS NOT NULL GROUP BY topic, listing_date ORDER BY 1`);

describe.skipIf(db.skip !== null)('PostgreSQL tag writes without a key to papers', () => {
  it('keeps closure rows and counts exact, and leaves out tags of papers not stored', async () => {
    const papers = new PgPaperStore(p());
    const tags = new PgTagStore(p());
    await papers.upsertBatch(
      Array.from({ length: 40 }, (_, i) => paper(i + 1, i % 5 === 4 ? null : `2026-04-0${(i % 3) + 1}`)),
      { countsAsListing: true },
    );
    await tags.recordHierarchy(HIERARCHY);
    const stale = await tags.stalePapersAfter('', 100);
    await tags.replacePaperTags([
      ...stale.map((s, i) => ({
        id: s.id,
        tags: i % 2 === 0 ? [tag('rl-agents', 5), tag('cv', 2)] : [tag('rl', 3)],
        updatedAt: s.updatedAt,
      })),
      { id: '2604.99999', tags: [tag('cv', 1)] },
    ]);
    expect(await tags.staleCount()).toBe(0);
    expect(await rows(`SELECT paper_id AS r FROM paper_tags WHERE paper_id = '2604.99999'`)).toEqual([]);
    expect(await closureRows()).toEqual(await recountedClosure());
    expect(await counts()).toEqual(await recounts());
    expect((await closureRows()).length).toBe(20 * 3 + 20);

    // Tags dropped and a day emptied of a topic: the counts that reach zero go.
    await tags.replacePaperTags(
      stale.filter((_, i) => i % 2 === 0).map((s) => ({ id: s.id, tags: [tag('rl', 4)] })),
    );
    expect(await closureRows()).toEqual(await recountedClosure());
    expect(await counts()).toEqual(await recounts());
    expect(await rows(`SELECT DISTINCT topic AS r FROM topic_day_counts ORDER BY 1`)).toEqual(['rl']);
  });

  it('deletes the tags, closure rows and counts of a deleted paper, and empties the tags with the papers', async () => {
    const tags = new PgTagStore(p());
    const before = await rows(`SELECT topic || ' ' || listing_date || ' ' || n AS r FROM topic_day_counts
      WHERE topic = 'rl' AND listing_date = '2026-04-01'`);
    expect(before).toEqual(['rl 2026-04-01 11']);
    await p().query(`DELETE FROM papers WHERE id = '2604.00001'`);
    expect(await tags.tagsOf('2604.00001')).toEqual([]);
    expect(await rows(`SELECT topic AS r FROM paper_topics WHERE paper_id = '2604.00001'`)).toEqual([]);
    expect(await counts()).toEqual(await recounts());
    expect(await counts()).toContain('rl 2026-04-01 10');
    expect(await tags.tagsOf('2604.00002')).toHaveLength(1);

    await p().query('TRUNCATE papers CASCADE');
    expect(await rows(`SELECT count(*)::text AS r FROM paper_tags`)).toEqual(['0']);
  });

  it('leaves the tag tables all-visible after a re-tag of much of the store, and alone after a small one', async () => {
    const tags = new PgTagStore(p());
    const visible = async () =>
      (
        await p().query<{ pages: number; visible: number }>(
          `SELECT relpages AS pages, relallvisible AS visible FROM pg_class WHERE relname = 'paper_topics'`,
        )
      ).rows[0];
    await new PgPaperStore(p()).upsertBatch([paper(1, '2026-04-01')], { countsAsListing: true });
    await tags.replacePaperTags([{ id: '2604.00001', tags: [tag('cv', 1)] }]);
    await tags.afterRetag(1, 1_000);
    expect((await visible())?.visible).toBe(0);
    await tags.afterRetag(1_000, 1_000);
    const after = await visible();
    expect(after?.pages).toBeGreaterThan(0);
    expect(after?.visible).toBe(after?.pages);
  });
});
