import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { normalisePaper, type PaperEntity } from '@quire/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from './open-store.ts';
import { SearchIndex, type IndexFilters } from './search-index.ts';

let dir: string;
let store: Store;
let index: SearchIndex;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quire-titled-window-'));
  store = openStore(join(dir, 'quire.db'));
  index = new SearchIndex(store.db);
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * 40 papers whose abstracts repeat "lantern" (stored first, listed in April), then two listed in May
 * with "lantern" once in the title and not in the abstract: by the query's weights they rank below
 * every abstract, by their titles alone above them all.
 */
function papers(): PaperEntity[] {
  const abstracts = Array.from({ length: 40 }, (_, i) =>
    normalisePaper({
      id: `2604.${String(10000 + i)}`,
      title: `Plain study ${i}`,
      abstract: 'A lantern, a lantern and a lantern.',
      authors: ['Ada Lovelace'],
      categories: ['cs.LG'],
      listingDate: '2026-04-02',
    }),
  );
  const titled = ['2605.00001', '2605.00002'].map((id) =>
    normalisePaper({
      id,
      title: 'The lantern',
      abstract: 'Nothing else said here at all, in many more words than the others have.',
      authors: ['Ada Lovelace'],
      categories: ['cs.LG'],
      listingDate: '2026-05-02',
    }),
  );
  return [...abstracts, ...titled];
}

const NONE: IndexFilters = { topics: null, topicsFrom: 'tags', categories: null, from: null, to: null };
const WEIGHTS = { title: 1, authors: 1, abstract: 1 };

describe('the ranked window with the titles’ best', () => {
  it('gives the best by their titles beside the page when more match than the window ranks', () => {
    store.papers.upsertBatch(papers(), { countsAsListing: true });
    for (const filters of [NONE, { ...NONE, from: '2026-01-01' }]) {
      const page = index.ranked('"lantern"', filters, WEIGHTS, {
        limit: 5,
        offset: 0,
        window: 20,
        titles: 2,
      });
      expect(page.total).toBe(42);
      expect(page.rows).toHaveLength(5);
      expect(page.rows.map((r) => r.paperId)).not.toContain('2605.00001');
      expect(page.titled?.map((r) => r.paperId).sort()).toEqual(['2605.00001', '2605.00002']);
    }
  });

  it('gives none when the window ranks every match, and none unless asked', () => {
    store.papers.upsertBatch(papers(), { countsAsListing: true });
    const page = { limit: 5, offset: 0, window: 100 };
    expect(index.ranked('"lantern"', NONE, WEIGHTS, { ...page, titles: 2 }).titled).toEqual([]);
    expect(
      index.ranked('"lantern"', { ...NONE, from: '2026-01-01' }, WEIGHTS, { ...page, titles: 2 }).titled,
    ).toEqual([]);
    expect(index.ranked('"lantern"', NONE, WEIGHTS, { ...page, window: 20 }).titled).toBeUndefined();
  });
});
