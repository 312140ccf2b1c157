import { describe, expect, it } from 'vitest';
import { insertBySavedAt, parseSavedPapers, savableOf, snapshotOf, type SavedPaper } from './saved-paper.ts';

const paper = {
  id: '2603.01234',
  title: 'Sparse attention',
  authors: [
    { name: 'Ada Lovelace', affiliations: ['Analytical Engines'] },
    { name: 'Alan Turing', affiliations: [] },
  ],
  listingDate: '2026-03-09',
  primaryCategory: 'cs.LG',
};

function saved(id: string, savedAt: string): SavedPaper {
  return { ...snapshotOf({ ...paper, id }, new Date(savedAt)), id };
}

describe('snapshotOf', () => {
  it('keeps what a list needs offline, authors by name', () => {
    expect(snapshotOf(paper, new Date('2026-03-10T08:00:00Z'))).toEqual({
      id: '2603.01234',
      title: 'Sparse attention',
      authors: ['Ada Lovelace', 'Alan Turing'],
      listingDate: '2026-03-09',
      primaryCategory: 'cs.LG',
      savedAt: '2026-03-10T08:00:00.000Z',
    });
  });
});

describe('savableOf', () => {
  it('takes a list entry of author names, and saves what it shows', () => {
    const entry = { ...paper, authors: ['Ada Lovelace', 'Alan Turing'], authorCount: 5, score: 0.4 };
    const savable = savableOf(entry);
    expect(savable).toEqual({
      id: '2603.01234',
      title: 'Sparse attention',
      authors: [
        { name: 'Ada Lovelace', affiliations: [] },
        { name: 'Alan Turing', affiliations: [] },
      ],
      listingDate: '2026-03-09',
      primaryCategory: 'cs.LG',
    });
    expect(snapshotOf(savable, new Date('2026-03-10T08:00:00Z')).authors).toEqual(entry.authors);
  });
});

describe('parseSavedPapers', () => {
  it('reads back what was stored', () => {
    const list = [saved('2603.00002', '2026-03-11T00:00:00Z'), saved('2603.00001', '2026-03-10T00:00:00Z')];
    expect(parseSavedPapers(JSON.stringify(list))).toEqual(list);
  });

  it('drops malformed entries and repeated ids, and survives garbage', () => {
    const good = saved('2603.00001', '2026-03-10T00:00:00Z');
    const raw = JSON.stringify([good, { id: 3 }, { ...good, title: 'again' }, null, 'x']);
    expect(parseSavedPapers(raw)).toEqual([good]);
    expect(parseSavedPapers('{not json')).toEqual([]);
    expect(parseSavedPapers('{"id":"x"}')).toEqual([]);
    expect(parseSavedPapers(null)).toEqual([]);
  });
});

describe('insertBySavedAt', () => {
  it('puts an entry back between the ones saved after and before it', () => {
    const a = saved('a', '2026-03-12T00:00:00Z');
    const b = saved('b', '2026-03-11T00:00:00Z');
    const c = saved('c', '2026-03-10T00:00:00Z');
    expect(insertBySavedAt([a, c], b).map((p) => p.id)).toEqual(['a', 'b', 'c']);
    expect(insertBySavedAt([b, c], a).map((p) => p.id)).toEqual(['a', 'b', 'c']);
    expect(insertBySavedAt([a, b], c).map((p) => p.id)).toEqual(['a', 'b', 'c']);
  });
});
