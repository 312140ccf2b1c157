import { normalisePaper, type PaperEntity, type PaperTag, type RawPaper } from '@quire/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sqlitePapers, type PaperRepository } from './paper-repository.ts';
import { migratePg } from './pg/pg-migrations.ts';
import { PgPaperStore } from './pg/pg-paper-store.ts';
import { openPgPool, type PgPool } from './pg/pg-pool.ts';
import { PgTagStore } from './pg/pg-tag-store.ts';
import { PgTopicCountsStore } from './pg/pg-topic-counts-store.ts';
import { postgresForTests } from './pg/postgres-for-tests.ts';
import { sqliteForTests } from './sqlite-for-tests.ts';
import type { ClosureRow, StoredTaggable, TagStore } from './tag-store.ts';
import type { TopicCountsStore } from './topic-counts-store.ts';

/*
 * One contract for stored tags and the counts derived from them, on SQLite (row triggers) and PostgreSQL
 * (statement triggers, pg-tag-schema.ts): the same papers and tags give the same closure rows, per-day
 * counts and latest papers, through tag writes, listing-date corrections, hierarchy changes and re-tags.
 */

const postgres = postgresForTests('tag-stores contract');
beforeAll(() => postgres.create());
afterAll(() => postgres.drop());

interface Stores {
  papers: PaperRepository;
  tags: TagStore;
  counts: TopicCountsStore;
  close(): Promise<void>;
}

const ENGINES: { name: string; skip: string | null; open(): Promise<Stores> }[] = [
  {
    name: 'SQLite',
    skip: null,
    open: () => {
      const { store, close } = sqliteForTests('tag-contract');
      return Promise.resolve({
        papers: sqlitePapers(store.papers),
        tags: store.tags,
        counts: store.topicCounts,
        close,
      });
    },
  },
  {
    name: 'PostgreSQL',
    skip: postgres.skip,
    open: async () => {
      const pool: PgPool = await openPgPool(postgres.url());
      await migratePg(pool);
      await pool.query(
        'TRUNCATE papers, papers_to_tag, paper_topics, topic_closure, topic_state, day_counts, topic_day_counts CASCADE',
      );
      return {
        papers: new PgPaperStore(pool),
        tags: new PgTagStore(pool, { batchTags: 3 }),
        counts: new PgTopicCountsStore(pool),
        close: () => pool.end(),
      };
    },
  },
];

const paper = (id: string, listingDate: string | null, overrides: Partial<RawPaper> = {}): PaperEntity =>
  normalisePaper({
    id,
    title: `Paper ${id}`,
    abstract: `About ${id}.`,
    authors: ['Ada Lovelace'],
    categories: ['cs.LG'],
    listingDate,
    ...overrides,
  });

const tag = (slug: string, score: number): PaperTag => ({
  slug,
  score,
  evidence: [{ kind: 'phrase', text: slug, points: score }] as unknown as PaperTag['evidence'],
});

// rl-agents is narrower than rl; cv stands alone. Sorted as closureRows sorts.
const HIERARCHY: ClosureRow[] = [
  { topic: 'cv', broader: 'cv' },
  { topic: 'rl', broader: 'rl' },
  { topic: 'rl-agents', broader: 'rl' },
  { topic: 'rl-agents', broader: 'rl-agents' },
];

const APRIL = ['2026-04-01', '2026-04-30'] as const;

