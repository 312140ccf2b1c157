import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { normalisePaper } from '@quire/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from './open-store.ts';

let dir: string;
let store: Store;

const segments = () =>
  store.db.prepare(`SELECT count(DISTINCT segid) FROM paper_search_idx`).pluck().get() as number;
const matching = (word: string) =>
  store.db.prepare(`SELECT count(*) FROM paper_search WHERE paper_search MATCH ?`).pluck().get(`"${word}"`);

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quire-upkeep-'));
  store = openStore(join(dir, 'quire.db'));
  // Four batches, four segments.
  for (let batch = 0; batch < 4; batch++) {
    store.papers.upsertBatch(
      Array.from({ length: 10 }, (_, i) =>
        normalisePaper({
          id: `2604.${String(10000 + batch * 10 + i)}`,
          title: `Agents ${batch} ${i}`,
          abstract: batch === 3 ? 'Robots that plan.' : 'Agents that learn.',
          authors: ['Ada Lovelace'],
          categories: ['cs.LG'],
          listingDate: '2026-04-01',
        }),
      ),
      { countsAsListing: true },
    );
  }
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('merging the search index after a bulk load', () => {
  it('leaves it alone after a small share of it, merges it into one segment after a large one', () => {
    expect(segments()).toBe(4);
    // 4 of 40 papers: a tenth, under the share.
    expect(store.searchUpkeep.afterBulkLoad(4)).toBe(false);
    expect(segments()).toBe(4);
    expect(store.searchUpkeep.afterBulkLoad(10)).toBe(true);
    expect(segments()).toBe(1);
    // The same papers match.
    expect(matching('agent')).toBe(40);
    expect(matching('robot')).toBe(10);
    expect(matching('learn')).toBe(30);
  });
});
