import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PaperEntity } from '@quire/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { QuireError } from '../errors.ts';
import { openStore, type Store } from './open-store.ts';
import { LISTING, testPaper } from './paper-fixture.ts';

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

const paper = testPaper;

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
  it('leaves a paper untouched when the same record comes again', () => {
    store.papers.upsertBatch([paper()], LISTING);
    clock = new Date('2026-05-02T12:00:00Z');
    expect(store.papers.upsertBatch([paper()], LISTING)).toEqual({ inserted: 0, updated: 0, unchanged: 1 });
    expect(updatedAt('2604.01234')).toBe('2026-05-01T12:00:00.000Z');
  });

  it('keeps paper_categories in step with a paper whose categories change', () => {
    store.papers.upsertBatch([paper()], LISTING);
    store.papers.upsertBatch([paper({ categories: ['cs.CL', 'cs.LG', 'stat.ML'] })], LISTING);
    expect(categoriesOf('2604.01234')).toEqual(['cs.CL', 'cs.LG', 'stat.ML']);
    expect(store.papers.get('2604.01234')?.primaryCategory).toBe('cs.CL');
    expect(store.papers.idsInCategory('cs.AI')).toEqual([]);
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

  it('takes a batch into the open transaction with upsertInTransaction, and refuses it outside one', () => {
    expect(() => store.papers.upsertInTransaction([paper()], LISTING)).toThrow(/outside a transaction/);
    expect(() => store.papers.upsertInTransaction([paper()], LISTING)).toThrow(
      expect.objectContaining({ code: 'store-error' }),
    );
    store.transaction(() => {
      expect(store.papers.upsertInTransaction([paper()], LISTING)).toEqual({
        inserted: 1,
        updated: 0,
        unchanged: 0,
      });
      store.state.setCheckpoint('oai:cs:arXiv', { token: 'abc' });
    });
    expect(store.papers.get('2604.01234')?.title).toBe(paper().title);
    expect(store.state.getCheckpoint('oai:cs:arXiv')).toEqual({ token: 'abc' });
  });
});
