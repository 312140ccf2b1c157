import type { PaperEntity } from '@quire/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { QuireError } from '../errors.ts';
import { LISTING, REPLACEMENT, testPaper } from './paper-fixture.ts';
import { sqlitePapers, type PaperRepository } from './paper-repository.ts';
import { migratePg } from './pg/pg-migrations.ts';
import { PgPaperStore } from './pg/pg-paper-store.ts';
import { openPgPool } from './pg/pg-pool.ts';
import { postgresForTests } from './pg/postgres-for-tests.ts';
import { sqliteForTests } from './sqlite-for-tests.ts';

/*
 * One contract for the paper stores, run against SQLite (PaperStore behind sqlitePapers) and PostgreSQL
 * (PgPaperStore): the same batches give the same papers, counts and answers on both. Each test starts from
 * an empty store.
 */

const postgres = postgresForTests('paper-stores contract');
beforeAll(() => postgres.create());
afterAll(() => postgres.drop());

interface Engine {
  name: string;
  skip: string | null;
  open(now: () => Date): Promise<{ papers: PaperRepository; close(): Promise<void> }>;
}

const ENGINES: Engine[] = [
  {
    name: 'SQLite',
    skip: null,
    open: (now) => {
      const { store, close } = sqliteForTests('paper-contract', { now });
      return Promise.resolve({ papers: sqlitePapers(store.papers), close });
    },
  },
  {
    name: 'PostgreSQL',
    skip: postgres.skip,
    open: async (now) => {
      const pool = await openPgPool(postgres.url());
      await migratePg(pool);
      await pool.query('TRUNCATE papers, papers_to_tag, paper_topics, day_counts, topic_day_counts CASCADE');
      return { papers: new PgPaperStore(pool, { now }), close: () => pool.end() };
    },
  },
];

const paper = testPaper;

