import { defaultTaxonomy, normalisePaper, type SearchResponseDto } from '@quire/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqlitePapers, type PaperRepository } from './paper-repository.ts';
import { migratePg } from './pg/pg-migrations.ts';
import { PgPaperStore } from './pg/pg-paper-store.ts';
import { openPgPool } from './pg/pg-pool.ts';
import { PgSearchReader } from './pg/pg-search-reader.ts';
import { PgTagStore } from './pg/pg-tag-store.ts';
import { postgresForTests } from './pg/postgres-for-tests.ts';
import { sqliteSearchReader, type SearchReader } from './search-reader.ts';
import { sqliteForTests } from './sqlite-for-tests.ts';
import type { TagStore } from './tag-store.ts';
import { FtsSearch } from '../search/fts-search.ts';
import { PAPERS, TAGS } from '../search/search-fixture.ts';

/*
 * FtsSearch's behaviours on both engines' readers (issue 13): the same four papers and tags, the same
 * queries, the same answers, on SQLite's FTS5 index and PostgreSQL's tsvector.
 */

const postgres = postgresForTests('fts-search contract');
beforeAll(() => postgres.create());
afterAll(() => postgres.drop());

interface Opened {
  papers: PaperRepository;
  tags: TagStore;
  reader: SearchReader;
  close(): Promise<void>;
}

