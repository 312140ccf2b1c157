import { describe, expect, it } from 'vitest';
import { sentenceBounds, sentencesOf } from './sentence-roles.ts';

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
