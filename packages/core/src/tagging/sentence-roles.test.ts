import { describe, expect, it } from 'vitest';
import { placeOf, sentenceBounds, sentencesOf } from './sentence-roles.ts';

/** The rule sentenceBounds implements, as the engine first wrote it. */
function splitByPattern(abstract: string): string[] {
  return abstract
    .split(/(?<=[.!?])\s+(?=[A-Z0-9(["'$\\])/)
    .map((text) => text.trim())
    .filter((text) => text.length > 0);
}

function piecesOf(abstract: string): string[] {
  const bounds = sentenceBounds(abstract);
  const pieces: string[] = [];
  for (let k = 0; k < bounds.length; k += 2) pieces.push(abstract.slice(bounds[k], bounds[k + 1]));
  return pieces;
}

describe('sentence bounds', () => {
  const cases = [
    '',
    '   ',
    'One sentence without an end',
    '  Leading space. Trailing space.   ',
    'We propose X. It works! Does it? (Yes.) [1] cites "this". $x$ is \\alpha. 3 runs.',
    'e.g. this is one. i.e. lower case does not split. Nor does a.b. Or 0.5 of it.',
    'Ends.\nNew line.\tTab.\u00a0No-break space.\u2028Line separator.\u3000Ideographic space.\ufeffBOM.',
    'Many spaces.     Then more.  \n  And a newline run.',
    'Punctuation runs... Then?! More!? Yes.',
    'A dot at the end.',
    'A space then lower. then Upper. ',
    'Ünïcödé. Ελληνικά. 日本語。 Next.',
    '. ! ? . Start. ',
  ];
  it('gives the pieces of the lookbehind split, trimmed, never empty', () => {
    for (const text of cases) expect(piecesOf(text), JSON.stringify(text)).toEqual(splitByPattern(text));
  });

  it('reads every sentence with its role', () => {
    expect(sentencesOf('We build X. Our code is available at github.com/x. Unlike RL, we do Y.')).toEqual([
      { text: 'We build X.', role: 'plain' },
      { text: 'Our code is available at github.com/x.', role: 'boilerplate' },
      { text: 'Unlike RL, we do Y.', role: 'contrast' },
    ]);
  });
});

describe('sentence places', () => {
  it('tells the contribution, the body and the results apart', () => {
    expect(placeOf('In this paper, we propose a planner for household robots.')).toBe('contribution');
    expect(placeOf('We further introduce a benchmark of 300 kitchen tasks.')).toBe('contribution');
    expect(placeOf('The planner scores each subgoal with a learned critic.')).toBe('body');
    expect(placeOf('We evaluate it on two benchmarks designed for navigation.')).toBe('results');
    expect(placeOf('Experiments show that our method outperforms strong baselines.')).toBe('results');
    expect(placeOf('Our method reaches 91% success.')).toBe('contribution');
    expect(placeOf('Our method achieves 91% success.')).toBe('results');
  });
});
