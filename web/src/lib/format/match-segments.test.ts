import { describe, expect, it } from 'vitest';
import { matchSegments } from './match-segments.ts';

describe('matchSegments', () => {
  it('marks whole words that start with a matched term, case-insensitively', () => {
    expect(matchSegments('Credit assignments across Turns.', ['credit', 'turn'])).toEqual([
      { text: 'Credit', hit: true },
      { text: ' assignments across ', hit: false },
      { text: 'Turns', hit: true },
      { text: '.', hit: false },
    ]);
  });

  it('leaves words that only contain a term inside them alone', () => {
    expect(matchSegments('Discredit it', ['credit'])).toEqual([{ text: 'Discredit it', hit: false }]);
  });
});
