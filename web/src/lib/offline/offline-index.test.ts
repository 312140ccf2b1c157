import { parseQuery, runSearch } from '@quire/core';
import { describe, expect, it } from 'vitest';
import { OfflineIndex } from './offline-index.ts';
import { testPaper as paper } from './test-paper.ts';

const ids = (index: OfflineIndex, q: string) =>
  runSearch(index.index, parseQuery(q), { limit: 10, offset: 0 }).results.map((r) => r.id);

const A = paper('2604.00001', 'Process reward models', 'Step-level credit assignment for agents.', {
  tags: ['prm'],
});
const B = paper('2604.00002', 'Gaussian splatting', 'Real-time radiance fields.');

describe('OfflineIndex', () => {
  it('searches what was added with the shared syntax: prefix, typo, topic filter', () => {
    const index = OfflineIndex.empty('build-1');
    index.upsert([
      { paper: A, storedAt: 10 },
      { paper: B, storedAt: 20 },
    ]);
    expect(index.size).toBe(2);
    expect(index.watermark).toBe(20);
    expect(ids(index, 'splat')).toEqual([B.id]);
    expect(ids(index, 'gausian')).toEqual([B.id]);
    expect(ids(index, 'topic:prm')).toEqual([A.id]);
  });

  it('replaces a paper stored again instead of indexing it twice, and forgets removed ones', () => {
    const index = OfflineIndex.empty('build-1');
    index.upsert([{ paper: A, storedAt: 10 }]);
    index.upsert([{ paper: { ...A, title: 'Verifier models' }, storedAt: 30 }]);
    expect(index.size).toBe(1);
    expect(ids(index, 'verifier')).toEqual([A.id]);
    expect(ids(index, 'process')).toEqual([]);
    index.remove([A.id, 'never-indexed']);
    expect(index.size).toBe(0);
    expect(ids(index, 'verifier')).toEqual([]);
  });

  it('comes back from its snapshot whole, and only from a snapshot of the same build', () => {
    const index = OfflineIndex.empty('build-1');
    index.upsert([
      { paper: A, storedAt: 10 },
      { paper: B, storedAt: 20 },
    ]);
    const snapshot = index.snapshot();
    const restored = OfflineIndex.restore('build-1', snapshot);
    expect(restored.size).toBe(2);
    expect(restored.watermark).toBe(20);
    expect(restored.dirty).toBe(false);
    expect(ids(restored, 'radiance')).toEqual([B.id]);
    expect(OfflineIndex.restore('build-2', snapshot).size).toBe(0);
    expect(OfflineIndex.restore('build-1', { ...snapshot, json: '{broken' }).size).toBe(0);
  });

  it('plans a catch-up: new and re-stored papers are indexed, papers no longer kept are dropped', () => {
    const index = OfflineIndex.empty('build-1');
    index.upsert([
      { paper: A, storedAt: 10 },
      { paper: B, storedAt: 20 },
    ]);
    // B was stored again at the watermark, C is new, A was evicted while the index was not loaded.
    const plan = index.plan(['2604.00002', '2604.00003'], ['2604.00002', '2604.00003']);
    expect(plan.index.sort()).toEqual(['2604.00002', '2604.00003']);
    expect(plan.discard).toEqual(['2604.00001']);
    // A paper reported as re-stored but no longer kept is not indexed.
    expect(index.plan(['2604.00001'], ['2604.00009']).index).toEqual([]);
  });
});
