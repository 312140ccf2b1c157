import { normalisePaper } from '@quire/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IndexFilters } from '../search-index.ts';
import { allOf, phrase, word } from '../search-match.ts';
import { migratePg } from './pg-migrations.ts';
import { PgPaperStore } from './pg-paper-store.ts';
import { openPgPool } from './pg-pool.ts';
import { PHRASE_EXACT_UP_TO } from './pg-search-phrase-window.ts';
import { READER_SETTINGS } from './pg-search-queries.ts';
import { PgSearchReader } from './pg-search-reader.ts';
import { postgresForTests } from './postgres-for-tests.ts';

/*
 * A window of a match holding a phrase, read from its words' postings and checked on the vectors best
 * first (pg-search-phrase-window.ts): only papers holding the phrase listed, the total exact while few
 * hold the words, else estimated from the newest candidates and said to be.
 */

const postgres = postgresForTests('pg-search-phrase-window');
const PAPERS = 520;
/** Papers up to this one are in cs.LG (fewer than PHRASE_EXACT_UP_TO); the rest in math.CO. */
const IN_CS = 100;
const id = (n: number) => `2604.${String(n).padStart(5, '0')}`;
const NO_FILTERS: IndexFilters = { topics: null, topicsFrom: 'tags', categories: null, from: null, to: null };
const WEIGHTS = { title: 3, authors: 2, abstract: 1 };
/** Every third paper holds "silver zeppelin"; every paper holds both words. */
const holdsPhrase = (n: number) => n % 3 === 0;
let reader: PgSearchReader;
let vectors: PgSearchReader;

beforeAll(async () => {
  await postgres.create();
  if (postgres.skip) return;
  const pool = await openPgPool(postgres.url());
  try {
    await migratePg(pool);
    const papers = Array.from({ length: PAPERS }, (_, i) => {
      const n = i + 1;
      return normalisePaper({
        id: id(n),
        title: `Study number ${n}`,
        abstract: holdsPhrase(n)
          ? `A quorum of readers sees a silver zeppelin.`
          : `A silver quorum of readers sees a zeppelin.`,
        authors: ['Ada Lovelace'],
        categories: [n <= IN_CS ? 'cs.LG' : 'math.CO'],
        listingDate: '2026-04-02',
      });
    });
    await new PgPaperStore(pool).upsertBatch(papers, { countsAsListing: true });
  } finally {
    await pool.end();
  }
  reader = new PgSearchReader(await openPgPool(postgres.url(), READER_SETTINGS), true);
  vectors = new PgSearchReader(await openPgPool(postgres.url(), READER_SETTINGS), true, { postings: false });
});
afterAll(async () => {
  await reader?.close();
  await vectors?.close();
  await postgres.drop();
});

const numbers = (rows: readonly { paperId: string }[]) => rows.map((r) => Number(r.paperId.slice(5)));
const silverZeppelin = phrase(['silver', 'zeppelin']);

describe.skipIf(postgres.skip !== null)('a phrase window on PostgreSQL', () => {
  it('lists only papers holding the phrase, and counts them exactly when few hold its words', async () => {
    const inCs: IndexFilters = { ...NO_FILTERS, categories: ['cs.lg'] };
    const page = await reader.ranked(silverZeppelin, inCs, WEIGHTS, { limit: 10, offset: 0, window: 5_000 });
    expect(page.rows).toHaveLength(10);
    expect(numbers(page.rows).every(holdsPhrase)).toBe(true);
    const holders = Array.from({ length: IN_CS }, (_, i) => i + 1).filter(holdsPhrase).length;
    expect(page).toMatchObject({ total: holders, estimated: false });
    const before = await vectors.ranked(silverZeppelin, inCs, WEIGHTS, {
      limit: 10,
      offset: 0,
      window: 5_000,
    });
    expect(before.total).toBe(holders);
  });

  it('estimates the total from the newest candidates when many hold its words, and says so', async () => {
    expect(PAPERS).toBeGreaterThan(PHRASE_EXACT_UP_TO);
    const match = allOf([word('quorum'), silverZeppelin]);
    const page = await reader.ranked(match, NO_FILTERS, WEIGHTS, { limit: 60, offset: 0, window: 5_000 });
    expect(page.rows).toHaveLength(60);
    expect(numbers(page.rows).every(holdsPhrase)).toBe(true);
    const holders = Array.from({ length: PAPERS }, (_, i) => i + 1).filter(holdsPhrase).length;
    expect(page.estimated).toBe(true);
    // The newest 200 candidates hold it as often as all do, within a few.
    expect(Math.abs(page.total - holders)).toBeLessThanOrEqual(holders * 0.1);
  });

  it('finds nothing for words every paper holds but never in that order', async () => {
    const page = await reader.ranked(phrase(['zeppelin', 'silver']), NO_FILTERS, WEIGHTS, {
      limit: 10,
      offset: 0,
      window: 5_000,
    });
    expect(page).toEqual({ rows: [], total: 0, estimated: false });
  });
});
