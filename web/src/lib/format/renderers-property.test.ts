import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseMarkdown } from '../groups/markdown.ts';
import { plainText, richText } from './latex-text.ts';

// Titles, abstracts and notes are input from arXiv and from members: no string may make a renderer throw.
// Strings are drawn from the characters the renderers treat specially as well as from all of Unicode.
const special = fc.constantFrom(
  '\\',
  '$',
  '{',
  '}',
  '^',
  '_',
  '[',
  ']',
  '(',
  ')',
  '*',
  '#',
  '>',
  '-',
  '`',
  '\n',
  ' ',
  '&',
  '~',
  '%',
  '\\constructor',
  '\\toString',
  '\\mathbb',
  '\\frac',
  '\\sqrt',
  '\\(',
  '\\)',
  '**',
  '](',
  'http://',
);
const hostile = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 200 }),
  fc.array(special, { maxLength: 120 }).map((parts) => parts.join('')),
  fc.array(fc.oneof(special, fc.string({ maxLength: 4 })), { maxLength: 80 }).map((parts) => parts.join('')),
);

describe('renderers on arbitrary input', () => {
  it('the LaTeX renderer never throws', () => {
    fc.assert(
      fc.property(hostile, (source) => {
        const text = plainText(richText(source));
        expect(typeof text).toBe('string');
      }),
      { numRuns: 2000 },
    );
  });

  it('the Markdown renderer never throws', () => {
    fc.assert(
      fc.property(hostile, (source) => {
        expect(Array.isArray(parseMarkdown(source))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});
