import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { normalisePaper, type PaperEntity } from '@quire/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { oneEditAway } from '../search/typo-candidates.ts';
import { openStore, type Store } from './open-store.ts';
import { SearchIndex } from './search-index.ts';
import { RANGE_TERMS, sharedPrefix } from './search-vocabulary.ts';

let dir: string;
let store: Store;
let index: SearchIndex;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quire-search-vocabulary-'));
  store = openStore(join(dir, 'quire.db'));
  index = new SearchIndex(store.db);
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

function paper(id: string, abstract: string): PaperEntity {
  return normalisePaper({
    id,
    title: 'A title',
    abstract,
    authors: ['Ada Lovelace'],
    categories: ['cs.LG'],
    listingDate: '2026-04-02',
  });
}

const byTerm = (found: { term: string; docs: number }[]) =>
  [...found].sort((a, b) => (a.term < b.term ? -1 : 1));

describe('the vocabulary read for a word’s spellings', () => {
  it('finds spellings edited in either half of the word, with their papers', () => {
    store.papers.upsertBatch(
      [
        // One edit late in the word (read through the range of its first half) and one early (read one by one).
        paper('2604.00001', 'segmentation methods'),
        paper('2604.00002', 'segmentation again'),
        paper('2604.00003', 'sigmetnation appears once'),
        // Two edits away: not a spelling of the word.
        paper('2604.00004', 'segmentatoin twice edited'),
      ],
      { countsAsListing: true },
    );
    const spellings = oneEditAway('segmetnation');
    expect(sharedPrefix(spellings)).toBe('segm');
    expect(byTerm(index.vocabulary(spellings))).toEqual([
      { term: 'segmentation', docs: 2 },
      { term: 'sigmetnation', docs: 1 },
    ]);
  });

  it('reads past a range holding more terms than it reads at once', () => {
    // Terms sharing the word's first half that sort before its spellings fill the range first.
    const filler = [...'abcdefghijklmnopqrstuvwxy'].flatMap((a) =>
      [...'abcdefghij'].map((b) => `lanta${a}${b}`),
    );
    expect(filler.length).toBeGreaterThan(RANGE_TERMS);
    store.papers.upsertBatch(
      [
        paper('2604.00001', filler.join(' ')),
        paper('2604.00002', 'lantzzzzzy'),
        paper('2604.00003', 'lantzzzzzy'),
      ],
      { countsAsListing: true },
    );
    const spellings = oneEditAway('lantzzzzzz');
    expect(sharedPrefix(spellings)).toBe('lant');
    expect(index.vocabulary(spellings)).toEqual([{ term: 'lantzzzzzy', docs: 2 }]);
  });

  it('looks a short list up term by term', () => {
    store.papers.upsertBatch([paper('2604.00001', 'segmentation')], { countsAsListing: true });
    expect(index.vocabulary(['segmentation', 'segmenter', 'unknown'])).toEqual([
      { term: 'segmentation', docs: 1 },
    ]);
  });
});
