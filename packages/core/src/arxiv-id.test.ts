import { describe, expect, it } from 'vitest';
import {
  absUrl,
  idYearMonth,
  isArxivId,
  normaliseArxivId,
  parseArxivId,
  parseArxivIdLenient,
  pdfUrl,
} from './arxiv-id.ts';
import type { CoreError } from './errors.ts';

const invalidId = expect.objectContaining({ name: 'CoreError', code: 'invalid-arxiv-id' }) as CoreError;

describe('parseArxivId', () => {
  it.each([
    ['2604.12345', '2604.12345', null],
    ['2604.12345v3', '2604.12345', 3],
    ['0704.0001', '0704.0001', null],
    ['1412.9999v12', '1412.9999', 12],
    ['1501.00001', '1501.00001', null],
    ['hep-th/9901001', 'hep-th/9901001', null],
    ['hep-th/9901001v2', 'hep-th/9901001', 2],
    ['math.AG/0601001', 'math/0601001', null],
    ['physics.acc-ph/0601001v1', 'physics/0601001', 1],
    ['HEP-TH/9901001', 'hep-th/9901001', null],
    ['cond-mat/0703999', 'cond-mat/0703999', null],
    ['arXiv:2604.12345', '2604.12345', null],
    ['ARXIV:2604.12345v2', '2604.12345', 2],
    ['arxiv: hep-th/9901001', 'hep-th/9901001', null],
    ['oai:arXiv.org:2604.12345', '2604.12345', null],
    ['oai:arXiv.org:hep-th/9901001', 'hep-th/9901001', null],
    ['https://arxiv.org/abs/2604.12345', '2604.12345', null],
    ['https://arxiv.org/abs/2604.12345v4/', '2604.12345', 4],
    ['http://arxiv.org/pdf/2604.12345v2', '2604.12345', 2],
    ['https://arxiv.org/pdf/2604.12345v2.pdf', '2604.12345', 2],
    ['https://export.arxiv.org/abs/hep-th/9901001v2', 'hep-th/9901001', 2],
    ['https://www.arxiv.org/abs/math.AG/0601001', 'math/0601001', null],
    ['arxiv.org/abs/2604.12345?context=cs', '2604.12345', null],
    ['  2604.12345v1 \n', '2604.12345', 1],
    ['2604.12345.pdf', '2604.12345', null],
  ])('reads %j', (input, id, version) => {
    expect(parseArxivId(input)).toEqual({ id, version });
  });

  it.each([
    '',
    '   ',
    'hello',
    '2604.1234', // 2015 onwards the number has five digits
    '1412.12345', // before 2015 it has four
    '0703.0001', // new style began in April 2007
    '2613.12345', // no month 13
    '2604.12345v0',
    '2604.12345v',
    'hep-th/990100', // six digits
    'hep-th/9013001', // no month 13
    'hep-th/0704001', // old style ended in March 2007
    'hep-th/9101001', // arXiv began in August 1991
    '2604.12345 extra',
    'https://example.org/abs/2604.12345',
    'https://arxiv.org/list/cs.LG/new',
  ])('rejects %j with invalid-arxiv-id', (input) => {
    expect(() => parseArxivId(input)).toThrow(invalidId);
    expect(isArxivId(input)).toBe(false);
  });

  it('quotes the input and shows accepted forms in the error', () => {
    expect(() => parseArxivId('2604.1234')).toThrow(
      /"2604\.1234" is not an arXiv identifier.*hep-th\/9901001/,
    );
  });

  it('shortens very long input in the error', () => {
    expect(() => parseArxivId('x'.repeat(500))).toThrow(/x{117}\.\.\." is not/);
  });
});

describe('id helpers', () => {
  it('normalises and tests ids', () => {
    expect(normaliseArxivId('arXiv:2604.12345v3')).toBe('2604.12345');
    expect(isArxivId('https://arxiv.org/abs/hep-th/9901001')).toBe(true);
  });

  it('gives the issue month for both styles', () => {
    expect(idYearMonth('2604.12345')).toBe('2604');
    expect(idYearMonth('hep-th/9901001v2')).toBe('9901');
  });

  it('builds abs and pdf links, pinning a version only when asked', () => {
    expect(absUrl('2604.12345')).toBe('https://arxiv.org/abs/2604.12345');
    expect(absUrl('hep-th/9901001', 2)).toBe('https://arxiv.org/abs/hep-th/9901001v2');
    expect(pdfUrl('arXiv:2604.12345')).toBe('https://arxiv.org/pdf/2604.12345');
    expect(pdfUrl('2604.12345v3')).toBe('https://arxiv.org/pdf/2604.12345v3');
    expect(pdfUrl('2604.12345v3', 1)).toBe('https://arxiv.org/pdf/2604.12345v1');
    expect(() => pdfUrl('2604.12345', 0)).toThrow(invalidId);
    expect(() => absUrl('nonsense')).toThrow(invalidId);
  });
});

describe('parseArxivIdLenient', () => {
  it.each([
    ['http://arxiv.org/abs/1111.2011v2', '1111.2011', 2],
    ['https://arxiv.org/abs/astro-ph/0601001v1', 'astro-ph/0601001', 1],
    ['oai:arXiv.org:hep-th/9504118', 'hep-th/9504118', null],
    ['oai:arXiv.org:0704.0001', '0704.0001', null],
    ['2603.12268v1', '2603.12268', 1],
    ['math.GT/0309136', 'math/0309136', null],
  ])('reads %j like parseArxivId', (input, id, version) => {
    expect(parseArxivIdLenient(input)).toEqual({ id, version });
  });

  it.each(['', 'abc', ' oai:arXiv.org:2604.1234 ', 'http://arxiv.org/api/errors#x', '2604.12345v0'])(
    'passes %j on as found instead of throwing',
    (input) => {
      expect(parseArxivIdLenient(input)).toEqual({ id: input.trim(), version: null });
      expect(() => parseArxivId(input)).toThrow(invalidId);
    },
  );
});
