import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { normalisePaper, type PaperEntity, type RawPaper } from '@quire/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, migrate } from './migrations.ts';
import { openStore, type Store } from './open-store.ts';
import { UPSERT_PAPERS, paperRowValues } from './paper-queries.ts';
import { SearchIndex, type IndexFilters } from './search-index.ts';
import { readVarints } from './sqlite-varints.ts';

let dir: string;
let store: Store;
let index: SearchIndex;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quire-search-index-'));
  store = openStore(join(dir, 'quire.db'));
  index = new SearchIndex(store.db);
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

function paper(overrides: Partial<RawPaper> = {}): PaperEntity {
  return normalisePaper({
    id: '2604.01234',
    title: 'Multi-Agent Credit Assignment for \\textbf{O}ffline Policies',
    abstract: 'We assign credit to steps of Müller’s agents.',
    authors: ['Jean-Pierre Serre', 'Ada Lovelace'],
    categories: ['cs.LG', 'cs.AI'],
    listingDate: '2026-04-02',
    ...overrides,
  });
}

const NONE: IndexFilters = { topics: null, topicsFrom: 'tags', categories: null, from: null, to: null };
const LISTING = { countsAsListing: true };
const matching = (match: string, filters = NONE) =>
  index.newest(match, filters, { limit: 10, offset: 0 }).ids;

describe('the search index', () => {
  it('holds a paper’s terms as core reads them from the moment it is stored', () => {
    store.papers.upsertBatch([paper()], LISTING);
    for (const match of [
      '"offline"',
      '"policy"',
      '"multiagent"',
      '"multi agent"',
      '"muller"',
      'authors : "jpserre"',
    ]) {
      expect(matching(match), match).toEqual(['2604.01234']);
    }
    // Function words are not indexed, so a phrase reads across them.
    expect(matching('"credit assignment offline"')).toEqual(['2604.01234']);
    expect(matching('"for"')).toEqual([]);
  });

  it('follows updates: new words in, old words out, a new listing date', () => {
    store.papers.upsertBatch([paper()], LISTING);
    store.papers.upsertBatch([paper({ title: 'Quokka Credit Assignment' })], LISTING);
    // The merge rule keeps a paper's first listing date; a correction is written like this.
    store.db.prepare(`UPDATE papers SET listing_date = '2026-04-09'`).run();
    expect(matching('"quokka"')).toEqual(['2604.01234']);
    expect(matching('"offline"')).toEqual([]);
    expect(matching('"credit"', { ...NONE, from: '2026-04-09', to: '2026-04-09' })).toEqual(['2604.01234']);
    expect(matching('"credit"', { ...NONE, to: '2026-04-08' })).toEqual([]);
    expect(index.indexedPapers()).toBe(1);
    store.db.prepare('DELETE FROM papers WHERE id = ?').run('2604.01234');
    expect(matching('"quokka"')).toEqual([]);
  });

  it('commits with the papers or not at all', () => {
    expect(() =>
      store.transaction(() => {
        store.papers.upsertBatch([paper()], LISTING);
        throw new Error('the batch failed after the papers');
      }),
    ).toThrow(/batch failed/);
    expect(matching('"credit"')).toEqual([]);
    expect(store.db.prepare('SELECT count(*) FROM search_docs').pluck().get()).toBe(0);
  });

  it('filters by any of a paper’s categories, whole archives too, in any case', () => {
    store.papers.upsertBatch(
      [
        paper(),
        paper({ id: '2604.05678', categories: ['math.OC'] }),
        paper({ id: '2604.09999', categories: ['cs.RO'] }),
      ],
      LISTING,
    );
    const by = (categories: string[]) => matching('"credit"', { ...NONE, categories }).sort();
    expect(by(['cs.ai'])).toEqual(['2604.01234']);
    expect(by(['cs'])).toEqual(['2604.01234', '2604.09999']);
    expect(by(['math.oc', 'cs.ro'])).toEqual(['2604.05678', '2604.09999']);
    expect(by(['c'])).toEqual([]);
  });

  it('knows the mean terms per column from FTS5’s own totals, also after updates', () => {
    store.papers.upsertBatch([paper(), paper({ id: '2604.05678', title: 'Short Title' })], LISTING);
    // multi agent credit assignment offline policy multiagent; short title
    expect(index.averageTerms().title).toBe(4.5);
    store.papers.upsertBatch([paper({ id: '2604.05678', title: 'Short New Title' })], LISTING);
    // The old title stays counted beside the new one: (7 + 2 + 3) / 3.
    expect(index.averageTerms().title).toBe(4);
    expect(index.indexedPapers()).toBe(2);
    expect(readVarints(Uint8Array.from([0x81, 0x00, 0x05]))).toEqual([128, 5]);
  });

  it('is filled by the migration for papers stored before it', () => {
    const db = new BetterSqlite3(join(dir, 'older.db'));
    try {
      const step = MIGRATIONS.findIndex((m) => m.name === 'search-index');
      migrate(db, MIGRATIONS.slice(0, step));
      const upsert = db.prepare(UPSERT_PAPERS(1));
      for (const p of [paper(), paper({ id: '2604.05678', title: 'Quokka' })]) {
        upsert.run(paperRowValues(p, '2026-05-01T00:00:00Z'));
      }
      migrate(db);
      const older = new SearchIndex(db);
      expect(older.newest('"quokka"', NONE, { limit: 10, offset: 0 }).ids).toEqual(['2604.05678']);
      expect(older.indexedPapers()).toBe(2);
    } finally {
      db.close();
    }
  });

  it('indexes a paper changed outside the paper store with the next batch', () => {
    store.papers.upsertBatch([paper()], LISTING);
    const raw = new BetterSqlite3(join(dir, 'quire.db'));
    try {
      raw.prepare("UPDATE papers SET title = 'Wombat Credit' WHERE id = '2604.01234'").run();
    } finally {
      raw.close();
    }
    expect(matching('"wombat"')).toEqual([]);
    store.papers.upsertBatch([paper({ id: '2604.05678' })], LISTING);
    expect(matching('"wombat"')).toEqual(['2604.01234']);
    expect(matching('"offline"')).toEqual(['2604.05678']);
  });
});
