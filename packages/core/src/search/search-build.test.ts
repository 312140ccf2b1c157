import { describe, expect, it } from 'vitest';
import type MiniSearch from 'minisearch';
import { buildPaperIndex, PaperIndexBuilder } from './search-build.ts';
import { createPaperIndex, toSearchDoc, type SearchDoc } from './search-config.ts';
import { PAPERS } from './test-papers.ts';

const docs: SearchDoc[] = PAPERS.map(({ paper, tags }) => toSearchDoc(paper, tags));

/** The serialised index with terms in a fixed order (tree order depends on insertion order). */
function canonical(index: MiniSearch<SearchDoc>) {
  const plain = index.toJSON();
  return { ...plain, index: [...plain.index].sort(([a], [b]) => (a < b ? -1 : 1)) };
}

describe('buildPaperIndex', () => {
  it('makes exactly the index addAll makes', () => {
    const added = createPaperIndex();
    added.addAll(docs);
    const built = buildPaperIndex(docs);
    expect(canonical(built)).toEqual(canonical(added));
    for (const q of ['reinforc', 'reward model', 'muller', 'retreival', 'graph']) {
      expect(built.search(q)).toEqual(added.search(q));
    }
  });

  it('gives an index that takes later changes like any other', () => {
    const built = buildPaperIndex(docs.slice(1));
    const first = docs[0];
    if (!first) throw new Error('no papers');
    built.add(first);
    built.replace({ ...first, title: 'Zeugma' });
    expect(built.search('zeugma').map((r) => String(r.id))).toEqual([first.id]);
    expect(built.documentCount).toBe(docs.length);
  });

  it('refuses a paper added twice', () => {
    const builder = new PaperIndexBuilder();
    const first = docs[0];
    if (!first) throw new Error('no papers');
    builder.add(first);
    expect(() => builder.add(first)).toThrow(/added twice/);
  });
});