describe.each(ENGINES)('tag stores on $name', (engine) => {
  describe.skipIf(engine.skip !== null)('contract', () => {
    let s: Stores | null = null;
    const stores = (): Stores => {
      if (!s) throw new Error('stores not open');
      return s;
    };
    beforeEach(async () => {
      await s?.close();
      s = await engine.open();
      await stores().papers.upsertBatch(
        [
          paper('2604.00001', '2026-04-05', { listingDateEstimated: true }),
          paper('2604.00002', '2026-04-02'),
          paper('2604.00003', '2026-04-02'),
          paper('2604.00004', null),
        ],
        { countsAsListing: true },
      );
      await stores().tags.recordHierarchy(HIERARCHY);
    });
    afterAll(() => s?.close());

    async function tagAll(byId: Record<string, PaperTag[]>): Promise<StoredTaggable[]> {
      const stale = await stores().tags.stalePapersAfter('', 100);
      await stores().tags.replacePaperTags(
        stale.map((p) => ({ id: p.id, tags: byId[p.id] ?? [], updatedAt: p.updatedAt })),
      );
      return stale;
    }

    const days = async (topic: string) =>
      Object.fromEntries((await stores().counts.topicDays(topic, ...APRIL)).map((d) => [d.day, d.n]));

    it('marks new papers stale, and tagging them counts each topic with its broader ones', async () => {
      const { tags, counts } = stores();
      expect(await tags.staleCount()).toBe(4);
      expect((await tags.papersAfter('2604.00001', 2)).map((p) => p.id)).toEqual([
        '2604.00002',
        '2604.00003',
      ]);
      expect(
        (
          await tagAll({
            '2604.00001': [tag('rl-agents', 5)],
            '2604.00002': [tag('rl', 3), tag('cv', 2)],
            '2604.00003': [tag('cv', 4)],
            '2604.00004': [tag('rl-agents', 6)],
          })
        ).map((p) => p.id),
      ).toEqual(['2604.00001', '2604.00002', '2604.00003', '2604.00004']);
      expect(await tags.staleCount()).toBe(0);
      expect(await days('rl')).toEqual({ '2026-04-02': 1, '2026-04-05': 1 });
      expect(await days('rl-agents')).toEqual({ '2026-04-05': 1 });
      expect(await days('cv')).toEqual({ '2026-04-02': 2 });
      // A paper without a listing date is tagged but never counted.
      expect(await counts.topicTotal('rl', '2026-04-30')).toBe(2);
      expect(await counts.topicLatest('rl', '2026-04-30', 10)).toEqual(['2604.00001', '2604.00002']);
      expect(await counts.topicLatest('cv', '2026-04-30', 1)).toEqual(['2604.00003']);
      expect(await counts.scanTopicLatest(['rl', 'rl-agents'], '2026-04-30', 10)).toEqual([
        '2604.00001',
        '2604.00002',
      ]);
      expect(
        Object.fromEntries((await counts.scanTopicDays(['cv'], '2026-04-30')).map((d) => [d.day, d.n])),
      ).toEqual({ '2026-04-02': 2 });
      expect((await tags.tagsOf('2604.00002')).map((t) => [t.slug, t.score])).toEqual([
        ['rl', 3],
        ['cv', 2],
      ]);
      expect(Object.fromEntries((await counts.allDays(...APRIL)).map((d) => [d.day, d.n]))).toEqual({
        '2026-04-02': 2,
        '2026-04-05': 1,
      });
      expect(await counts.firstDay()).toBe('2026-04-02');
      expect(await counts.latestDay()).toBe('2026-04-05');
    });

    it("reads every topic's days in a window and totals by the as-of day at once", async () => {
      await tagAll({
        '2604.00001': [tag('rl-agents', 5)],
        '2604.00002': [tag('rl', 3), tag('cv', 2)],
        '2604.00003': [tag('cv', 4)],
        '2604.00004': [tag('rl-agents', 6)],
      });
      expect(await stores().counts.everyTopicCounts(...APRIL)).toEqual({
        days: [
          { topic: 'cv', day: '2026-04-02', n: 2 },
          { topic: 'rl', day: '2026-04-02', n: 1 },
          { topic: 'rl', day: '2026-04-05', n: 1 },
          { topic: 'rl-agents', day: '2026-04-05', n: 1 },
        ],
        totals: [
          { topic: 'cv', n: 2 },
          { topic: 'rl', n: 2 },
          { topic: 'rl-agents', n: 1 },
        ],
      });
      // Days before the window still count in the totals; days after the as-of day in neither.
      expect(await stores().counts.everyTopicCounts('2026-04-03', '2026-04-30')).toEqual({
        days: [
          { topic: 'rl', day: '2026-04-05', n: 1 },
          { topic: 'rl-agents', day: '2026-04-05', n: 1 },
        ],
        totals: [
          { topic: 'cv', n: 2 },
          { topic: 'rl', n: 2 },
          { topic: 'rl-agents', n: 1 },
        ],
      });
      expect(await stores().counts.everyTopicCounts('2026-04-01', '2026-04-04')).toEqual({
        days: [
          { topic: 'cv', day: '2026-04-02', n: 2 },
          { topic: 'rl', day: '2026-04-02', n: 1 },
        ],
        totals: [
          { topic: 'cv', n: 2 },
          { topic: 'rl', n: 1 },
        ],
      });
    });

    it('moves the counts with a corrected listing date, and re-tags the changed paper', async () => {
      await tagAll({ '2604.00001': [tag('rl-agents', 5)], '2604.00002': [tag('rl', 3)] });
      // A read listing date replaces the estimated one.
      await stores().papers.upsertBatch([paper('2604.00001', '2026-04-01')], { countsAsListing: true });
      expect(await days('rl')).toEqual({ '2026-04-01': 1, '2026-04-02': 1 });
      expect(await days('rl-agents')).toEqual({ '2026-04-01': 1 });
      expect(await stores().counts.firstDay()).toBe('2026-04-01');
      expect(await stores().counts.latestDay()).toBe('2026-04-02');
      expect((await stores().tags.stalePapersAfter('', 10)).map((p) => p.id)).toEqual(['2604.00001']);
    });

    it('drops the counts of a tag a paper loses, and keeps a paper rewritten meanwhile stale', async () => {
      await tagAll({ '2604.00002': [tag('rl', 3), tag('cv', 2)], '2604.00003': [tag('cv', 4)] });
      const [read] = await stores().tags.papersById(['2604.00002']);
      if (!read) throw new Error('paper 2604.00002 not read back');
      await stores().tags.replacePaperTags([
        { id: read.id, tags: [tag('rl', 3)], updatedAt: read.updatedAt },
      ]);
      expect(await days('cv')).toEqual({ '2026-04-02': 1 });
      expect(await days('rl')).toEqual({ '2026-04-02': 1 });
      // Written again after it was read for tagging: its tags are stored, but it stays stale.
      await stores().papers.upsertBatch([paper('2604.00003', '2026-04-02', { title: 'Retitled' })], {
        countsAsListing: true,
      });
      await stores().tags.replacePaperTags([
        { id: '2604.00003', tags: [], updatedAt: '2000-01-01T00:00:00.000Z' },
      ]);
      expect((await stores().tags.stalePapersAfter('', 10)).map((p) => p.id)).toContain('2604.00003');
      expect(await days('cv')).toEqual({});
    });

    it('recounts when the hierarchy changes, and records an unchanged one as no change', async () => {
      await tagAll({ '2604.00001': [tag('rl-agents', 5)], '2604.00002': [tag('rl', 3)] });
      const flat = HIERARCHY.filter((r) => !(r.topic === 'rl-agents' && r.broader === 'rl'));
      const report = await stores().tags.recordHierarchy(flat);
      expect(report.changed).toBe(true);
      expect(report.rows).toBe(1);
      expect(await days('rl')).toEqual({ '2026-04-02': 1 });
      expect(await stores().tags.storedClosure()).toEqual(flat);
      expect((await stores().tags.recordHierarchy(flat)).changed).toBe(false);
      await stores().tags.recordHierarchy(HIERARCHY);
      expect(await days('rl')).toEqual({ '2026-04-02': 1, '2026-04-05': 1 });
    });

    it('begins a re-tag: forgets removed topics, records changed hashes, marks their papers', async () => {
      await tagAll({ '2604.00001': [tag('rl-agents', 5)], '2604.00002': [tag('cv', 2)], '2604.00003': [] });
      await stores().tags.beginRetag(
        ['cv'],
        new Map([['rl-agents', 'hash-2']]),
        'tagged',
        new Date('2026-05-01'),
      );
      expect(await stores().tags.topicHashes()).toEqual(new Map([['rl-agents', 'hash-2']]));
      expect(await days('cv')).toEqual({});
      expect((await stores().tags.stalePapersAfter('', 10)).map((p) => p.id)).toEqual([
        '2604.00001',
        '2604.00002',
      ]);
      await stores().tags.markStale(['2604.00003', '2604.99999']);
      expect(await stores().tags.staleCount()).toBe(3);
      await stores().tags.beginRetag([], new Map(), 'all', new Date('2026-05-01'));
      expect(await stores().tags.staleCount()).toBe(4);
    });
  });
});
