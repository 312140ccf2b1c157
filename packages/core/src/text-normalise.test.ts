import { describe, expect, it } from 'vitest';
import { authorKey, collapseWhitespace, normaliseAuthorName, normaliseText } from './text-normalise.ts';

describe('text normalisation', () => {
  it('collapses whitespace runs, newlines and tabs included, and trims', () => {
    expect(collapseWhitespace('  Deep\n  learning \t for\r\n\nall  ')).toBe('Deep learning for all');
    expect(collapseWhitespace('a\u00a0\u00a0b')).toBe('a b');
    expect(collapseWhitespace('one\ttwo\u00a0three\u2003four\nfive six')).toBe('one two three four five six');
  });

  it('leaves LaTeX as written', () => {
    const title = 'On $\\mathcal{O}(n \\log n)$ bounds for \\emph{sparse}\n  attention';
    expect(normaliseText(title)).toBe('On $\\mathcal{O}(n \\log n)$ bounds for \\emph{sparse} attention');
  });

  it('composes Unicode so both spellings of an accent are one string', () => {
    expect(normaliseText('Mu\u0308ller')).toBe('M\u00fcller');
    expect(normaliseText(' plain\n ASCII\ttext ')).toBe('plain ASCII text');
  });
});

describe('author names', () => {
  it('trims list punctuation and stray "and"', () => {
    expect(normaliseAuthorName('  Ada   Lovelace, ')).toBe('Ada Lovelace');
    expect(normaliseAuthorName('and Alan Turing')).toBe('Alan Turing');
    expect(normaliseAuthorName('Daria Eckert and')).toBe('Daria Eckert');
    expect(normaliseAuthorName('Anand Rao')).toBe('Anand Rao');
    expect(normaliseAuthorName('Andrea Bertozzi')).toBe('Andrea Bertozzi');
    expect(normaliseAuthorName('; Li Wei ;,')).toBe('Li Wei');
    expect(normaliseAuthorName('Fernand')).toBe('Fernand');
    expect(normaliseAuthorName('and')).toBe('');
  });

  it('keys names ignoring case, accents, dots and commas', () => {
    expect(authorKey('J. Müller')).toBe(authorKey('j muller'));
    expect(authorKey('John Smith, Jr.')).toBe(authorKey('John Smith Jr'));
    expect(authorKey('Ada Lovelace')).not.toBe(authorKey('Alan Turing'));
  });
});
