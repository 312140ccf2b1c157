import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { normalisePaper, type PaperEntity, type RawPaper } from '@quire/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { QuireError } from '../errors.ts';
import { openStore, type Store } from './open-store.ts';

let dir: string;
let store: Store;
let clock: Date;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quire-papers-'));
  clock = new Date('2026-05-01T12:00:00Z');
  store = openStore(join(dir, 'quire.db'), { now: () => clock });
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

function paper(overrides: Partial<RawPaper> = {}): PaperEntity {
  return normalisePaper({
    id: '2604.01234',
    title: 'Step-Level Credit Assignment for LLM Agents',
    abstract: 'We assign credit to steps. Code at https://github.com/example/steps.',
    authors: ['Ada Lovelace', 'Alan Turing'],
    categories: ['cs.LG', 'cs.AI'],
    listingDate: '2026-04-02',
    comment: '12 pages',
    doi: '10.1000/steps',
    ...overrides,
  });
}

const LISTING = { countsAsListing: true };
const REPLACEMENT = { countsAsListing: false };

function categoriesOf(id: string): string[] {
  return store.db
    .prepare<[string], string>('SELECT category FROM paper_categories WHERE paper_id = ? ORDER BY category')
    .pluck()
    .all(id);
}

function updatedAt(id: string): string | undefined {
  return store.db.prepare<[string], string>('SELECT updated_at FROM papers WHERE id = ?').pluck().get(id);
}

