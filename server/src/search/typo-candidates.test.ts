import { describe, expect, it } from 'vitest';
import { editDistance, oneEditAway, prefixEnd } from './typo-candidates.ts';

describe('oneEditAway', () => {
  it('has the word with a letter dropped, swapped, replaced or added, and not the word itself', () => {
    const near = new Set(oneEditAway('retrieval'));
    for (const word of ['retrieva', 'retreival', 'retrieveal', 'rtrieval']) {
      expect(near.has(word), word).toBe(true);
    }
    expect(near.has('retrieval')).toBe(false);
    expect(near.has('retrievals')).toBe(true);
    // Digits only where the word has one.
    expect(near.has('retrieval5')).toBe(false);
    expect(oneEditAway('gpt4')).toContain('gpt5');
  });

  it('uses the word’s own letters for accented or non-Latin words', () => {
    expect(oneEditAway('αβγ')).toContain('αγ');
    expect(oneEditAway('αβγ')).toContain('αββγ');
  });
});

describe('editDistance', () => {
  it('counts drops, additions, replacements and neighbour swaps as one edit each', () => {
    expect(editDistance('retrieval', 'retreival', 2)).toBe(1);
    expect(editDistance('retrieval', 'retrieve', 2)).toBe(2);
    expect(editDistance('model', 'model', 2)).toBe(0);
    expect(editDistance('representation', 'reprsentaton', 2)).toBe(2);
  });

  it('stops at max + 1', () => {
    expect(editDistance('graph', 'neural', 2)).toBe(3);
    expect(editDistance('a', 'abcdef', 2)).toBe(3);
  });
});

describe('prefixEnd', () => {
  it('is past every string with the prefix and before the next prefix', () => {
    const end = prefixEnd('lear');
    expect('learning' < end && 'lear' < end).toBe(true);
    expect(end <= 'leas').toBe(true);
  });
});
