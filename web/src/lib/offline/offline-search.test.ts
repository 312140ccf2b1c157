import { CoreError } from '@quire/core';
import { describe, expect, it } from 'vitest';
import type { PaperView } from '../api/types.ts';
import type { PaperChanges, PaperRecord } from './offline-data.ts';
import type { IndexSnapshot } from './offline-index.ts';
import { OfflineSearch, type OfflineSearchStore } from './offline-search.ts';
import { testPaper } from './test-paper.ts';

/** OfflineData's contract in memory, counting the papers the index asks for. */
class MemoryStore implements OfflineSearchStore {
  readonly papers = new Map<string, PaperRecord>();
  snapshot: IndexSnapshot | undefined;
  read: string[] = [];
  clock = 0;
  readonly #listeners = new Set<(changes: PaperChanges) => void>();

  onPapersChanged(listener: (changes: PaperChanges) => void): () => boolean {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  put(...papers: PaperView[]): void {
    const stored = papers.map((paper) => ({ id: paper.id, paper, storedAt: ++this.clock }));
    for (const record of stored) this.papers.set(record.id, record);
    for (const listener of this.#listeners) listener({ stored, deleted: [] });
  }

  evict(...ids: string[]): void {
    for (const id of ids) this.papers.delete(id);
    for (const listener of this.#listeners) listener({ stored: [], deleted: ids });
  }

  getPapers(ids: readonly string[]): Promise<Map<string, PaperRecord>> {
    this.read.push(...ids);
    const found = new Map<string, PaperRecord>();
    for (const id of ids) {
      const record = this.papers.get(id);
      if (record) found.set(id, record);
    }
    return Promise.resolve(found);
  }

  paperIds(): Promise<string[]> {
    return Promise.resolve([...this.papers.keys()]);
  }

  paperIdsStoredSince(since: number): Promise<string[]> {
    return Promise.resolve([...this.papers.values()].filter((r) => r.storedAt >= since).map((r) => r.id));
  }

  readIndexSnapshot(): Promise<IndexSnapshot | undefined> {
    return Promise.resolve(this.snapshot);
  }

  writeIndexSnapshot(snapshot: IndexSnapshot): Promise<boolean> {
    this.snapshot = snapshot;
    return Promise.resolve(true);
  }
}

const A = testPaper('2604.00001', 'Process reward models', 'Step-level credit assignment for web agents.', {
  authors: ['Jane Doe', 'Wei Li', 'Ada Lovelace', 'Alan Turing'],
});
const B = testPaper('2604.00002', 'Gaussian splatting', 'Real-time radiance fields for web scenes.');
const C = testPaper('2604.00003', 'Agents on the web', 'Credit for web tasks, assignment aside.');

const page = { limit: 10, offset: 0 };
const idsOf = async (search: OfflineSearch, q: string) =>
  (await search.search(q, page)).results.map((r) => r.id);

describe('OfflineSearch', () => {
  it('answers in the server’s shape: highlights, three authors and a count', async () => {
    const store = new MemoryStore();
    store.put(A, B);
    const search = new OfflineSearch(store, { format: 'build-1' });
    const answer = await search.search('credit asignment', page);
    expect(answer.total).toBe(1);
    const [hit] = answer.results;
    expect(hit?.authors).toEqual(['Jane Doe', 'Wei Li', 'Ada Lovelace']);
    expect(hit?.authorCount).toBe(4);
    expect(hit?.highlights.abstract.filter((s) => s.hit).map((s) => s.text)).toEqual([
      'credit',
      'assignment',
    ]);
    expect(search.size).toBe(2);
  });

  it('checks quoted phrases word for word, as the server does', async () => {
    const store = new MemoryStore();
    store.put(A, C);
    const search = new OfflineSearch(store, { format: 'build-1' });
    expect((await idsOf(search, 'credit assignment')).sort()).toEqual([A.id, C.id]);
    expect(await idsOf(search, '"credit assignment"')).toEqual([A.id]);
  });

  it('follows papers stored and evicted while it is loaded', async () => {
    const store = new MemoryStore();
    store.put(A);
    const search = new OfflineSearch(store, { format: 'build-1' });
    await search.ready();
    store.put(B);
    expect(await idsOf(search, 'splatting')).toEqual([B.id]);
    store.evict(B.id);
    expect(await idsOf(search, 'splatting')).toEqual([]);
  });

  it('starts from its saved index and reads only the papers stored since', async () => {
    const store = new MemoryStore();
    store.put(A, B);
    const first = new OfflineSearch(store, { format: 'build-1' });
    await first.ready();
    await first.flush();
    expect(store.snapshot?.ids.sort()).toEqual([A.id, B.id]);

    // Later, with the index not loaded: C is stored, A is evicted.
    store.put(C);
    store.papers.delete(A.id);
    store.read = [];
    const next = new OfflineSearch(store, { format: 'build-1' });
    await next.ready();
    // C, and B again only because it sits at the saved watermark; never the whole store.
    expect(store.read.sort()).toEqual([B.id, C.id]);
    expect(next.size).toBe(2);
    expect(await idsOf(next, 'process')).toEqual([]);
    expect(await idsOf(next, 'agents')).toEqual([C.id]);

    // Another build does not trust the saved index and indexes everything kept.
    store.read = [];
    await new OfflineSearch(store, { format: 'build-2' }).ready();
    expect(store.read.sort()).toEqual([B.id, C.id]);
  });

  it('refuses a malformed filter with core’s message', async () => {
    const search = new OfflineSearch(new MemoryStore(), { format: 'build-1' });
    await expect(search.search('from:2026-13-01', page)).rejects.toThrow(CoreError);
  });
});
