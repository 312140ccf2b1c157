import { defaultTaxonomy } from '@quire/core';
import { describe, expect, it } from 'vitest';
import { editDistance, nearestTopics } from './topic-suggestions.ts';

// The real taxonomy's slugs and names, as the directory lists them.
const topics = defaultTaxonomy().topics.map(({ slug, name }) => ({ slug, name }));
const slugs = (typed: string): string[] => nearestTopics(typed, topics).map((t) => t.slug);

describe('editDistance', () => {
  it('counts insertions, deletions and substitutions', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('same', 'same')).toBe(0);
  });

  it('stops past the limit with limit + 1', () => {
    expect(editDistance('abcdef', 'uvwxyz', 2)).toBe(3);
    expect(editDistance('a', 'abcdefgh', 2)).toBe(3);
  });
});

describe('nearestTopics', () => {
  it('finds a slug with a letter missing, swapped or doubled first', () => {
    expect(slugs('reinforcment-learning')[0]).toBe('reinforcement-learning');
    expect(slugs('process-rewrad-models')[0]).toBe('process-reward-models');
    expect(slugs('policy-optimizationn')[0]).toBe('policy-optimization');
  });

  it('finds a topic from its name typed into the address', () => {
    expect(slugs('Process%20Reward%20Models')[0]).toBe('process-reward-models');
    expect(slugs('credit assignment in rl')[0]).toBe('credit-assignment-in-rl');
  });

  it('suggests nothing for words far from every topic, and at most three', () => {
    expect(slugs('quantum-chromodynamics-lattice')).toEqual([]);
    expect(slugs('')).toEqual([]);
    expect(nearestTopics('rl', topics).length).toBeLessThanOrEqual(3);
  });
});
