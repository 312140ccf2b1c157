import { describe, expect, it } from 'vitest';
import {
  describeNeighbours,
  neighbourShares,
  neighbourSupport,
  withNeighbourShares,
  type TaggedNeighbour,
} from './neighbour-shares.ts';

const near = (id: string, sim: number, topics: string[]): TaggedNeighbour => ({
  id,
  title: `Paper ${id}`,
  sim,
  topics,
});

// Similarities 0.4 + 0.3 + 0.1 = 0.8: x is on the first two (0.7 / 0.8), y on the first (0.4 / 0.8), z on
// the last, named twice (0.1 / 0.8, once).
const NEIGHBOURS = [near('a', 0.4, ['x', 'y']), near('b', 0.3, ['x']), near('c', 0.1, ['z', 'z'])];

describe('neighbour shares', () => {
  it('weighs each topic by the similarity of the neighbours that carry it', () => {
    const shares = neighbourShares(NEIGHBOURS);
    expect([...shares.keys()].sort()).toEqual(['x', 'y', 'z']);
    expect(shares.get('x')).toBeCloseTo(0.875, 10);
    expect(shares.get('y')).toBeCloseTo(0.5, 10);
    expect(shares.get('z')).toBeCloseTo(0.125, 10);
  });

  it('gives nothing for no neighbours, and 0 to a passing topic none of them has', () => {
    expect(neighbourShares([]).size).toBe(0);
    const tags = withNeighbourShares(
      [
        { slug: 'x', score: 4, evidence: [] },
        { slug: 'w', score: 3, evidence: [] },
      ],
      NEIGHBOURS,
    );
    expect(tags.map((t) => [t.slug, t.neighbourShare])).toEqual([
      ['x', 0.88],
      ['w', 0],
    ]);
  });

  it('says how many neighbours carry a topic, quoting the most similar first', () => {
    const support = neighbourSupport([...NEIGHBOURS].reverse(), 'x');
    expect(support).toEqual({ share: 0.875, tagged: 2, of: 3, titles: ['Paper a', 'Paper b'] });
    expect(describeNeighbours(support, 'Topic X', 3.5)).toBe(
      '2 of its 3 nearest papers are tagged Topic X (share 0.88), e.g. “Paper a”, “Paper b”: +3.50 to the log-odds',
    );
  });
});
