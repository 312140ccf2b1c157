import { describe, expect, it } from 'vitest';
import { invertName, joinName, splitAuthorLine } from './author-lines.ts';

const names = (line: string): string[] => splitAuthorLine(line).map((author) => author.name);

describe('splitAuthorLine', () => {
  it.each([
    ['Ada Lovelace, Alan Turing and Grace Hopper', ['Ada Lovelace', 'Alan Turing', 'Grace Hopper']],
    ['Ada Lovelace, Alan Turing, and Grace Hopper', ['Ada Lovelace', 'Alan Turing', 'Grace Hopper']],
    ['Ada Lovelace, Alan Turing, Grace Hopper', ['Ada Lovelace', 'Alan Turing', 'Grace Hopper']],
    ['Ada Lovelace; Alan Turing', ['Ada Lovelace', 'Alan Turing']],
    ['Ada Lovelace and Alan Turing', ['Ada Lovelace', 'Alan Turing']],
    ['Ada Lovelace', ['Ada Lovelace']],
    ['Ada\n  Lovelace,\n Alan Turing', ['Ada Lovelace', 'Alan Turing']],
    ['Ann Anderson and\n   Andy Ng', ['Ann Anderson', 'Andy Ng']],
    ['Andrea Anderson and Sandy Andrews', ['Andrea Anderson', 'Sandy Andrews']],
    [
      'Rodolfo Casana, Manoel M. Ferreira Jr., Alexsandro Lucena Mota',
      ['Rodolfo Casana', 'Manoel M. Ferreira Jr.', 'Alexsandro Lucena Mota'],
    ],
    ['', []],
    [' , ,and ', []],
  ])('splits %j', (line, expected) => {
    expect(names(line)).toEqual(expected);
  });

  it('joins a suffix after a comma to the name before it, with a space as structured sources write it', () => {
    expect(names('Martin Luther King, Jr., Grace Hopper')).toEqual([
      'Martin Luther King Jr.',
      'Grace Hopper',
    ]);
    expect(names('John Smith, III and Ada Lovelace')).toEqual(['John Smith III', 'Ada Lovelace']);
    expect(names('John Smith, Jr., Ann Lee')).toEqual(['John Smith Jr.', 'Ann Lee']);
  });

  it('reads parenthesised affiliations, separators inside them included', () => {
    expect(splitAuthorLine('A. Author (MIT, USA), B. Author (ETH)')).toEqual([
      { name: 'A. Author', affiliations: ['MIT, USA'] },
      { name: 'B. Author', affiliations: ['ETH'] },
    ]);
    expect(splitAuthorLine('A (MIT) and B (CERN, Geneva)')).toEqual([
      { name: 'A', affiliations: ['MIT'] },
      { name: 'B', affiliations: ['CERN, Geneva'] },
    ]);
    expect(splitAuthorLine('A, (MIT) and B (CERN (Geneva')).toEqual([
      { name: 'A', affiliations: ['MIT'] },
      { name: 'B', affiliations: ['CERN (Geneva'] },
    ]);
  });

  it("resolves arXiv's numbered affiliations through the trailing legend", () => {
    expect(splitAuthorLine('A (1,2), B (2) ((1) MIT, (2) CERN)')).toEqual([
      { name: 'A', affiliations: ['MIT', 'CERN'] },
      { name: 'B', affiliations: ['CERN'] },
    ]);
  });

  it('keeps bracketed text, separators included, in the name', () => {
    expect(names('A. Author [for the X, Y collaboration], B. Author')).toEqual([
      'A. Author [for the X, Y collaboration]',
      'B. Author',
    ]);
  });

  it('composes Unicode in names', () => {
    expect(names('J. Mu\u0308ller and A. B')).toEqual(['J. M\u00fcller', 'A. B']);
  });
});

describe('name parts', () => {
  it('inverts Dublin Core creators', () => {
    expect(invertName('Liepins, Vilnis')).toBe('Vilnis Liepins');
    expect(invertName('Smith, John, Jr')).toBe('John Smith Jr');
    expect(invertName('Plato')).toBe('Plato');
  });

  it('joins forenames, surname and suffix, skipping empty parts', () => {
    expect(joinName('Bob', 'Sample', 'Jr')).toBe('Bob Sample Jr');
    expect(joinName('', 'Plato', null, undefined)).toBe('Plato');
    expect(joinName()).toBe('');
  });
});
