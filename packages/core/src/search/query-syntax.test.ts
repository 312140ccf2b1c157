import { describe, expect, it } from 'vitest';
import { CoreError } from '../errors.ts';
import { describeQuery, formatQuery, isEmptyQuery, parseQuery } from './query-syntax.ts';

describe('parseQuery', () => {
  it('separates free text, phrases and filters', () => {
    expect(
      parseQuery(
        'graph  neural "message passing" topic:reinforcement-learning cat:cs.LG author:"Jane Doe" from:2026-04-01 to:2026-05-01',
      ),
    ).toEqual({
      text: 'graph neural',
      phrases: ['message passing'],
      topics: ['reinforcement-learning'],
      categories: ['cs.LG'],
      authors: ['Jane Doe'],
      from: '2026-04-01',
      to: '2026-05-01',
      paperId: null,
    });
  });

  it('reads a search that is only an arXiv id or address as that paper', () => {
    const named = (input: string) => parseQuery(input).paperId;
    expect(named('2605.08013')).toBe('2605.08013');
    expect(named(' 2605.08013v2 ')).toBe('2605.08013');
    expect(named('arXiv:2605.08013')).toBe('2605.08013');
    expect(named('arXiv: 2605.08013v1')).toBe('2605.08013');
    expect(named('hep-th/9901001')).toBe('hep-th/9901001');
    expect(named('https://arxiv.org/abs/2605.08013v3')).toBe('2605.08013');
    expect(named('https://arxiv.org/pdf/2605.08013v1.pdf')).toBe('2605.08013');
    expect(named('https://arxiv.org/html/2605.08013v1')).toBe('2605.08013');
    expect(named('arxiv.org/abs/hep-th/9901001')).toBe('hep-th/9901001');
    // Anything more, or a number that is no id, is a text search.
    expect(named('2605.08013 transformers')).toBeNull();
    expect(named('"2605.08013"')).toBeNull();
    expect(named('2613.08013')).toBeNull();
    expect(named('3.14159')).toBeNull();
    expect(named('https://example.org/abs/2605.08013')).toBeNull();
    // The text stays as typed, so the box and the address keep what the reader wrote.
    expect(parseQuery('arXiv:2605.08013').text).toBe('arXiv:2605.08013');
  });

  it('repeats and lists topics and categories; category: is cat:', () => {
    const q = parseQuery('topic:llm-agents TOPIC:rag,llm-agents category:cs.CL cat:stat.ML');
    expect(q.topics).toEqual(['llm-agents', 'rag']);
    expect(q.categories).toEqual(['cs.CL', 'stat.ML']);
    expect(q.text).toBe('');
  });

  it('reads unknown prefixes as text and ignores half-typed filters', () => {
    expect(parseQuery('arXiv:2604.01234 ratio 3:1 topic:').text).toBe('arXiv:2604.01234 ratio 3:1');
    expect(isEmptyQuery(parseQuery('topic: author:""'))).toBe(true);
  });

  it('runs an unclosed quote to the end, as while typing', () => {
    expect(parseQuery('deep "reward mod')).toMatchObject({ text: 'deep', phrases: ['reward mod'] });
    expect(parseQuery('author:"Geoffrey Hin').authors).toEqual(['Geoffrey Hin']);
  });

  it('refuses a malformed date, naming the filter', () => {
    const attempt = (input: string) => () => parseQuery(input);
    expect(attempt('from:2026-13-01')).toThrow(CoreError);
    expect(attempt('from:2026-13-01')).toThrow(/from: filter/);
    expect(attempt('to:yesterday')).toThrow(/to: filter.*"yesterday"/);
    expect(attempt('from:2026-05-02 to:2026-05-01')).toThrow(/after the to: date/);
    expect(attempt('to:May')).toThrow(expect.objectContaining({ code: 'invalid-input' }));
  });
});

describe('describeQuery and formatQuery', () => {
  it('formats a query that parses back to itself', () => {
    const q = parseQuery(
      'rl "world model" topic:robotics cat:cs.RO author:"Li Wei" author:Smith from:2026-04-01',
    );
    expect(parseQuery(formatQuery(q))).toEqual(q);
  });

  it('gives one chip per filter, each knowing the query without it', () => {
    const chips = describeQuery(parseQuery('agents topic:rag author:"Jane Doe" to:2026-05-01'));
    expect(chips.map((c) => [c.kind, c.label, c.value])).toEqual([
      ['topic', 'Topic', 'rag'],
      ['author', 'Author', 'Jane Doe'],
      ['to', 'To', '2026-05-01'],
    ]);
    expect(chips[1]?.without).toBe('agents topic:rag to:2026-05-01');
  });
});
