import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { normalisePaper, type PaperEntity } from '@quire/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { oneEditAway } from '../search/typo-candidates.ts';
import { openStore, type Store } from './open-store.ts';
import { optimizeSearchIndex } from './search-index-schema.ts';
import { SearchIndex } from './search-index.ts';
import {
  lookUpTerms,
  RANGE_TERMS,
  segmentsIn,
  sharedPrefix,
  type TermDocs,
  type VocabularyReads,
} from './search-vocabulary.ts';

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

/**
 * A paper stored in a batch of its own, so the index holds more than one segment and a long list of
 * spellings is read through its shared prefix's range, as these tests mean to.
 */
function secondSegment(into: Store): void {
  into.papers.upsertBatch([paper('2604.09999', 'unrelated words')], { countsAsListing: true });
  expect(new SearchIndex(into.db).segments()).toBeGreaterThan(1);
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
    secondSegment(store);
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
    secondSegment(store);
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
      secondSegment(own);
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
    secondSegment(store);
    expect(index.vocabulary(oneEditAway(misspelt))).toEqual([{ term: word, docs: 2 }]);
  });

  it('looks a short list up term by term', () => {
    store.papers.upsertBatch([paper('2604.00001', 'segmentation')], { countsAsListing: true });
    expect(index.vocabulary(['segmentation', 'segmenter', 'unknown'])).toEqual([
      { term: 'segmentation', docs: 1 },
    ]);
  });
});

describe('the vocabulary of an index merged into one segment', () => {
  /** Reads that answer from `indexed` and record whether a range was asked for. */
  function recorded(indexed: readonly TermDocs[]) {
    const asked = { ranges: 0, terms: 0 };
    const read: VocabularyReads = {
      terms: (some) => {
        asked.terms += some.length;
        return indexed.filter((t) => some.includes(t.term));
      },
      range: (from, to, limit) => {
        asked.ranges += 1;
        return indexed.filter((t) => t.term >= from && t.term < to).slice(0, limit);
      },
    };
    return { asked, read };
  }

  it('looks every spelling up one by one: a seek each, no range counted', () => {
    const indexed = [
      { term: 'segmentation', docs: 2 },
      { term: 'segmented', docs: 5 },
    ];
    const spellings = oneEditAway('segmetnation');
    const one = recorded(indexed);
    expect(lookUpTerms(spellings, one.read, 1)).toEqual([{ term: 'segmentation', docs: 2 }]);
    expect(one.asked).toEqual({ ranges: 0, terms: spellings.length });
    // More segments: the shared prefix is read as a range, with the same answer.
    const many = recorded(indexed);
    expect(lookUpTerms(spellings, many.read, 2)).toEqual([{ term: 'segmentation', docs: 2 }]);
    expect(many.asked.ranges).toBe(1);
  });

  it('counts the segments from FTS5’s structure record, one after the merge', () => {
    for (const n of [1, 2, 3]) {
      store.papers.upsertBatch([paper(`2604.0000${n}`, `segmentation batch${n}`)], { countsAsListing: true });
    }
    expect(index.segments()).toBe(3);
    const spellings = oneEditAway('segmetnation');
    const before = byTerm(index.vocabulary(spellings));
    optimizeSearchIndex(store.db);
    expect(index.segments()).toBe(1);
    expect(byTerm(index.vocabulary(spellings))).toEqual(before);
    expect(before).toEqual([{ term: 'segmentation', docs: 3 }]);
  });

  it('reads a structure record too short to say as many segments', () => {
    expect(segmentsIn(undefined)).toBe(Infinity);
    expect(segmentsIn(Uint8Array.from([0, 0, 0, 1]))).toBe(Infinity);
    // Cookie, then 1 level and 300 segments (a two-byte varint).
    expect(segmentsIn(Uint8Array.from([0, 0, 0, 1, 0x01, 0x82, 0x2c]))).toBe(300);
    expect(segmentsIn(Uint8Array.from([0, 0, 0, 1, 0xff, 0, 0, 1, 0x01, 0x01, 0x00]))).toBe(1);
  });
});
