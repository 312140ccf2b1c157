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

  it('finds a spelling that is exactly the first or the second term past a full range', () => {
    // RANGE_TERMS - 1 + k fillers sort before the spelling, so it is the range's last term read (k = 1),
    // the one read only to know the range is full (k = 2), or the first after it (k = 3).
    for (const k of [1, 2, 3]) {
      const at = mkdtempSync(join(tmpdir(), 'quire-search-vocabulary-'));
      const own = openStore(join(at, 'quire.db'));
      const filler = Array.from(
        { length: RANGE_TERMS - 2 + k },
        (_, i) => `lanta${String(i).padStart(4, '0')}`,
      );
      own.papers.upsertBatch([paper('2604.00001', filler.join(' ')), paper('2604.00002', 'lantzzzzzy')], {
        countsAsListing: true,
      });
      const found = new SearchIndex(own.db).vocabulary(oneEditAway('lantzzzzzz'));
      own.close();
      rmSync(at, { recursive: true, force: true });
      expect(found, `spelling after ${filler.length} fillers`).toEqual([{ term: 'lantzzzzzy', docs: 1 }]);
    }
  });

  it('finds the spellings of a word of characters beyond the Basic Multilingual Plane', () => {
    // Two CJK Extension B letters: a shared prefix cut in UTF-16 units ends inside the third one's pair.
    const word = '\u{2000B}\u{2000C}\u{2000D}abcd';
    const misspelt = '\u{2000B}\u{2000C}\u{2000D}abcz';
    expect(sharedPrefix(oneEditAway(misspelt))).toMatch(/[\uD800-\uDBFF]$/);
    store.papers.upsertBatch([paper('2604.00001', word), paper('2604.00002', word)], {
      countsAsListing: true,
    });
    expect(index.vocabulary(oneEditAway(misspelt))).toEqual([{ term: word, docs: 2 }]);
  });

  it('looks a short list up term by term', () => {
    store.papers.upsertBatch([paper('2604.00001', 'segmentation')], { countsAsListing: true });
    expect(index.vocabulary(['segmentation', 'segmenter', 'unknown'])).toEqual([
      { term: 'segmentation', docs: 1 },
    ]);
  });
});
