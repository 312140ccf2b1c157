import { normalisePaper } from '@quire/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IndexFilters } from '../search-index.ts';
import { inColumns, word } from '../search-match.ts';
import { migratePg } from './pg-migrations.ts';
import { PgPaperStore } from './pg-paper-store.ts';
import { openPgPool } from './pg-pool.ts';
import { READER_SETTINGS } from './pg-search-queries.ts';
import { PgSearchReader } from './pg-search-reader.ts';
import { postgresForTests } from './postgres-for-tests.ts';

/*
 * PostgreSQL's ranked window over a search reader of its own (the search thread's): the newest matches
 * read from an id on when a word is common (and from the start when that id reached too few), papers
 * ranked by their titles before their whole vectors when many match, a title-only match read on the
 * title's own vector.
 */

const postgres = postgresForTests('pg-search-window');
const PAPERS = 520;
const id = (n: number) => `2604.${String(n).padStart(5, '0')}`;
const NO_FILTERS: IndexFilters = { topics: null, topicsFrom: 'tags', categories: null, from: null, to: null };
const WEIGHTS = { title: 3, authors: 2, abstract: 1 };
let reader: PgSearchReader;

beforeAll(async () => {
  await postgres.create();
  if (postgres.skip) return;
  const pool = await openPgPool(postgres.url());
  try {
    await migratePg(pool);
    // Every paper holds "quorum" in its abstract; the oldest 30 "zeppelin" too; only the oldest paper's
    // title holds "quorum" and "lighthouse", which the newest 20 papers hold in their abstracts.
    const papers = Array.from({ length: PAPERS }, (_, i) => {
      const n = i + 1;
      return normalisePaper({
        id: id(n),
        title: n === 1 ? 'Quorum lighthouse' : `Study number ${n}`,
        abstract: `A quorum of readers${n <= 30 ? ' and a zeppelin' : ''}${n > PAPERS - 20 ? ' near a lighthouse' : ''}.`,
        authors: ['Ada Lovelace'],
        categories: ['cs.LG'],
        listingDate: '2026-04-02',
      });
    });
    await new PgPaperStore(pool).upsertBatch(papers, { countsAsListing: true });
  } finally {
    await pool.end();
  }
  // The vectors' window, which phrases and prefixes take: words here would be read from the postings
  // (pg-search-postings.test.ts holds those equal to this).
  reader = new PgSearchReader(await openPgPool(postgres.url(), READER_SETTINGS), true, { postings: false });
});
afterAll(async () => {
  await reader?.close();
  await postgres.drop();
});

const newest = (from: number, count: number) => Array.from({ length: count }, (_, i) => id(from - i)).sort();
const sortedIds = (rows: readonly { paperId: string }[]) => rows.map((r) => r.paperId).sort();

describe.skipIf(postgres.skip !== null)('the ranked window on PostgreSQL', () => {
  it('ranks the newest matches of a common word, counting them all', async () => {
    const best = await reader.best(word('quorum'), NO_FILTERS, WEIGHTS, { limit: 5, window: 5 });
    expect(sortedIds(best)).toEqual(newest(PAPERS, 5));
    const page = await reader.ranked(word('quorum'), NO_FILTERS, WEIGHTS, { limit: 5, offset: 0, window: 5 });
    expect(sortedIds(page.rows)).toEqual(newest(PAPERS, 5));
    expect(page.total).toBe(PAPERS);
  });

  it('finds the newest matches of a word the newest papers lack', async () => {
    const best = await reader.best(word('zeppelin'), NO_FILTERS, WEIGHTS, { limit: 5, window: 5 });
    expect(sortedIds(best)).toEqual(newest(30, 5));
    expect(await reader.countMatches(word('zeppelin'), NO_FILTERS)).toBe(30);
  });

  it('ranks a title match first however many papers match', async () => {
    const best = await reader.best(word('quorum'), NO_FILTERS, WEIGHTS, { limit: 1, window: 5_000 });
    expect(best.map((r) => r.paperId)).toEqual([id(1)]);
  });

  it('matches titles alone on their own vector', async () => {
    const titled = inColumns(['title'], word('lighthouse'));
    expect(await reader.countMatches(titled, NO_FILTERS)).toBe(1);
    const best = await reader.best(titled, NO_FILTERS, WEIGHTS, { limit: 5, window: 5_000 });
    expect(best.map((r) => r.paperId)).toEqual([id(1)]);
    expect(await reader.countMatches(word('lighthouse'), NO_FILTERS)).toBe(21);
  });

  it('answers a match whose columns cancel out (nothing to rank) with no papers, not an error', async () => {
    const nowhere = inColumns(['title'], inColumns(['authors'], word('quorum')));
    expect(await reader.best(nowhere, NO_FILTERS, WEIGHTS, { limit: 5, window: 5_000 })).toEqual([]);
  });
});
