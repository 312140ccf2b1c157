import { normalisePaper } from '@quire/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IndexFilters } from '../search-index.ts';
import { allOf, phrase, word } from '../search-match.ts';
import { migratePg } from './pg-migrations.ts';
import { PgPaperStore } from './pg-paper-store.ts';
import { openPgPool, type PgPool } from './pg-pool.ts';
import { PgSearchReader } from './pg-search-reader.ts';
import { postgresForTests } from './postgres-for-tests.ts';

/*
 * A phrase's window read from the words' positions (pg-search-positions.ts): every paper holds both words,
 * the newest ones apart, so the phrase's matches are old papers the words' newest postings never reach.
 * What a phrase window built from the words' newest candidates got wrong (reverted in 2998316): the older
 * paper whose title is the phrase never ranked, a page past the first came back empty while the total
 * said more, and the total was an estimate below what the pages listed.
 */

const postgres = postgresForTests('pg-search-phrase-window');
const PAPERS = 520;
/** Papers 2..31 hold the phrase in their abstracts; paper 1 is titled by it. */
const IN_ABSTRACT = 30;
const id = (n: number) => `2604.${String(n).padStart(5, '0')}`;
const NO_FILTERS: IndexFilters = { topics: null, topicsFrom: 'tags', categories: null, from: null, to: null };
const WEIGHTS = { title: 3, authors: 2, abstract: 1 };
const PHRASE = phrase(['quorum', 'lighthouse']);
let pool: PgPool;

beforeAll(async () => {
  await postgres.create();
  if (postgres.skip) return;
  pool = await openPgPool(postgres.url());
  await migratePg(pool);
  const papers = Array.from({ length: PAPERS }, (_, i) => {
    const n = i + 1;
    const near = n >= 2 && n <= IN_ABSTRACT + 1;
    return normalisePaper({
      id: id(n),
      title: n === 1 ? 'Quorum lighthouse' : `Study number ${n}`,
      abstract: near
        ? 'Readers reach a quorum lighthouse by night.'
        : 'A lighthouse keeper reads; a quorum of readers.',
      authors: ['Ada Lovelace'],
      categories: ['cs.LG'],
      listingDate: '2026-04-02',
    });
  });
  await new PgPaperStore(pool).upsertBatch(papers, { countsAsListing: true });
}, 60_000);
afterAll(async () => {
  await pool?.end();
  await postgres.drop();
});

describe.skipIf(postgres.skip !== null)("a phrase's window on PostgreSQL", () => {
  it('ranks an old paper titled by the phrase first, beyond the words’ newest papers', async () => {
    const reader = new PgSearchReader(pool);
    const best = await reader.best(PHRASE, NO_FILTERS, WEIGHTS, { limit: 3, window: 5_000 });
    expect(best[0]?.paperId).toBe(id(1));
    const page = await reader.ranked(PHRASE, NO_FILTERS, WEIGHTS, { limit: 5, offset: 0, window: 5_000 });
    expect(page.rows[0]?.paperId).toBe(id(1));
    expect(page).toMatchObject({ total: IN_ABSTRACT + 1, estimated: false });
  });

  it('counts every match exactly and lists each once, page after page', async () => {
    const reader = new PgSearchReader(pool);
    const listed: string[] = [];
    for (let offset = 0; offset < IN_ABSTRACT + 1; offset += 7) {
      const page = await reader.ranked(PHRASE, NO_FILTERS, WEIGHTS, { limit: 7, offset, window: 5_000 });
      expect(page, `offset ${offset}`).toMatchObject({ total: IN_ABSTRACT + 1, estimated: false });
      expect(page.rows.length, `offset ${offset}`).toBe(Math.min(7, IN_ABSTRACT + 1 - offset));
      listed.push(...page.rows.map((r) => r.paperId));
    }
    const every = Array.from({ length: IN_ABSTRACT + 1 }, (_, i) => id(i + 1));
    expect([...listed].sort()).toEqual(every);
    // A window smaller than the matches: still counted exactly, and a later page is full.
    const later = await reader.ranked(PHRASE, NO_FILTERS, WEIGHTS, { limit: 7, offset: 14, window: 5 });
    expect(later).toMatchObject({ total: IN_ABSTRACT + 1, estimated: false });
    expect(later.rows).toHaveLength(7);
  });

  it('gives the pages, scores and totals the vectors give, alone and with other words', async () => {
    const fromPositions = new PgSearchReader(pool);
    const fromVectors = new PgSearchReader(pool, false, { postings: false });
    for (const match of [PHRASE, allOf([PHRASE, word('reader')]), allOf([PHRASE, word('night')])]) {
      for (const page of [
        { limit: 10, offset: 0, window: 5_000 },
        { limit: 10, offset: 10, window: 12 },
      ]) {
        const a = await fromPositions.ranked(match, NO_FILTERS, WEIGHTS, page);
        const b = await fromVectors.ranked(match, NO_FILTERS, WEIGHTS, page);
        const label = `${JSON.stringify(match)} ${JSON.stringify(page)}`;
        expect(a.total, label).toBe(b.total);
        expect(a.total, label).toBeGreaterThan(0);
        expect(
          a.rows.map((r) => r.paperId),
          label,
        ).toEqual(b.rows.map((r) => r.paperId));
        a.rows.forEach((r, i) => expect(r.score, label).toBeCloseTo(b.rows[i]?.score ?? NaN, 5));
      }
    }
  });
});
