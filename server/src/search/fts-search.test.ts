import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultTaxonomy, normalisePaper, type RawPaper, type SearchResponseDto } from '@quire/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../store/open-store.ts';
import { FtsSearch } from './fts-search.ts';
import { fts5Expression } from '../store/fts5-match.ts';
import { word } from '../store/search-match.ts';
import { SearchIndex } from '../store/search-index.ts';
import { sqliteSearchReader, SqliteSearchReader } from '../store/search-reader.ts';
import { textMatch, titleMatch } from './query-match.ts';

let dir: string;
let store: Store;
let search: FtsSearch;

const PAPERS: RawPaper[] = [
  {
    id: '2604.00001',
    title: 'Reinforcement Learning for Tool-Using Agents',
    abstract: 'We train multi-agent systems with reinforcement learning and a learned reward model.',
    authors: ['Jane Doe', 'Wei Li'],
    categories: ['cs.LG', 'cs.AI'],
    listingDate: '2026-04-02',
  },
  {
    id: '2604.00002',
    title: 'Graph Neural Networks at Scale',
    abstract: 'Message passing on billion-edge graphs. A reward is never mentioned with model here.',
    authors: ['John Smith', 'Jane Roe'],
    categories: ['cs.LG'],
    listingDate: '2026-04-20',
  },
  {
    id: '2604.00003',
    title: 'A Survey of Retrieval-Augmented Generation',
    abstract:
      'Retrieval augmented generation grounds language models. We survey the reward model literature too.',
    authors: ['Li Wei', 'Marta Müller'],
    categories: ['cs.CL', 'cs.LG'],
    listingDate: '2026-05-01',
  },
  {
    id: '2604.00004',
    title: 'Robot Manipulation from Demonstrations',
    abstract: 'Imitation learning for dexterous robot hands, with $\\textbf{reinforcement}$ fine-tuning.',
    authors: ['Doe Kim'],
    categories: ['cs.RO'],
    listingDate: null,
  },
];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'quire-fts-search-'));
  store = openStore(join(dir, 'quire.db'));
  store.papers.upsertBatch(PAPERS.map(normalisePaper), { countsAsListing: true });
  const tag = store.db.prepare(
    `INSERT INTO paper_tags (topic, paper_id, score, evidence) VALUES (?, ?, 1, '[]')`,
  );
  tag.run('rl-for-tool-use', '2604.00001');
  tag.run('imitation-learning', '2604.00004');
  tag.run('rl-for-tool-use', '2604.00003');
  search = new FtsSearch(sqliteSearchReader(store.db), defaultTaxonomy());
});
afterAll(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const run = (q: string, limit = 20, offset = 0): Promise<SearchResponseDto> =>
  search.search(q, { limit, offset });
const ids = async (q: string) => (await run(q)).results.map((r) => r.id);

describe('FtsSearch: words', () => {
  it('finds a word by its prefix while it is typed, and marks the whole word', async () => {
    expect(await ids('reinforc')).toEqual(expect.arrayContaining(['2604.00001', '2604.00004']));
    const hit = (await run('reinforc')).results.find((r) => r.id === '2604.00001');
    expect(hit?.highlights.title.filter((s) => s.hit).map((s) => s.text)).toEqual(['Reinforcement']);
  });

  it('asks for a word being typed as the word when its longer words come only with it', async () => {
    const asked: string[] = [];
    const index = new SearchIndex(store.db);
    const spy = new Proxy(index, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target) as unknown;
        if (typeof value !== 'function') return value;
        const method = value as (...args: unknown[]) => unknown;
        return (...args: unknown[]) => {
          if (prop === 'ranked') asked.push(String(args[0]));
          return method.apply(target, args);
        };
      },
    });
    const spied = new FtsSearch(new SqliteSearchReader(spy), defaultTaxonomy());
    const found = async (q: string) =>
      (await spied.search(q, { limit: 20, offset: 0 })).results.map((r) => r.id);
    // "Retrieval-Augmented" is indexed as its parts and "retrievalaugmented": every paper with the
    // longer word has the word, so the prefix finds what the word finds.
    expect(await found('retrieval')).toEqual(['2604.00003']);
    expect(asked.at(-1)).toBe('"retrieval"');
    // "learn" is no word here, and "learning" and "learned" come without it: FTS5's prefix.
    expect(await found('learn')).toEqual(expect.arrayContaining(['2604.00001', '2604.00004']));
    expect(asked.at(-1)).toBe('"learn"*');
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

describe('FtsSearch: phrases and filters', () => {
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
    expect(await ids('reward from:2026-04-10')).toEqual(expect.arrayContaining(['2604.00002', '2604.00003']));
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

describe('FtsSearch: ids, names and order', () => {
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

describe('FtsSearch: bounds', () => {
  it('asks FTS5 at most each distinct word once, each with a few spellings', async () => {
    const answer = await run(Array(30).fill('agent').join(' '));
    expect(answer.results.map((r) => r.id)).toEqual(['2604.00001']);
    const expression = fts5Expression(
      textMatch(
        {
          groups: Array.from({ length: 8 }, (_, i) => ({
            term: `word${i}`,
            prefix: false,
            corrections: ['a', 'b', 'c', 'd', 'e'],
          })),
          phrases: [],
          authorKeys: [],
        },
        'OR',
      ) ?? word('none'),
    );
    expect(expression.match(/"/g)?.length).toBe(8 * 6 * 2);
  });
});

describe('titleMatch', () => {
  it('looks for the words, prefixes, corrections and phrases in titles only, authors as before', async () => {
    const reader = sqliteSearchReader(store.db);
    const titled = async (parts: Parameters<typeof titleMatch>[0], mode: 'AND' | 'OR' = 'AND') =>
      (
        await reader.newest(
          titleMatch(parts, mode),
          { topics: null, topicsFrom: 'tags', categories: null, from: null, to: null },
          { limit: 10, offset: 0 },
        )
      ).ids.sort();
    const group = (term: string, prefix = false, corrections: string[] = []) => ({
      term,
      prefix,
      corrections,
    });
    expect(await titled({ groups: [group('reward')], phrases: [], authorKeys: [] })).toEqual([]);
    expect(await titled({ groups: [group('reinforc', true)], phrases: [], authorKeys: [] })).toEqual([
      '2604.00001',
    ]);
    expect(
      await titled({
        groups: [group('grph', false, ['graph'])],
        phrases: [['neural', 'network']],
        authorKeys: [],
      }),
    ).toEqual(['2604.00002']);
    expect(
      await titled({ groups: [group('robot'), group('graph')], phrases: [], authorKeys: [] }, 'OR'),
    ).toEqual(['2604.00002', '2604.00004']);
    expect(await titled({ groups: [group('reinforcement')], phrases: [], authorKeys: ['janedoe'] })).toEqual([
      '2604.00001',
    ]);
    expect(
      await titled({ groups: [group('reinforcement')], phrases: [], authorKeys: ['johnsmith'] }),
    ).toEqual([]);
  });
});

describe('FtsSearch: related papers', () => {
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
