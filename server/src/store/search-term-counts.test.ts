import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { normalisePaper, type PaperEntity } from '@quire/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from './open-store.ts';
import { SearchIndex } from './search-index.ts';
import { refreshTermCounts } from './search-term-counts.ts';

let dir: string;
let store: Store;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quire-term-counts-'));
  store = openStore(join(dir, 'quire.db'));
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const LISTING = { countsAsListing: true };
const WORDS = ['policy', 'policies', 'policing', 'polish', 'polar', 'agent', 'agents', 'credit'];

function paper(i: number, title = `Credit ${WORDS[i % WORDS.length] ?? ''} study ${i}`): PaperEntity {
  return normalisePaper({
    id: `2604.${String(10000 + i)}`,
    title,
    abstract: `We assign credit to agents with ${WORDS[(i * 3) % WORDS.length] ?? ''} and policy ${i}.`,
    authors: [`Ada Lovelace${String.fromCharCode(97 + (i % 5))}`],
    categories: ['cs.LG'],
    listingDate: '2026-04-02',
  });
}

/** What the index answers for the vocabulary reads a search makes, order of unordered lists aside. */
function reads(index: SearchIndex) {
  const terms = [...WORDS, 'credit', 'study', 'assign', 'nothere', 'polcy', 'plicy'];
  const sorted = <T>(rows: T[]) => rows.map((r) => JSON.stringify(r)).sort();
  return {
    columns: sorted(index.columnVocabulary(terms)),
    terms: sorted(index.vocabulary(terms)),
    ranges: ['', 'p', 'po', 'pol', 'poli', 'polic', 'a', 'c', 'z'].flatMap((from) =>
      [1, 2, 3, 5, 100].map((limit) => index.vocabularyRange(from, `${from}\u{10ffff}`, limit)),
    ),
  };
}

describe('the common terms’ kept counts', () => {
  it('answer every vocabulary read as FTS5 counts it', () => {
    store.papers.upsertBatch(
      Array.from({ length: 40 }, (_, i) => paper(i)),
      LISTING,
    );
    const index = new SearchIndex(store.db);
    // Filled by the migration step in an empty store: too far from the papers now indexed to be read.
    const counted = reads(index);
    refreshTermCounts(store.db, 3);
    expect(reads(index)).toEqual(counted);
    refreshTermCounts(store.db, 1);
    expect(reads(index)).toEqual(counted);
  });

  it('are read while the index holds about as many papers, and FTS5 counts again past that', () => {
    store.papers.upsertBatch(
      Array.from({ length: 200 }, (_, i) => paper(i)),
      LISTING,
    );
    const index = new SearchIndex(store.db);
    refreshTermCounts(store.db, 2);
    const before = index.columnVocabulary(['credit']);
    // A paper's text changed: the index holds as many papers, so the kept counts still answer.
    store.papers.upsertBatch([paper(0, 'Nothing in common')], LISTING);
    expect(index.columnVocabulary(['credit'])).toEqual(before);
    // More papers than the drift allows: counted by FTS5, the changed paper's title gone from the count.
    store.papers.upsertBatch(
      Array.from({ length: 10 }, (_, i) => paper(1000 + i, `Unrelated ${i}`)),
      LISTING,
    );
    const title = index.columnVocabulary(['credit']).find((c) => c.field === 'title');
    expect(title?.docs).toBe(199);
  });
});
