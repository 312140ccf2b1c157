import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIELD_BOOSTS, normalisePaper, type PaperEntity } from '@quire/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from './open-store.ts';
import { estimatedTotal, roundedTotal, type IndexFilters } from './search-index.ts';
import { word } from './search-match.ts';
import { openSearchReader, type SearchReader } from './search-reader.ts';

let dir: string;
let store: Store;
let reader: SearchReader;

const AGENT = word('agent');
const NONE: IndexFilters = { topics: null, topicsFrom: 'tags', categories: null, from: null, to: null };

function paper(n: number, title: string, category = 'cs.LG'): PaperEntity {
  return normalisePaper({
    id: `2604.${String(10000 + n)}`,
    title,
    abstract: `Paper ${n} is about one thing.`,
    authors: ['Ada Lovelace'],
    categories: [category],
    listingDate: `2026-04-${String(1 + (n % 28)).padStart(2, '0')}`,
  });
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quire-search-reader-'));
  store = openStore(join(dir, 'quire.db'));
  store.papers.upsertBatch(
    [
      paper(1, 'Agents that plan', 'cs.AI'),
      paper(2, 'Planning agents for planning agents'),
      paper(3, 'Robots', 'cs.RO'),
      paper(4, 'Agents and robots', 'cs.RO'),
      paper(5, 'Agents everywhere'),
    ],
    { countsAsListing: true },
  );
  reader = openSearchReader(join(dir, 'quire.db'));
});
afterEach(async () => {
  await reader.close();
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the search thread’s reader', () => {
  it('reads the file through a connection of its own, as the writer stored it', async () => {
    expect(await reader.countMatches(AGENT, NONE)).toBe(4);
  });

  it('best: the same first rows as ranked when the window holds every match, counting nothing', async () => {
    const page = { limit: 5, offset: 0, window: 100 };
    const ranked = (await reader.ranked(AGENT, NONE, FIELD_BOOSTS, page)).rows;
    const best = await reader.best(AGENT, NONE, FIELD_BOOSTS, { limit: 5, window: 100 });
    // ranked scores every match inside FTS5 (its rank column), best through bm25(): the same function.
    expect(best.map((r) => r.paperId)).toEqual(ranked.map((r) => r.paperId));
    best.forEach((r, i) => expect(r.score).toBeCloseTo(ranked[i]?.score ?? NaN, 6));
    const cs = { ...NONE, categories: ['cs.ro'] };
    const filtered = (await reader.ranked(AGENT, cs, FIELD_BOOSTS, page)).rows;
    expect(filtered.map((r) => r.paperId)).toEqual(['2604.10004']);
    expect(await reader.best(AGENT, cs, FIELD_BOOSTS, { limit: 5, window: 100 })).toEqual(filtered);
  });

  it('best: only the window’s most recently indexed matches are ranked', async () => {
    const ids = (await reader.best(AGENT, NONE, FIELD_BOOSTS, { limit: 2, window: 2 })).map((r) => r.paperId);
    expect(ids.sort()).toEqual(['2604.10004', '2604.10005']);
  });
});

describe('totals past the exact count', () => {
  it('estimates from how far back the window reached, exact while few enough match', async () => {
    // 60 more papers with "agent": 64 in all, every other one in cs.RO.
    store.papers.upsertBatch(
      Array.from({ length: 60 }, (_, i) => paper(100 + i, `Agent ${i}`, i % 2 === 0 ? 'cs.RO' : 'cs.LG')),
      { countsAsListing: true },
    );
    const capped = openSearchReader(join(dir, 'quire.db'), { exactTotalUpTo: 30 });
    const page = { limit: 5, offset: 0, window: 16 };
    const all = await capped.ranked(AGENT, NONE, FIELD_BOOSTS, page);
    expect(all).toMatchObject({ estimated: true });
    expect(all.rows).toHaveLength(5);
    // Matches are spread evenly over the 65 papers, 64 of them: the window's 16 reach back 16 papers.
    expect(all.total).toBeGreaterThanOrEqual(60);
    expect(all.total).toBeLessThanOrEqual(66);
    const robots = await capped.ranked(AGENT, { ...NONE, categories: ['cs.ro'] }, FIELD_BOOSTS, page);
    expect(robots).toMatchObject({ estimated: true });
    expect(robots.total).toBeGreaterThanOrEqual(28);
    expect(robots.total).toBeLessThanOrEqual(36);
    // Within the exact count: counted.
    expect(await capped.ranked(word('robot'), NONE, FIELD_BOOSTS, page)).toMatchObject({
      total: 2,
      estimated: false,
    });
    expect(await reader.ranked(AGENT, NONE, FIELD_BOOSTS, page)).toMatchObject({
      total: 64,
      estimated: false,
    });
    const exactRobots = await reader.ranked(AGENT, { ...NONE, categories: ['cs.ro'] }, FIELD_BOOSTS, page);
    expect(exactRobots).toMatchObject({ total: 31, estimated: false });
    // Past the cap but all in the window: the window's own count, told as an estimate like any past the cap.
    const wide = { ...page, window: 100 };
    expect(await capped.ranked(AGENT, NONE, FIELD_BOOSTS, wide)).toMatchObject({
      total: 64,
      estimated: true,
    });
    const wideRobots = await capped.ranked(AGENT, { ...NONE, categories: ['cs.ro'] }, FIELD_BOOSTS, wide);
    expect(wideRobots).toMatchObject({ total: 31, estimated: true });
    // A prefix counted through its word, a subset of its matches, answers as the prefix does: past the
    // cap either way, and counted in full when the word alone is not.
    const prefix = await capped.ranked(word('agen', true), NONE, FIELD_BOOSTS, page);
    expect(await capped.ranked(word('agen', true), NONE, FIELD_BOOSTS, { ...page, subset: AGENT })).toEqual(
      prefix,
    );
    expect(prefix).toMatchObject({ estimated: true });
    await capped.close();
    const few = await reader.ranked(word('robot', true), NONE, FIELD_BOOSTS, page);
    expect(
      await reader.ranked(word('robot', true), NONE, FIELD_BOOSTS, { ...page, subset: word('robot') }),
    ).toEqual(few);
  });

  it('rounds an estimate to two significant digits, from no fewer than were counted', () => {
    expect(estimatedTotal(5_000, 2_000_001, 2_680_000, 20_001)).toBe(20_000);
    expect(estimatedTotal(5_000, 2_670_001, 2_680_000, 20_001)).toBe(1_300_000);
    expect(estimatedTotal(5_000, 2_600_001, 2_680_000, 5_000)).toBe(170_000);
    expect(estimatedTotal(16, 1, 65, 16)).toBe(16);
    expect([6_634, 1_001, 1_049, 1_050, 94_499, 99_950, 64].map(roundedTotal)).toEqual([
      6_600, 1_000, 1_000, 1_100, 94_000, 100_000, 64,
    ]);
  });
});
