import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { normalisePaper, type PaperEntity } from '@quire/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from './open-store.ts';
import { SearchColumnCounts } from './search-column-counts.ts';

let dir: string;
let store: Store;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quire-column-counts-'));
  store = openStore(join(dir, 'quire.db'));
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * 300 papers stored in order (docs 1-300): "lantern" in every abstract and in the title of every third
 * paper, "quokka" in five abstracts, "zebra" in the authors of every tenth.
 */
function papers(): PaperEntity[] {
  return Array.from({ length: 300 }, (_, i) =>
    normalisePaper({
      id: `2604.${String(10000 + i)}`,
      title: (i + 1) % 3 === 0 ? `Lantern study ${i}` : `Plain study ${i}`,
      abstract: `A lantern abstract${i < 5 ? ' about a quokka' : ''}.`,
      authors: [(i + 1) % 10 === 0 ? 'Ada Zebra' : 'Ada Lovelace'],
      categories: ['cs.LG'],
      listingDate: '2026-04-02',
    }),
  );
}

const byColumn = (rows: { term: string; field: string; docs: number }[]) =>
  Object.fromEntries(rows.map((r) => [`${r.term} ${r.field}`, r.docs]));

describe('per-column counts of terms', () => {
  it('counts a term in fewer papers than the sample exactly, in every column', () => {
    store.papers.upsertBatch(papers(), { countsAsListing: true });
    const counts = new SearchColumnCounts(store.db, { sample: 30, sampleDocs: 90 });
    expect(byColumn(counts.counts(['quokka', 'zebra', 'absent'], 300))).toEqual({
      'quokka abstract': 5,
      'zebra authors': 30,
    });
  });

  it("estimates a common term's columns from its newest matches, near the true counts", () => {
    store.papers.upsertBatch(papers(), { countsAsListing: true });
    const counts = byColumn(
      new SearchColumnCounts(store.db, { sample: 30, sampleDocs: 90 }).counts(['lantern'], 300),
    );
    // Every abstract: the newest 30 reach back a tenth of the docs.
    expect(counts['lantern abstract']).toBe(300);
    // Every third title: 30 of them reach back to doc 213, 88 docs, so about 102.
    expect(counts['lantern title']).toBeGreaterThanOrEqual(95);
    expect(counts['lantern title']).toBeLessThanOrEqual(105);
    expect(counts['lantern authors']).toBeUndefined();
  });

  it("counts a common term's column exactly when its matches there fit the sample and every doc is read", () => {
    store.papers.upsertBatch(papers(), { countsAsListing: true });
    const counts = new SearchColumnCounts(store.db, { sample: 200, sampleDocs: 1_000 });
    expect(byColumn(counts.counts(['lantern'], 300))).toEqual({
      'lantern title': 100,
      'lantern abstract': 300,
    });
  });
});
