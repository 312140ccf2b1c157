import { describe, expect, it } from 'vitest';
import { NeighbourIndexBuilder, type NeighbourSource } from './neighbour-index.ts';

const paper = (id: string, title: string, abstract: string, topics: string[] = []): NeighbourSource => ({
  id,
  title,
  abstract,
  topics,
});

// Made-up papers: twenty fillers in pairs sharing a word of their own ("kabo", "kabe", ...), every paper
// saying "method" and "results" (words in every paper carry nothing), and a few about zeolite catalysis.
const syllables = ['ka', 'lo', 'mi', 'nu', 'pe', 'ri', 'so', 'tu', 'vi', 'zo'];
const fillers = Array.from({ length: 20 }, (_, i) =>
  paper(
    `f${i}`,
    `A method for ${syllables[i >> 1]}bor`,
    `Our method gives results on ${syllables[i >> 1]}bor.`,
  ),
);
const zeolite = [
  paper('q', 'Zeolite catalysis', 'A method for zeolite catalysis with results.', ['chemistry']),
  paper('same', 'Zeolite catalysis', 'A method for zeolite catalysis with results.', [
    'chemistry',
    'science',
  ]),
  paper('half', 'Zeolite pores', 'A method with results on zeolite pores.', ['materials']),
];

// Words in more than a fifth of these 23 papers ("method", "results") are left out.
function built(papers: NeighbourSource[]) {
  const builder = new NeighbourIndexBuilder({ maxDfShare: 0.2 });
  builder.add(papers.slice(0, 5));
  builder.add(papers.slice(5));
  return builder.build();
}

describe('NeighbourIndex', () => {
  it('finds the papers sharing rare words, most similar first, never the paper itself', () => {
    const index = built([...fillers, ...zeolite]);
    const near = index.nearest(zeolite[0]!);
    expect(near.map((n) => n.id)).toEqual(['same', 'half']);
    // The same words in the same counts: the same unit vector, cosine 1 (weights are stored in a byte).
    expect(near[0]?.sim).toBeCloseTo(1, 2);
    expect(near[1]?.sim).toBeGreaterThan(0);
    expect(near[1]?.sim).toBeLessThan(near[0]?.sim ?? 0);
    expect(near[0]).toMatchObject({ title: 'Zeolite catalysis', topics: ['chemistry', 'science'] });
  });

  it('answers for a paper it has not indexed, and respects k', () => {
    const index = built([...fillers, ...zeolite]);
    const outside = { id: 'new', title: 'Zeolite catalysis', abstract: '' };
    expect(index.nearest(outside).map((n) => n.id)).toEqual(['q', 'same', 'half']);
    expect(index.nearest(outside, 1).map((n) => n.id)).toEqual(['q']);
    expect(index.nearest(outside, 0)).toEqual([]);
  });

  it('links no papers through words in most papers or in one paper only', () => {
    const index = built([...fillers, ...zeolite]);
    expect(index.nearest({ id: 'x', title: 'Method results', abstract: 'method, results' })).toEqual([]);
    // "quasar" appears nowhere, "kabor" in two papers: only those two.
    const near = index.nearest({ id: 'x', title: 'Quasar kabor', abstract: '' });
    expect(near.map((n) => n.id).sort()).toEqual(['f0', 'f1']);
  });

  it('finds papers added after build, and advises a rebuild once it has grown by a quarter', () => {
    const index = built([...fillers, ...zeolite]);
    expect(index.size).toBe(23);
    index.add([paper('late', 'Catalysis in zeolite', 'zeolite catalysis', ['late-topic'])]);
    expect(index.size).toBe(24);
    const near = index.nearest({ id: 'q', title: 'Zeolite catalysis', abstract: '' });
    expect(near.map((n) => n.id)).toContain('late');
    expect(near.find((n) => n.id === 'late')?.topics).toEqual(['late-topic']);
    expect(index.rebuildAdvised).toBe(false);
    // 23 × 1.25 = 28.75: the 29th paper makes it.
    index.add(Array.from({ length: 4 }, (_, i) => paper(`more${i}`, 'Pores', 'pores')));
    expect(index.rebuildAdvised).toBe(false);
    index.add([paper('more4', 'Pores', 'pores')]);
    expect(index.size).toBe(29);
    expect(index.rebuildAdvised).toBe(true);
  });

  it('keeps a paper posted under its heaviest terms only', () => {
    // One posting term: each paper is found only through its single heaviest word.
    const builder = new NeighbourIndexBuilder({ postingTerms: 1, maxDfShare: 1 });
    builder.add([
      paper('a', 'Rare', 'common common'),
      paper('b', 'Rare', 'common'),
      paper('c', 'Other', 'common'),
      paper('d', 'Other', 'common'),
      paper('e', 'Other', 'common'),
    ]);
    const index = builder.build();
    // "common" is in all five, idf ln(5/5) = 0: it weighs nothing and is never a posting term.
    expect(index.nearest({ id: 'z', title: '', abstract: 'common' })).toEqual([]);
    expect(index.nearest({ id: 'z', title: 'Rare', abstract: '' }).map((n) => n.id)).toEqual(['a', 'b']);
  });

  it('reads only the heaviest postings of a term up to the cap', () => {
    const builder = new NeighbourIndexBuilder({ postingCap: 1, maxDfShare: 1 });
    builder.add([
      paper('light', 'Other words here', 'rare'),
      paper('heavy', 'Rare', 'rare rare'),
      paper('x', 'Other', 'words here'),
    ]);
    const index = builder.build();
    // "rare" weighs most in `heavy` (title twice, then twice more): its list reads `heavy` first, only it.
    expect(index.nearest({ id: 'z', title: 'Rare', abstract: '' }).map((n) => n.id)).toEqual(['heavy']);
  });

  it('is empty when built from nothing', () => {
    const index = new NeighbourIndexBuilder().build();
    expect(index.size).toBe(0);
    expect(index.rebuildAdvised).toBe(false);
    expect(index.nearest({ id: 'q', title: 'Zeolite catalysis', abstract: 'zeolite' })).toEqual([]);
  });
});
