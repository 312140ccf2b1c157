import { describe, expect, it } from 'vitest';
import {
  authorKey,
  collapseWhitespace,
  normaliseAuthorName,
  normaliseText,
  splitAuthors,
} from './text-normalise.ts';

describe('text normalisation', () => {
  it('collapses whitespace runs, newlines and tabs included, and trims', () => {
    expect(collapseWhitespace('  Deep\n  learning \t for\r\n\nall  ')).toBe('Deep learning for all');
    expect(collapseWhitespace('a\u00a0\u00a0b')).toBe('a b');
  });

  it('leaves LaTeX as written', () => {
    const title = 'On $\\mathcal{O}(n \\log n)$ bounds for \\emph{sparse}\n  attention';
    expect(normaliseText(title)).toBe('On $\\mathcal{O}(n \\log n)$ bounds for \\emph{sparse} attention');
  });

  it('composes Unicode so both spellings of an accent are one string', () => {
    expect(normaliseText('Mu\u0308ller')).toBe('M\u00fcller');
  });
});

describe('author names', () => {
  it('trims list punctuation and stray "and"', () => {
    expect(normaliseAuthorName('  Ada   Lovelace, ')).toBe('Ada Lovelace');
    expect(normaliseAuthorName('and Alan Turing')).toBe('Alan Turing');
    expect(normaliseAuthorName('Daria Eckert and')).toBe('Daria Eckert');
    expect(normaliseAuthorName('Anand Rao')).toBe('Anand Rao');
    expect(normaliseAuthorName('Andrea Bertozzi')).toBe('Andrea Bertozzi');
  });

  it('keys names ignoring case, accents, dots and commas', () => {
    expect(authorKey('J. Müller')).toBe(authorKey('j muller'));
    expect(authorKey('John Smith, Jr.')).toBe(authorKey('John Smith Jr'));
    expect(authorKey('Ada Lovelace')).not.toBe(authorKey('Alan Turing'));
  });
});

describe('splitAuthors', () => {
  it.each([
    ['Ada Lovelace, Alan Turing and Grace Hopper', ['Ada Lovelace', 'Alan Turing', 'Grace Hopper']],
    ['Ada Lovelace, Alan Turing, and Grace Hopper', ['Ada Lovelace', 'Alan Turing', 'Grace Hopper']],
    ['Ada Lovelace, Alan Turing, Grace Hopper', ['Ada Lovelace', 'Alan Turing', 'Grace Hopper']],
    ['Ada Lovelace; Alan Turing', ['Ada Lovelace', 'Alan Turing']],
    ['Ada Lovelace and Alan Turing', ['Ada Lovelace', 'Alan Turing']],
    ['Ada Lovelace', ['Ada Lovelace']],
    ['Ada\n  Lovelace,\n Alan Turing', ['Ada Lovelace', 'Alan Turing']],
    ['Martin Luther King, Jr., Grace Hopper', ['Martin Luther King, Jr.', 'Grace Hopper']],
    ['John Smith, III and Ada Lovelace', ['John Smith, III', 'Ada Lovelace']],
    ['A. Author (MIT, USA), B. Author (ETH)', ['A. Author (MIT, USA)', 'B. Author (ETH)']],
    ['Andrea Anderson and Sandy Andrews', ['Andrea Anderson', 'Sandy Andrews']],
    ['', []],
    [' , ,and ', []],
  ])('splits %j', (input, names) => {
    expect(splitAuthors(input)).toEqual(names);
  });
});