const ENGINES: { name: string; skip: string | null; open(): Promise<Opened> }[] = [
  {
    name: 'SQLite',
    skip: null,
    open: () => {
      const { store, close } = sqliteForTests('fts-search-contract');
      return Promise.resolve({
        papers: sqlitePapers(store.papers),
        tags: store.tags,
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
        tags: new PgTagStore(pool),
        reader: new PgSearchReader(pool),
        close: () => pool.end(),
      };
    },
  },
];

describe.each(ENGINES)('FtsSearch on $name', (engine) => {
  let opened: Opened | null = null;
  let search: FtsSearch;
  beforeAll(async () => {
    if (engine.skip !== null) return;
    opened = await engine.open();
    await opened.papers.upsertBatch(PAPERS.map(normalisePaper), { countsAsListing: true });
    await opened.tags.replacePaperTags(
      TAGS.map(({ id, topics }) => ({ id, tags: topics.map((slug) => ({ slug, score: 1, evidence: [] })) })),
    );
    search = new FtsSearch(opened.reader, defaultTaxonomy());
  });
  afterAll(async () => {
    await opened?.close();
  });

  const run = (q: string, limit = 20, offset = 0): Promise<SearchResponseDto> =>
    search.search(q, { limit, offset });
  const ids = async (q: string) => (await run(q)).results.map((r) => r.id);

  describe.skipIf(engine.skip !== null)('words', () => {
    it('finds a word by its prefix while it is typed, and marks the whole word', async () => {
      expect(await ids('reinforc')).toEqual(expect.arrayContaining(['2604.00001', '2604.00004']));
      const hit = (await run('reinforc')).results.find((r) => r.id === '2604.00001');
      expect(hit?.highlights.title.filter((s) => s.hit).map((s) => s.text)).toEqual(['Reinforcement']);
    });

    it('forgives a typo, a swapped pair too, and marks the word as written', async () => {
      expect(await ids('reinforcment')).toContain('2604.00001');
      expect(await ids('retreival')).toEqual(['2604.00003']);
      const hit = (await run('demonstartions')).results[0];
      expect(hit?.id).toBe('2604.00004');
      expect(hit?.highlights.title.filter((s) => s.hit).map((s) => s.text)).toEqual(['Demonstrations']);
    });

    it('ranks a title match above an abstract match', async () => {
      expect((await ids('reward'))[0]).not.toBe('2604.00004');
      expect((await ids('retrieval'))[0]).toBe('2604.00003');
      expect(await ids('graph neural')).toEqual(['2604.00002']);
    });

    it('reads a hyphenated word either way, plurals folded, accents folded', async () => {
      expect(await ids('multi-agent')).toEqual(['2604.00001']);
      expect(await ids('multiagent')).toEqual(['2604.00001']);
      expect(await ids('agents')).toEqual(await ids('agent'));
      expect(await ids('muller')).toEqual(['2604.00003']);
    });

    it('lists papers with any of the words when none has all, and says so', async () => {
      const answer = await run('graph demonstrations');
      expect(answer.matchedAllTerms).toBe(false);
      expect(answer.results.map((r) => r.id).sort()).toEqual(['2604.00002', '2604.00004']);
      expect((await run('graph')).matchedAllTerms).toBe(true);
    });
  });

  describe.skipIf(engine.skip !== null)('phrases and filters', () => {
    it('matches a phrase word for word only', async () => {
      expect((await ids('"reward model"')).sort()).toEqual(['2604.00001', '2604.00003']);
      expect(await ids('"model reward"')).toEqual([]);
      // A phrase alone is ranked: the title match first.
      expect((await ids('"retrieval augmented"'))[0]).toBe('2604.00003');
      expect((await run('"reward model"')).results.every((r) => r.score > 0)).toBe(true);
    });

    it('filters by topic (narrower topics included), category, date and author', async () => {
      const parent = defaultTaxonomy().ancestors.get('rl-for-tool-use')?.[0] ?? '';
      expect(await ids(`learning topic:${parent}`)).toEqual(['2604.00001']);
      expect(await ids('topic:imitation-learning')).toEqual(['2604.00004']);
      expect(await ids('reward cat:cs.CL')).toEqual(['2604.00003']);
      expect((await ids('cat:cs')).length).toBe(4);
      // A category and an archive asked together: each matches as it does alone.
      expect((await ids('cat:cs.CL,cs')).length).toBe(4);
      expect(await ids('reward from:2026-04-10')).toEqual(
        expect.arrayContaining(['2604.00002', '2604.00003']),
      );
      expect(await ids('reward to:2026-04-10')).toEqual(['2604.00001']);
      expect(await ids('author:"Jane Doe"')).toEqual(['2604.00001']);
      expect(await ids('author:"J. Doe" reward')).toEqual(['2604.00001']);
    });

    it('lists filters-only queries newest first, undated last, and counts them all', async () => {
      const answer = await run('', 2, 1);
      expect(answer.total).toBe(4);
      expect(answer.results.map((r) => r.id)).toEqual(['2604.00002', '2604.00001']);
      expect(await ids('cat:cs.LG,cs.RO')).toEqual(['2604.00003', '2604.00002', '2604.00001', '2604.00004']);
    });

    it('refuses an unknown topic, naming it', async () => {
      await expect(run('topic:no-such-topic')).rejects.toThrow(/no-such-topic/);
    });
  });

  describe.skipIf(engine.skip !== null)('ids, names and order', () => {
    it('answers an arXiv id or address with its paper alone, and an unknown one with none', async () => {
      for (const q of ['2604.00002', 'arXiv:2604.00002v3', 'https://arxiv.org/pdf/2604.00002v1']) {
        const answer = await run(q);
        expect(answer.exact, q).toEqual({ id: '2604.00002', stored: true });
        expect(answer.results.map((r) => r.id)).toEqual(['2604.00002']);
      }
      expect(await run('2604.09999')).toMatchObject({
        total: 0,
        results: [],
        exact: { id: '2604.09999', stored: false },
      });
      expect((await run('reward')).exact).toBeNull();
    });

    it("lists a person's papers first, each naming the author, then the papers with the words", async () => {
      // Both papers hold "wei" and "li"; one has an author Wei Li, the other Li Wei.
      const answer = await run('Wei Li');
      expect(answer.results.map((r) => r.id)).toEqual(['2604.00001', '2604.00003']);
      expect(answer.byAuthor).toEqual({ name: 'Wei Li', papers: 1 });
      expect(answer.results.map((r) => r.authorMatch)).toEqual(['Wei Li', undefined]);
      expect((await ids('Li Wei'))[0]).toBe('2604.00003');
      expect((await run('Wei Li', 1, 1)).results.map((r) => r.id)).toEqual(['2604.00003']);
      expect((await run('reward model')).byAuthor).toBeNull();
    });

    it('lists the same matches newest first when asked, typos forgiven', async () => {
      const newest = await search.search('reward', { limit: 20, offset: 0, sort: 'newest' });
      expect(newest.sort).toBe('newest');
      expect(newest.results.map((r) => r.id)).toEqual(['2604.00003', '2604.00002', '2604.00001']);
      const typo = await search.search('rewrad', { limit: 20, offset: 0, sort: 'newest' });
      expect(typo.results.map((r) => r.id)).toEqual(['2604.00003', '2604.00002', '2604.00001']);
      const named = await search.search('Wei Li', { limit: 20, offset: 0, sort: 'newest' });
      expect(named.byAuthor).toBeNull();
      expect(named.results.map((r) => r.id)).toEqual(['2604.00003', '2604.00001']);
    });
  });

  describe.skipIf(engine.skip !== null)('related papers', () => {
    it('lists papers sharing distinctive words, not the paper itself, naming shared topics', async () => {
      // Both others say "reward model"; the one sharing a topic comes first.
      const answer = await search.related('2604.00003', 3, new Map([['rl-for-tool-use', 1]]));
      expect(answer.results.map((r) => r.id)).toEqual(['2604.00001', '2604.00002']);
      const name = defaultTaxonomy().bySlug.get('rl-for-tool-use')?.name;
      expect(answer.results[0]?.sharedTopics).toContainEqual({ slug: 'rl-for-tool-use', name });
      expect(answer.results[0]?.authors).toEqual(['Jane Doe', 'Wei Li']);
      await expect(search.related('2605.99999', 3, new Map())).rejects.toThrow(/No paper 2605.99999/);
    });
  });
});