describe.each(ENGINES)('paper store on $name', (engine) => {
  describe.skipIf(engine.skip !== null)('contract', () => {
    let papers: PaperRepository;
    let close: () => Promise<void> = () => Promise.resolve();
    beforeEach(async () => {
      await close();
      const opened = await engine.open(() => new Date('2026-05-01T12:00:00Z'));
      papers = opened.papers;
      close = () => opened.close();
    });
    afterAll(() => close());

    it('inserts new papers and reads them back exactly', async () => {
      const a = paper();
      const b = paper({ id: '2604.05678', categories: ['cs.CL'], listingDate: '2026-04-03' });
      expect(await papers.upsertBatch([a, b], LISTING)).toEqual({ inserted: 2, updated: 0, unchanged: 0 });
      expect(await papers.get(a.id)).toEqual(a);
      expect(await papers.get(b.id)).toEqual(b);
      expect(await papers.has(a.id)).toBe(true);
      expect(await papers.has('2604.99999')).toBe(false);
      expect(await papers.get('2604.99999')).toBeUndefined();
      expect(await papers.count()).toBe(2);
      expect(await papers.ids()).toEqual(['2604.01234', '2604.05678']);
    });

    it('leaves a paper untouched when the same record comes again, and merges a changed one', async () => {
      await papers.upsertBatch([paper({ journalRef: 'ICML 2026' })], LISTING);
      expect(await papers.upsertBatch([paper({ journalRef: 'ICML 2026' })], LISTING)).toEqual({
        inserted: 0,
        updated: 0,
        unchanged: 1,
      });
      // A sparser record never erases what is known.
      const sparse = paper({
        comment: null,
        doi: null,
        journalRef: null,
        abstract: 'We assign credit to steps.',
      });
      expect(await papers.upsertBatch([sparse], LISTING)).toEqual({ inserted: 0, updated: 1, unchanged: 0 });
      const stored = await papers.get('2604.01234');
      expect(stored?.comment).toBe('12 pages');
      expect(stored?.journalRef).toBe('ICML 2026');
      expect(stored?.abstract).toBe('We assign credit to steps.');
    });

    it('keeps the listing date rules: earliest read date wins, a replacement never sets one', async () => {
      await papers.upsertBatch([paper({ id: '2604.00010', listingDate: '2026-04-20' })], REPLACEMENT);
      expect((await papers.get('2604.00010'))?.listingDate).toBeNull();
      await papers.upsertBatch([paper({ listingDate: '2026-04-03' })], LISTING);
      await papers.upsertBatch([paper({ listingDate: '2026-04-01' })], LISTING);
      await papers.upsertBatch([paper({ listingDate: '2026-04-09' })], LISTING);
      expect((await papers.get('2604.01234'))?.listingDate).toBe('2026-04-01');
    });

    it('lets a read listing date replace an estimated one, and no estimate displace a read one', async () => {
      await papers.upsertBatch([paper({ listingDate: '2026-04-01', listingDateEstimated: true })], LISTING);
      const counts = await papers.upsertBatch([paper({ listingDate: '2026-04-02' })], LISTING);
      expect(counts.updated).toBe(1);
      const stored = await papers.get('2604.01234');
      expect(stored?.listingDate).toBe('2026-04-02');
      expect(stored?.listingDateEstimated).toBe(false);
      await papers.upsertBatch([paper({ listingDate: '2026-03-30', listingDateEstimated: true })], LISTING);
      expect((await papers.get('2604.01234'))?.listingDate).toBe('2026-04-02');
    });

    it('updates metadata from a replacement but keeps the listing date', async () => {
      await papers.upsertBatch([paper()], LISTING);
      const replacement = paper({
        title: 'Step-Level Credit Assignment for LLM Agents (revised)',
        listingDate: '2026-04-20',
        versions: [{ version: 2, submitted: '2026-04-18T10:00:00Z' }],
      });
      expect(await papers.upsertBatch([replacement], REPLACEMENT)).toEqual({
        inserted: 0,
        updated: 1,
        unchanged: 0,
      });
      const stored = await papers.get('2604.01234');
      expect(stored?.title).toBe('Step-Level Credit Assignment for LLM Agents (revised)');
      expect(stored?.listingDate).toBe('2026-04-02');
      expect(stored?.versions.map((v) => v.version)).toEqual([2]);
    });

    it('merges two records of one paper within a batch', async () => {
      const counts = await papers.upsertBatch(
        [paper({ listingDate: '2026-04-03' }), paper({ listingDate: '2026-04-02', doi: null })],
        LISTING,
      );
      expect(counts).toEqual({ inserted: 1, updated: 1, unchanged: 0 });
      expect((await papers.get('2604.01234'))?.listingDate).toBe('2026-04-02');
      expect((await papers.get('2604.01234'))?.doi).toBe('10.1000/steps');
    });

    it('keeps the category lists in step with a paper whose categories change', async () => {
      await papers.upsertBatch([paper()], LISTING);
      expect(await papers.idsInCategory('cs.AI')).toEqual(['2604.01234']);
      await papers.upsertBatch([paper({ categories: ['cs.CL', 'cs.LG', 'stat.ML'] })], LISTING);
      expect((await papers.get('2604.01234'))?.primaryCategory).toBe('cs.CL');
      expect(await papers.idsInCategory('cs.AI')).toEqual([]);
      expect(await papers.idsInCategory('stat.ML')).toEqual(['2604.01234']);
    });

    it('stores nothing of a batch that fails part way, and leaves earlier rows as they were', async () => {
      await papers.upsertBatch([paper()], LISTING);
      // A record that slipped past normalisation without a title breaks the NOT NULL constraint.
      const broken = { ...paper({ id: '2604.00002' }), title: null } as unknown as PaperEntity;
      const batch = [paper({ title: 'Changed in the failing batch' }), paper({ id: '2604.00001' }), broken];
      const error = await papers.upsertBatch(batch, LISTING).then(
        () => null,
        (err: unknown) => err,
      );
      expect(error).toBeInstanceOf(QuireError);
      expect((error as QuireError).code).toBe('store-error');
      expect((error as QuireError).message).toMatch(/batch of 3 papers.*none of the batch was stored/);
      expect(await papers.count()).toBe(1);
      expect((await papers.get('2604.01234'))?.title).toBe('Step-Level Credit Assignment for LLM Agents');
      expect(await papers.has('2604.00001')).toBe(false);
      expect(await papers.idsInCategory('cs.LG')).toEqual(['2604.01234']);
    });

    it('reports an empty store with null listing bounds', async () => {
      expect(await papers.stats()).toEqual({
        papers: 0,
        byPrimaryCategory: {},
        firstListing: null,
        lastListing: null,
      });
      expect(await papers.countByListingDay()).toEqual({});
    });

    it('summarises, lists by listing date newest first and counts per day', async () => {
      await papers.upsertBatch(
        [
          paper({ id: '2604.00001', categories: ['cs.LG'], listingDate: '2026-04-01' }),
          paper({ id: '2604.00002', categories: ['cs.CV', 'cs.LG'], listingDate: '2026-04-02' }),
          paper({ id: '2604.00003', categories: ['cs.CV'], listingDate: '2026-04-02' }),
          paper({ id: '2604.00004', categories: ['cs.CV'], listingDate: '2026-04-07' }),
          paper({ id: '2604.00005', categories: ['cs.AI'], listingDate: null }),
        ],
        LISTING,
      );
      const stats = await papers.stats();
      expect(stats).toEqual({
        papers: 5,
        byPrimaryCategory: { 'cs.CV': 3, 'cs.AI': 1, 'cs.LG': 1 },
        firstListing: '2026-04-01',
        lastListing: '2026-04-07',
      });
      expect(Object.keys(stats.byPrimaryCategory)).toEqual(['cs.CV', 'cs.AI', 'cs.LG']);
      expect((await papers.byListingDate('2026-04-02', '2026-04-07')).map((p) => p.id)).toEqual([
        '2604.00004',
        '2604.00003',
        '2604.00002',
      ]);
      expect(await papers.countByListingDay()).toEqual({ '2026-04-01': 1, '2026-04-02': 2, '2026-04-07': 1 });
      expect(await papers.idsInCategory('cs.LG')).toEqual(['2604.00001', '2604.00002']);
    });
  });
});
