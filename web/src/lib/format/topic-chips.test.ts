import { describe, expect, it } from 'vitest';
import { CHIP_LIMIT, chipsFor } from './topic-chips.ts';

interface Tag {
  slug: string;
  name: string;
  direct: boolean;
  depth: number;
  score: number;
}

const tag = (slug: string, direct: boolean, depth: number, score = 1, name = slug): Tag => ({
  slug,
  name,
  direct,
  depth,
  score,
});
const slugs = (tags: readonly Tag[]): string[] => tags.map((t) => t.slug);

describe('chipsFor', () => {
  it('puts direct tags before implied ones, deeper first, then higher score, then name', () => {
    // Broad to narrow, as the API lists them.
    const tags = [
      tag('rl', false, 0, 3.2),
      tag('ml', false, 0, 3.2),
      tag('agentic-rl', false, 1, 3.2),
      tag('llm', true, 0, 2.5),
      tag('rl-for-llm-agents', true, 2, 3.2),
      tag('credit-assignment', true, 2, 1.4),
      tag('reward-models', true, 1, 1.4, 'Reward Models'),
      tag('preference-learning', true, 1, 1.4, 'Preference Learning'),
    ];
    expect(slugs(chipsFor(tags, 20))).toEqual([
      'rl-for-llm-agents',
      'credit-assignment',
      'preference-learning',
      'reward-models',
      'llm',
      'agentic-rl',
      'ml',
      'rl',
    ]);
  });

  it('keeps at most six by default, dropping the broadest implied ones first', () => {
    const tags = [
      tag('a', false, 0),
      tag('b', false, 1),
      tag('c', true, 1),
      tag('d', true, 2),
      tag('e', false, 0),
      tag('f', true, 0),
      tag('g', false, 2),
      tag('h', true, 3),
    ];
    const shown = chipsFor(tags);
    expect(CHIP_LIMIT).toBe(6);
    expect(slugs(shown)).toEqual(['h', 'd', 'c', 'f', 'g', 'b']);
    expect(shown[0]?.direct).toBe(true);
  });

  it('caps direct tags too, and honours a smaller cap', () => {
    const tags = Array.from({ length: 9 }, (_, i) => tag(`t${i}`, true, 1, i));
    expect(slugs(chipsFor(tags))).toEqual(['t8', 't7', 't6', 't5', 't4', 't3']);
    expect(slugs(chipsFor(tags, 2))).toEqual(['t8', 't7']);
    expect(chipsFor(tags, 0)).toEqual([]);
  });

  it('returns every tag, ordered, when there are six or fewer, and leaves the input alone', () => {
    const tags = [tag('broad', false, 0), tag('narrow', true, 1)];
    expect(slugs(chipsFor(tags))).toEqual(['narrow', 'broad']);
    expect(slugs(tags)).toEqual(['broad', 'narrow']);
    expect(chipsFor([])).toEqual([]);
  });

  it('keeps the current topic in the last place when it would be cut', () => {
    const tags = [
      ...Array.from({ length: 6 }, (_, i) => tag(`d${i}`, true, 2, 6 - i)),
      tag('parent', false, 1),
      tag('root', false, 0),
    ];
    expect(slugs(chipsFor(tags, 6, 'root'))).toEqual(['d0', 'd1', 'd2', 'd3', 'd4', 'root']);
    expect(slugs(chipsFor(tags, 6, 'd1'))).toEqual(['d0', 'd1', 'd2', 'd3', 'd4', 'd5']);
    expect(slugs(chipsFor(tags, 6, 'not-a-tag'))).toEqual(['d0', 'd1', 'd2', 'd3', 'd4', 'd5']);
  });
});
