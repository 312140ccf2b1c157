import { FIELD_BOOSTS, normalisePaper, type PaperEntity } from '@quire/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqlitePapers, type PaperRepository } from './paper-repository.ts';
import { migratePg } from './pg/pg-migrations.ts';
import { PgPaperStore } from './pg/pg-paper-store.ts';
import { openPgPool } from './pg/pg-pool.ts';
import { PgSearchReader } from './pg/pg-search-reader.ts';
import { postgresForTests } from './pg/postgres-for-tests.ts';
import type { IndexFilters } from './search-index.ts';
import { allOf, phrase, word, type Match } from './search-match.ts';
import { sqliteSearchReader, type SearchReader } from './search-reader.ts';
import { sqliteForTests } from './sqlite-for-tests.ts';

/*
 * A ranked page's total on both engines (issue 13): counted exactly up to the cap both share
 * (EXACT_TOTAL_UP_TO; here a small one, so a few papers pass it), the same on each; past it an estimate,
 * said to be one, near the true count. 65 papers, 64 of them with "agent", every other one of 60 in cs.RO,
 * every third of them with the phrase "quiet harbour".
 */

const postgres = postgresForTests('search-totals contract');
beforeAll(() => postgres.create());
afterAll(() => postgres.drop());

const CAP = 30;
const NONE: IndexFilters = { topics: null, topicsFrom: 'tags', categories: null, from: null, to: null };
const ROBOTICS: IndexFilters = { ...NONE, categories: ['cs.ro'] };
const PAGE = { limit: 5, offset: 0, window: 16 };

function paper(n: number, title: string, category: string, abstract = `Paper ${n} is about one thing.`) {
  return normalisePaper({
    id: `2604.${String(10000 + n)}`,
    title,
    abstract,
    authors: ['Ada Lovelace'],
    categories: [category],
    listingDate: `2026-04-${String(1 + (n % 28)).padStart(2, '0')}`,
  });
}

const PAPERS: PaperEntity[] = [
  paper(1, 'Agents that plan', 'cs.AI'),
  paper(2, 'Planning agents for planning agents', 'cs.LG'),
  paper(3, 'Robots', 'cs.RO'),
  paper(4, 'Agents and robots', 'cs.RO'),
  paper(5, 'Agents everywhere', 'cs.LG'),
  ...Array.from({ length: 60 }, (_, i) =>
    paper(
      100 + i,
      `Agent ${i}`,
      i % 2 === 0 ? 'cs.RO' : 'cs.LG',
      i % 3 === 0 ? 'A quiet harbour for agents.' : undefined,
    ),
  ),
];

interface Opened {
  papers: PaperRepository;
  /** A reader counting exactly up to CAP, and one with the engine's own cap. */
  capped: SearchReader;
  reader: SearchReader;
  close(): Promise<void>;
}

const ENGINES: { name: string; skip: string | null; open(): Promise<Opened> }[] = [
  {
    name: 'SQLite',
    skip: null,
    open: () => {
      const { store, close } = sqliteForTests('search-totals-contract');
      return Promise.resolve({
        papers: sqlitePapers(store.papers),
        capped: sqliteSearchReader(store.db, { exactTotalUpTo: CAP }),
        reader: sqliteSearchReader(store.db),
        close,
      });
    },
  },
  {
    name: 'PostgreSQL',
    skip: postgres.skip,
    open: async () => {
      const pool = await openPgPool(postgres.url());
      await migratePg(pool);
      return {
        papers: new PgPaperStore(pool),
        capped: new PgSearchReader(pool, false, { exactTotalUpTo: CAP }),
        reader: new PgSearchReader(pool),
        close: () => pool.end(),
      };
    },
  },
];

describe.each(ENGINES)('a ranked total on $name', (engine) => {
  let opened: Opened | null = null;
  let capped: SearchReader;
  let reader: SearchReader;
  beforeAll(async () => {
    if (engine.skip !== null) return;
    opened = await engine.open();
    await opened.papers.upsertBatch(PAPERS, { countsAsListing: true });
    ({ capped, reader } = opened);
  });
  afterAll(async () => {
    await opened?.close();
  });

  const total = async (r: SearchReader, match: Match, filters = NONE, page = PAGE) => {
    const { total, estimated } = await r.ranked(match, filters, FIELD_BOOSTS, page);
    return { total, estimated };
  };

  describe.skipIf(engine.skip !== null)('exact up to the cap, estimated past it', () => {
    it('counts every match while no more than the cap match, whatever the window', async () => {
      expect(await total(capped, word('robot'))).toEqual({ total: 2, estimated: false });
      const harbour = phrase(['quiet', 'harbour']);
      expect(await total(capped, harbour)).toEqual({ total: 20, estimated: false });
      expect(await total(capped, harbour, NONE, { limit: 5, offset: 10, window: 8 })).toEqual({
        total: 20,
        estimated: false,
      });
      expect(await total(capped, allOf([word('agent'), word('quiet')]))).toEqual({
        total: 20,
        estimated: false,
      });
      expect(await total(capped, allOf([word('agent'), word('quiet')]), ROBOTICS)).toEqual({
        total: 10,
        estimated: false,
      });
    });

    it('estimates past the cap, near the true count', async () => {
      const all = await total(capped, word('agent'));
      expect(all.estimated).toBe(true);
      expect(all.total).toBeGreaterThanOrEqual(60);
      expect(all.total).toBeLessThanOrEqual(66);
      // 31 in cs.RO, every other paper: the window's 16 reach back about 32 papers.
      const robots = await total(capped, word('agent'), ROBOTICS);
      expect(robots.estimated).toBe(true);
      expect(robots.total).toBeGreaterThanOrEqual(28);
      expect(robots.total).toBeLessThanOrEqual(36);
    });

    it('counts all of them exactly under the engine’s own cap', async () => {
      expect(await total(reader, word('agent'))).toEqual({ total: 64, estimated: false });
      expect(await total(reader, word('agent'), ROBOTICS)).toEqual({ total: 31, estimated: false });
    });
  });
});
