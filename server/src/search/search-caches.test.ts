import { describe, expect, it } from 'vitest';
import type { ColumnDocs, PaperTextRow } from '../store/search-index.ts';
import { BoundedCache, PaperTermsCache, TermCountsCache } from './search-caches.ts';

const row = (overrides: Partial<PaperTextRow> = {}): PaperTextRow => ({
  id: '2604.01234',
  title: 'Planning agents',
  abstract: 'Agents plan.',
  authors: JSON.stringify([{ name: 'Ada Lovelace' }]),
  primary_category: 'cs.AI',
  listing_date: '2026-04-02',
  ...overrides,
});

describe('BoundedCache', () => {
  it('forgets the entry used longest ago once full', () => {
    const cache = new BoundedCache<string, number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1); // b is now the least recently used
    cache.set('c', 3);
    expect([cache.get('a'), cache.get('b'), cache.get('c'), cache.size]).toEqual([1, undefined, 3, 2]);
  });
});

describe('PaperTermsCache', () => {
  it('tokenizes a paper once, and again when its text changed', () => {
    const cache = new PaperTermsCache();
    const first = cache.of(row());
    expect(first.fields.title).toEqual(['planning', 'agent']);
    expect(cache.of(row())).toBe(first);
    const changed = cache.of(row({ title: 'Robots' }));
    expect(changed.fields.title).toEqual(['robot']);
    expect(cache.of(row({ authors: JSON.stringify([{ name: 'Alan Turing' }]), title: 'Robots' }))).not.toBe(
      changed,
    );
  });
});

describe('TermCountsCache', () => {
  const counts = (term: string): ColumnDocs[] => [{ term, field: 'title', docs: term.length }];

  it('reads only the terms it does not hold, remembers terms found nowhere, and forgets all on drift', async () => {
    const cache = new TermCountsCache();
    const asked: string[][] = [];
    const read = (terms: readonly string[]) => {
      asked.push([...terms]);
      return Promise.resolve(terms.filter((t) => t !== 'nowhere').flatMap(counts));
    };
    expect(await cache.counts(['agent', 'nowhere'], 1000, read)).toEqual(counts('agent'));
    expect(await cache.counts(['agent', 'nowhere', 'plan'], 1005, read)).toEqual([
      ...counts('agent'),
      ...counts('plan'),
    ]);
    expect(asked).toEqual([['agent', 'nowhere'], ['plan']]);
    // More than 1% more papers: every count is read again.
    await cache.counts(['agent'], 1020, read);
    expect(asked.at(-1)).toEqual(['agent']);
  });
});
