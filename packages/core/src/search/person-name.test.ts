import { describe, expect, it } from 'vitest';
import { authorNamed, personNameKey } from './person-name.ts';
import { parseQuery } from './query-syntax.ts';

const key = (q: string) => personNameKey(parseQuery(q));

describe('personNameKey', () => {
  it('reads two or three plain words as one whole name', () => {
    expect(key('Ying Wen')).toBe('yingwen');
    expect(key('yoshua bengio')).toBe('yoshuabengio');
    expect(key('Jane M. Doe')).toBe('janedoe');
    expect(key('J. Doe')).toBe('jdoe');
    expect(key('Marta Müller')).toBe('martamuller');
    expect(key('Ying Wen cat:cs.LG')).toBe('yingwen');
  });

  it('leaves everything else to the words', () => {
    expect(key('Bengio')).toBeNull();
    expect(key('graph neural networks for molecules')).toBeNull();
    expect(key('GPT 4')).toBeNull();
    expect(key('"Ying Wen"')).toBeNull();
    expect(key('J. D.')).toBeNull();
    expect(key('2605.08013')).toBeNull();
  });
});

describe('authorNamed', () => {
  it('finds the author a key names, as the paper writes the name', () => {
    const names = ['King Wen', 'Ying  Wen', 'Yoshua Bengio'];
    expect(authorNamed(names, 'yingwen')).toBe('Ying  Wen');
    expect(authorNamed(names, 'ybengio')).toBe('Yoshua Bengio');
    expect(authorNamed(names, 'janedoe')).toBeUndefined();
  });
});
