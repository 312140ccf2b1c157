import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultTaxonomy, normalisePaper, type SearchResponseDto } from '@quire/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../store/open-store.ts';
import { FtsSearch, RANK_WINDOW } from './fts-search.ts';
import { fts5Expression } from '../store/fts5-match.ts';
import { word } from '../store/search-match.ts';
import { SearchIndex } from '../store/search-index.ts';
import { sqliteSearchReader, SqliteSearchReader } from '../store/search-reader.ts';
import { textMatch, titleMatch } from './query-match.ts';
import { PAPERS, TAGS } from './search-fixture.ts';

let dir: string;
let store: Store;
let search: FtsSearch;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'quire-fts-search-'));
  store = openStore(join(dir, 'quire.db'));
  store.papers.upsertBatch(PAPERS.map(normalisePaper), { countsAsListing: true });
  const tag = store.db.prepare(
    `INSERT INTO paper_tags (topic, paper_id, score, evidence) VALUES (?, ?, 1, '[]')`,
  );
  for (const { id, topics } of TAGS) for (const topic of topics) tag.run(topic, id);
  search = new FtsSearch(sqliteSearchReader(store.db), defaultTaxonomy());
});
afterAll(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const run = (q: string, limit = 20, offset = 0): Promise<SearchResponseDto> =>
  search.search(q, { limit, offset });

/*
 * What only SQLite's reader shows: the FTS5 expressions FtsSearch's matches become. Search's behaviours on
 * both engines are in store/search-readers.contract.test.ts.
 */

describe('FtsSearch on SQLite: words', () => {
  it('asks for a word being typed as the word when its longer words come only with it', async () => {
    const asked: string[] = [];
    const index = new SearchIndex(store.db);
    const spy = new Proxy(index, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target) as unknown;
        if (typeof value !== 'function') return value;
        const method = value as (...args: unknown[]) => unknown;
        return (...args: unknown[]) => {
          // Ranked, or (few matching) read whole to be re-ranked.
          if (prop === 'ranked' || prop === 'newest') asked.push(String(args[0]));
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

describe('FtsSearch: more matches than the ranked window', () => {
  let bigDir: string;
  let big: Store;

  beforeAll(() => {
    bigDir = mkdtempSync(join(tmpdir(), 'quire-fts-window-'));
    big = openStore(join(bigDir, 'quire.db'));
    // One older paper named by the words, then more newer papers than the window ranks that only
    // mention them in their abstracts.
    const named = normalisePaper({
      id: '2601.00001',
      title: 'Quasar lattices',
      abstract: 'We study a structure of another kind entirely, with no further words of the query.',
      authors: ['Ada Lovelace'],
      categories: ['cs.LG'],
      listingDate: '2026-01-05',
    });
    const mentions = Array.from({ length: RANK_WINDOW + 200 }, (_, i) =>
      normalisePaper({
        id: `2605.${String(10000 + i)}`,
        title: `Plain study ${i}`,
        abstract: 'A method that compares a quasar and a lattice, among many other things it touches.',
        authors: ['Grace Hopper'],
        categories: ['cs.LG'],
        listingDate: '2026-05-04',
      }),
    );
    big.papers.upsertBatch([named, ...mentions], { countsAsListing: true });
  });
  afterAll(() => {
    big.close();
    rmSync(bigDir, { recursive: true, force: true });
  });

  it('still finds an older paper whose title holds the words', async () => {
    const bigSearch = new FtsSearch(sqliteSearchReader(big.db), defaultTaxonomy());
    const found = await bigSearch.search('quasar lattice', { limit: 20, offset: 0 });
    expect(found.total).toBeGreaterThan(RANK_WINDOW);
    expect(found.results.map((r) => r.id)).toContain('2601.00001');
  });
});

describe('FtsSearch: a filtered total estimated at exactly the ranked window', () => {
  let bigDir: string;
  let big: Store;

  beforeAll(() => {
    bigDir = mkdtempSync(join(tmpdir(), 'quire-fts-window-edge-'));
    big = openStore(join(bigDir, 'quire.db'));
    const paper = (id: string, title: string, abstract: string, category: string, listingDate: string) =>
      normalisePaper({ id, title, abstract, authors: ['Grace Hopper'], categories: [category], listingDate });
    const mention = (i: number, category: string) =>
      paper(
        `2605.${String(10000 + i)}`,
        `Plain study ${i}`,
        'A method that compares a quasar and a lattice, among many other things it touches.',
        category,
        '2026-05-04',
      );
    // Enough matches that the total is estimated, and just over the window's count of them in cs.CV,
    // which the estimate rounds to the window itself; the paper named by the words is older than all.
    big.papers.upsertBatch(
      [
        paper(
          '2601.00001',
          'Quasar lattices',
          'A structure of another kind entirely.',
          'cs.CV',
          '2026-01-05',
        ),
      ],
      { countsAsListing: true },
    );
    const cv = Array.from({ length: RANK_WINDOW + 40 }, (_, i) => mention(i, 'cs.CV'));
    const lg = Array.from({ length: 3 * RANK_WINDOW + 60 }, (_, i) => mention(cv.length + i, 'cs.LG'));
    big.papers.upsertBatch([...cv, ...lg], { countsAsListing: true });
  });
  afterAll(() => {
    big.close();
    rmSync(bigDir, { recursive: true, force: true });
  });

  it('still finds the older paper whose title holds the words', async () => {
    const bigSearch = new FtsSearch(sqliteSearchReader(big.db), defaultTaxonomy());
    const found = await bigSearch.search('quasar lattice cat:cs.CV', { limit: 20, offset: 0 });
    expect(found.total).toBe(RANK_WINDOW);
    expect(found.results.map((r) => r.id)).toContain('2601.00001');
  });
});
