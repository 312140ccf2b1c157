import { describe, expect, it } from 'vitest';
import { allOf, anyOf, inColumns, phrase, without, word } from '../search-match.ts';
import { rankedLeaves, tsquery, withinTitle } from './pg-tsquery.ts';

describe('a match as a tsquery', () => {
  it('renders words, prefixes, alternatives and exclusions', () => {
    expect(tsquery(word('graph'))).toBe(`'graph'`);
    expect(tsquery(allOf([word('graph'), anyOf([word('neurl'), word('neural')]), word('net', true)]))).toBe(
      `('graph' & ('neurl' | 'neural') & 'net':*)`,
    );
    expect(tsquery(without(anyOf([word('ab'), word('abc')]), word('a')))).toBe(`(('ab' | 'abc') & !'a')`);
    expect(tsquery(word("it's\\"))).toBe(`'it''s\\\\'`);
  });

  it('keeps a phrase within one column, and a column filter as weight labels', () => {
    expect(tsquery(phrase(['reward', 'model']))).toBe(
      `('reward':A <-> 'model':A | 'reward':B <-> 'model':B | 'reward':C <-> 'model':C)`,
    );
    expect(tsquery(inColumns(['authors'], word('janedoe')))).toBe(`'janedoe':B`);
    expect(tsquery(inColumns(['title', 'abstract'], anyOf([word('a'), word('b', true)])))).toBe(
      `('a':AC | 'b':*AC)`,
    );
    expect(tsquery(inColumns(['title'], phrase(['x', 'y'])))).toBe(`'x':A <-> 'y':A`);
  });

  it('ranks by the words and phrases it asks for, not those it excludes', () => {
    const match = allOf([
      word('graph'),
      phrase(['a', 'b']),
      inColumns(['title'], word('net', true)),
      without(word('x'), word('y')),
    ]);
    expect(rankedLeaves(match).map((l) => [l.query, l.terms, l.prefix])).toEqual([
      [`'graph'`, ['graph'], false],
      [`('a':A <-> 'b':A | 'a':B <-> 'b':B | 'a':C <-> 'b':C)`, ['a', 'b'], false],
      [`'net':*A`, ['net'], true],
      [`'x'`, ['x'], false],
    ]);
  });

  it('tells a match asked of titles alone, which the title vector answers', () => {
    const title = (m: Parameters<typeof inColumns>[1]) => inColumns(['title'], m);
    expect(withinTitle(title(allOf([word('graph'), phrase(['a', 'b']), word('net', true)])))).toBe(true);
    expect(withinTitle(allOf([title(word('graph')), title(without(word('x'), word('y')))]))).toBe(true);
    expect(withinTitle(inColumns(['title'], inColumns(['authors'], word('x'))))).toBe(true);
    expect(withinTitle(word('graph'))).toBe(false);
    expect(withinTitle(inColumns(['title', 'abstract'], word('graph')))).toBe(false);
    expect(withinTitle(allOf([title(word('graph')), inColumns(['authors'], word('janedoe'))]))).toBe(false);
  });
});
