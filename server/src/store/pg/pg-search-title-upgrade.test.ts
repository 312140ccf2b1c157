import { normalisePaper } from '@quire/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IndexFilters } from '../search-index.ts';
import { inColumns, word } from '../search-match.ts';
import { migratePg, PG_MIGRATIONS } from './pg-migrations.ts';
import { PgPaperStore } from './pg-paper-store.ts';
import { openPgPool, type PgPool } from './pg-pool.ts';
import { openPgSearchReader, type PgSearchReader } from './pg-search-reader.ts';
import { postgresForTests } from './postgres-for-tests.ts';

/*
 * An installation that held papers before the search-title-vector step (the titles' own vector, the narrow
 * rows) upgrades in place: the step's rewrite carries its papers over, so title-only matches and the word
 * counts find them as they found them before.
 */

const postgres = postgresForTests('pg-search-title-upgrade');
const NO_FILTERS: IndexFilters = { topics: null, topicsFrom: 'tags', categories: null, from: null, to: null };
let reader: PgSearchReader;
let pool: PgPool;

const wordCounts = async () =>
  (await pool.query<{ word: string; papers: number }>('SELECT word, papers FROM search_words ORDER BY word'))
    .rows;

beforeAll(async () => {
  await postgres.create();
  if (postgres.skip) return;
  pool = await openPgPool(postgres.url());
  const step = PG_MIGRATIONS.findIndex((m) => m.name === 'search-title-vector');
  if (step < 0) throw new Error('no search-title-vector step: this test names the step it upgrades across');
  await migratePg(pool, PG_MIGRATIONS.slice(0, step));
  await new PgPaperStore(pool).upsertBatch(
    (
      [
        ['2604.00001', 'Harbour lighthouse keepers', 'We count gulls near a harbour.'],
        ['2604.00002', 'Gull census methods', 'Keepers of a lighthouse count gulls.'],
      ] as const
    ).map(([id, title, abstract]) =>
      normalisePaper({
        id,
        title,
        abstract,
        authors: ['Ada Lovelace'],
        categories: ['cs.LG'],
        listingDate: '2026-04-02',
      }),
    ),
    { countsAsListing: true },
  );
}, 60_000);
afterAll(async () => {
  await reader?.close();
  await pool?.end();
  await postgres.drop();
});

describe.skipIf(postgres.skip !== null)('upgrading PostgreSQL search across search-title-vector', () => {
  it('keeps every paper findable, by title alone and in any column, with the same word counts', async () => {
    const before = await wordCounts();
    await migratePg(pool);
    expect(await wordCounts()).toEqual(before);
    reader = await openPgSearchReader(postgres.url());
    const titled = inColumns(['title'], word('lighthouse'));
    expect(await reader.countMatches(titled, NO_FILTERS)).toBe(1);
    const best = await reader.best(
      titled,
      NO_FILTERS,
      { title: 3, authors: 2, abstract: 1 },
      { limit: 5, window: 50 },
    );
    expect(best.map((r) => r.paperId)).toEqual(['2604.00001']);
    expect(await reader.countMatches(word('lighthouse'), NO_FILTERS)).toBe(2);
  });
});