describe('PaperStore.upsertBatch', () => {
  it('inserts new papers and reads them back exactly', () => {
    const a = paper();
    const b = paper({ id: '2604.05678', categories: ['cs.CL'], listingDate: '2026-04-03' });
    expect(store.papers.upsertBatch([a, b], LISTING)).toEqual({ inserted: 2, updated: 0, unchanged: 0 });
    expect(store.papers.get(a.id)).toEqual(a);
    expect(store.papers.get(b.id)).toEqual(b);
    expect(store.papers.has(a.id)).toBe(true);
    expect(store.papers.has('2604.99999')).toBe(false);
    expect(store.papers.get('2604.99999')).toBeUndefined();
    expect(store.papers.count()).toBe(2);
    expect(store.papers.ids()).toEqual(['2604.01234', '2604.05678']);
    expect(categoriesOf(a.id)).toEqual(['cs.AI', 'cs.LG']);
    expect(store.papers.idsInCategory('cs.AI')).toEqual([a.id]);
  });

  it('leaves a paper untouched when the same record comes again', () => {
    store.papers.upsertBatch([paper()], LISTING);
    clock = new Date('2026-05-02T12:00:00Z');
    expect(store.papers.upsertBatch([paper()], LISTING)).toEqual({ inserted: 0, updated: 0, unchanged: 1 });
    expect(updatedAt('2604.01234')).toBe('2026-05-01T12:00:00.000Z');
  });

  it('lets a read listing date replace an estimated one, even a later one', () => {
    store.papers.upsertBatch([paper({ listingDate: '2026-04-01', listingDateEstimated: true })], LISTING);
    const counts = store.papers.upsertBatch([paper({ listingDate: '2026-04-02' })], LISTING);
    expect(counts.updated).toBe(1);
    const stored = store.papers.get('2604.01234');
    expect(stored?.listingDate).toBe('2026-04-02');
    expect(stored?.listingDateEstimated).toBe(false);

    // An estimate arriving afterwards never displaces the read date.
    store.papers.upsertBatch([paper({ listingDate: '2026-03-30', listingDateEstimated: true })], LISTING);
    expect(store.papers.get('2604.01234')?.listingDate).toBe('2026-04-02');
  });

  it('keeps the earliest read listing date', () => {
    store.papers.upsertBatch([paper({ listingDate: '2026-04-03' })], LISTING);
    store.papers.upsertBatch([paper({ listingDate: '2026-04-01' })], LISTING);
    store.papers.upsertBatch([paper({ listingDate: '2026-04-09' })], LISTING);
    expect(store.papers.get('2604.01234')?.listingDate).toBe('2026-04-01');
  });

  it('updates metadata from a replacement but keeps the listing date', () => {
    store.papers.upsertBatch([paper()], LISTING);
    const replacement = paper({
      title: 'Step-Level Credit Assignment for LLM Agents (revised)',
      listingDate: '2026-04-20',
      versions: [{ version: 2, submitted: '2026-04-18T10:00:00Z' }],
    });
    expect(store.papers.upsertBatch([replacement], REPLACEMENT)).toEqual({
      inserted: 0,
      updated: 1,
      unchanged: 0,
    });
    const stored = store.papers.get('2604.01234');
    expect(stored?.title).toBe('Step-Level Credit Assignment for LLM Agents (revised)');
    expect(stored?.listingDate).toBe('2026-04-02');
    expect(stored?.versions.map((v) => v.version)).toEqual([2]);
  });

  it('does not take a replacement date as the listing date of a paper it has not seen listed', () => {
    store.papers.upsertBatch([paper({ listingDate: '2026-04-20' })], REPLACEMENT);
    expect(store.papers.get('2604.01234')?.listingDate).toBeNull();
    store.papers.upsertBatch([paper({ listingDate: '2026-04-02' })], LISTING);
    expect(store.papers.get('2604.01234')?.listingDate).toBe('2026-04-02');
  });

  it('never erases known metadata with a source that lacks it', () => {
    store.papers.upsertBatch([paper({ journalRef: 'ICML 2026' })], LISTING);
    const sparse = paper({
      comment: null,
      doi: null,
      journalRef: null,
      abstract: 'We assign credit to steps.',
    });
    store.papers.upsertBatch([sparse], LISTING);
    const stored = store.papers.get('2604.01234');
    expect(stored?.comment).toBe('12 pages');
    expect(stored?.doi).toBe('10.1000/steps');
    expect(stored?.journalRef).toBe('ICML 2026');
    expect(stored?.abstract).toBe('We assign credit to steps.');
  });

  it('keeps paper_categories in step with a paper whose categories change', () => {
    store.papers.upsertBatch([paper()], LISTING);
    store.papers.upsertBatch([paper({ categories: ['cs.CL', 'cs.LG', 'stat.ML'] })], LISTING);
    expect(categoriesOf('2604.01234')).toEqual(['cs.CL', 'cs.LG', 'stat.ML']);
    expect(store.papers.get('2604.01234')?.primaryCategory).toBe('cs.CL');
    expect(store.papers.idsInCategory('cs.AI')).toEqual([]);
  });

  it('merges two records of one paper within a batch', () => {
    const counts = store.papers.upsertBatch(
      [paper({ listingDate: '2026-04-03' }), paper({ listingDate: '2026-04-02', doi: null })],
      LISTING,
    );
    expect(counts).toEqual({ inserted: 1, updated: 1, unchanged: 0 });
    expect(store.papers.get('2604.01234')?.listingDate).toBe('2026-04-02');
    expect(store.papers.get('2604.01234')?.doi).toBe('10.1000/steps');
  });

  it('stores nothing of a batch that fails part way, and leaves earlier rows as they were', () => {
    store.papers.upsertBatch([paper()], LISTING);
    const changed = paper({ title: 'Changed in the failing batch' });
    const fresh = paper({ id: '2604.00001' });
    // A record that slipped past normalisation without a title breaks the NOT NULL constraint.
    const broken = { ...paper({ id: '2604.00002' }), title: null } as unknown as PaperEntity;
    const after = paper({ id: '2604.00003' });

    let error: unknown;
    try {
      store.papers.upsertBatch([changed, fresh, broken, after], LISTING);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(QuireError);
    expect((error as QuireError).code).toBe('store-error');
    expect((error as QuireError).message).toMatch(/2604\.00002.*none of the batch was stored/);

    expect(store.papers.count()).toBe(1);
    expect(store.papers.get('2604.01234')?.title).toBe('Step-Level Credit Assignment for LLM Agents');
    expect(store.papers.has('2604.00001')).toBe(false);
    expect(store.db.prepare('SELECT COUNT(*) FROM paper_categories').pluck().get()).toBe(2);
  });
});

describe('PaperStore.transaction', () => {
  it('commits papers and a checkpoint together', () => {
    store.transaction(() => {
      store.papers.upsertBatch([paper()], LISTING);
      store.state.setCheckpoint('oai:cs:arXiv', { token: 'abc' });
    });
    expect(store.papers.count()).toBe(1);
    expect(store.state.getCheckpoint('oai:cs:arXiv')).toEqual({ token: 'abc' });
  });

  it('rolls papers and checkpoint back together when the caller fails after storing', () => {
    store.state.setCheckpoint('oai:cs:arXiv', { token: 'before' });
    expect(() =>
      store.transaction(() => {
        store.papers.upsertBatch([paper()], LISTING);
        store.state.setCheckpoint('oai:cs:arXiv', { token: 'after' });
        throw new Error('the harvester crashed');
      }),
    ).toThrow('the harvester crashed');
    expect(store.papers.count()).toBe(0);
    expect(store.state.getCheckpoint('oai:cs:arXiv')).toEqual({ token: 'before' });
  });
});

describe('PaperStore queries', () => {
  beforeEach(() => {
    store.papers.upsertBatch(
      [
        paper({ id: '2604.00001', categories: ['cs.LG'], listingDate: '2026-04-01' }),
        paper({ id: '2604.00002', categories: ['cs.CV', 'cs.LG'], listingDate: '2026-04-02' }),
        paper({ id: '2604.00003', categories: ['cs.CV'], listingDate: '2026-04-02' }),
        paper({ id: '2604.00004', categories: ['cs.CV'], listingDate: '2026-04-07' }),
        paper({ id: '2604.00005', categories: ['cs.AI'], listingDate: null }),
      ],
      LISTING,
    );
  });

  it('summarises by primary category, largest first, and the listing range', () => {
    const stats = store.papers.stats();
    expect(stats).toEqual({
      papers: 5,
      byPrimaryCategory: { 'cs.CV': 3, 'cs.AI': 1, 'cs.LG': 1 },
      firstListing: '2026-04-01',
      lastListing: '2026-04-07',
    });
    expect(Object.keys(stats.byPrimaryCategory)).toEqual(['cs.CV', 'cs.AI', 'cs.LG']);
  });

  it('reports an empty store with null listing bounds', () => {
    const empty = openStore(':memory:');
    try {
      expect(empty.papers.stats()).toEqual({
        papers: 0,
        byPrimaryCategory: {},
        firstListing: null,
        lastListing: null,
      });
    } finally {
      empty.close();
    }
  });

  it('lists papers by listing date, newest first, and counts them per day', () => {
    expect(store.papers.byListingDate('2026-04-02', '2026-04-07').map((p) => p.id)).toEqual([
      '2604.00004',
      '2604.00003',
      '2604.00002',
    ]);
    expect(store.papers.countByListingDay()).toEqual({ '2026-04-01': 1, '2026-04-02': 2, '2026-04-07': 1 });
  });
});
