import { beforeAll, describe, expect, it } from 'vitest';
import type MiniSearch from 'minisearch';
import { parseQuery } from './query-syntax.ts';
import {
  createPaperIndex,
  loadPaperIndex,
  phraseTextOf,
  toSearchDoc,
  type SearchDoc,
} from './search-config.ts';
import { runSearch, termsInField, type RunSearchOptions } from './search-run.ts';
import { PAPERS } from './test-papers.ts';

let index: MiniSearch<SearchDoc>;
const texts = new Map<string, string>();

beforeAll(() => {
  index = createPaperIndex();
  const docs = PAPERS.map(({ paper, tags }) => toSearchDoc(paper, tags));
  index.addAll(docs);
  for (const doc of docs) texts.set(doc.id, phraseTextOf(doc));
});

const page: RunSearchOptions = { limit: 20, offset: 0, phraseText: (id) => texts.get(id) };
const ids = (q: string, opts: RunSearchOptions = page) =>
  runSearch(index, parseQuery(q), opts).results.map((r) => r.id);

describe('runSearch: words', () => {
  it('finds a word by its prefix while it is typed', () => {
    expect(ids('reinforc')).toEqual(expect.arrayContaining(['2604.00001', '2604.00004']));
    const hit = runSearch(index, parseQuery('reinforc'), page).results[0];
    expect(hit?.terms).toContain('reinforcement');
  });

  it('forgives a typo', () => {
    expect(ids('reinforcment')).toContain('2604.00001');
    expect(ids('retreival')).toEqual(['2604.00003']);
  });

  it('ranks a title match above an abstract match', () => {
    expect(ids('reinforcement')[0]).toBe('2604.00001');
  });

  it('finds authors by name, accents folded', () => {
    expect(ids('muller')).toEqual(['2604.00003']);
    expect(ids('smith')).toEqual(['2604.00002']);
  });

  it('needs every word, and falls back to any word when no paper has them all', () => {
    expect(ids('reward model survey')).toEqual(['2604.00003']);
    const run = runSearch(index, parseQuery('graph zyxxyq'), page);
    expect(run.matchedAllTerms).toBe(false);
    expect(run.results.map((r) => r.id)).toEqual(['2604.00002']);
  });

  it('finds hyphenated words written either way', () => {
    expect(ids('multiagent')).toEqual(['2604.00001']);
    expect(ids('multi-agent')).toEqual(['2604.00001']);
    expect(ids('tool use')[0]).toBe('2604.00001');
  });

  it('reports which field each term matched', () => {
    const hit = runSearch(index, parseQuery('graph message'), page).results[0];
    expect(hit && termsInField(hit, 'title')).toEqual(['graph']);
    expect(hit && termsInField(hit, 'abstract').sort()).toEqual(['graph', 'message']);
  });
});

describe('runSearch: phrases and filters', () => {
  it('needs a quoted phrase word for word when the text is known', () => {
    expect(ids('"reward model"').sort()).toEqual(['2604.00001', '2604.00003']);
    // Without the text only the words are required, wherever they are.
    expect(ids('"reward model"', { limit: 20, offset: 0 }).sort()).toEqual([
      '2604.00001',
      '2604.00002',
      '2604.00003',
    ]);
  });

  it('filters by author: a whole name is one person, initials allowed', () => {
    expect(ids('author:"Jane Doe"')).toEqual(['2604.00001']);
    expect(ids('author:"J. Doe"')).toEqual(['2604.00001']);
    expect(ids('author:doe').sort()).toEqual(['2604.00001', '2604.00004']);
    expect(ids('author:"Marta Muller"')).toEqual(['2604.00003']);
    // Paper 1 has a Jane and a Li, but no Jane Li.
    expect(ids('author:"Jane Li"')).toEqual([]);
    expect(ids('author:"wei li" author:doe')).toEqual(['2604.00001']);
  });

  it('filters by topic through the stored tags or a caller-given test', () => {
    expect(ids('learning topic:reinforcement-learning')).toEqual(['2604.00001']);
    const onlyRag: RunSearchOptions = { ...page, hasTopic: (id) => id === '2604.00003' };
    expect(ids('topic:anything', onlyRag)).toEqual(['2604.00003']);
  });

  it('filters by category, cross-lists and whole archives included', () => {
    expect(ids('cat:cs.lg')).toEqual(['2604.00003', '2604.00002', '2604.00001']);
    expect(ids('cat:cs.RO,cs.CL')).toEqual(['2604.00003', '2604.00004']);
    expect(ids('category:cs').length).toBe(4);
  });

  it('lists filter-only queries newest first, undated papers last', () => {
    expect(ids('')).toEqual(['2604.00003', '2604.00002', '2604.00001', '2604.00004']);
    expect(ids('from:2026-04-02 to:2026-04-20')).toEqual(['2604.00002', '2604.00001']);
    expect(ids('learning from:2026-04-03')).toEqual([]);
  });

  it('pages through the results and counts them all', () => {
    const run = runSearch(index, parseQuery('cat:cs'), { limit: 2, offset: 1 });
    expect(run.total).toBe(4);
    expect(run.results.map((r) => r.id)).toEqual(['2604.00002', '2604.00001']);
    expect(run.results[0]?.stored).toMatchObject({
      title: 'Graph Neural Networks at Scale',
      tags: ['graph-learning'],
    });
  });

  it('answers the same from an index saved and loaded again', () => {
    const loaded = loadPaperIndex(JSON.stringify(index));
    expect(runSearch(loaded, parseQuery('reinforcment'), page).results.map((r) => r.id)).toEqual(
      ids('reinforcment'),
    );
  });
});

describe('runSearch: ids, names and order', () => {
  it('answers an arXiv id with its paper alone, and says when the index lacks it', () => {
    const found = runSearch(index, parseQuery('https://arxiv.org/abs/2604.00002v1'), page);
    expect(found.results.map((r) => r.id)).toEqual(['2604.00002']);
    expect(found.exact).toEqual({ id: '2604.00002', stored: true });
    const missing = runSearch(index, parseQuery('2604.09999'), page);
    expect(missing).toMatchObject({ total: 0, results: [], exact: { id: '2604.09999', stored: false } });
  });

  it("lists the papers by a person's whole name before those merely holding the words", () => {
    // Both papers hold "wei" and "li"; only the first has an author named Wei Li.
    const found = runSearch(index, parseQuery('Wei Li'), page);
    expect(found.results.map((r) => r.id).slice(0, 2)).toEqual(['2604.00001', '2604.00003']);
    expect(found.byAuthor).toBe(1);
    expect(runSearch(index, parseQuery('Li Wei'), page).results[0]?.id).toBe('2604.00003');
    expect(runSearch(index, parseQuery('reward model'), page).byAuthor).toBe(0);
  });

  it('lists newest first when asked, the same papers as by relevance', () => {
    const relevance = ids('reward');
    const newest = ids('reward', { ...page, sort: 'newest' });
    expect(newest).toEqual(['2604.00003', '2604.00002', '2604.00001']);
    expect([...newest].sort()).toEqual([...relevance].sort());
  });
});
