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
    });
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
