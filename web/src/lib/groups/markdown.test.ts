import { describe, expect, it } from 'vitest';
import { parseInline, parseMarkdown, safeLink } from './markdown.ts';

describe('parseInline', () => {
  it('reads emphasis, strong, code and links', () => {
    expect(parseInline('a *b* **c** `d*e`')).toEqual([
      { kind: 'text', text: 'a ' },
      { kind: 'em', children: [{ kind: 'text', text: 'b' }] },
      { kind: 'text', text: ' ' },
      { kind: 'strong', children: [{ kind: 'text', text: 'c' }] },
      { kind: 'text', text: ' ' },
      { kind: 'code', text: 'd*e' },
    ]);
    expect(parseInline('[paper](https://arxiv.org/abs/2604.00001)')).toEqual([
      { kind: 'link', href: 'https://arxiv.org/abs/2604.00001', children: [{ kind: 'text', text: 'paper' }] },
    ]);
  });

  it('links only http(s) and keeps everything else as text', () => {
    expect(parseInline('[x](javascript:alert(1))')).toEqual([
      { kind: 'text', text: '[x](javascript:alert(1))' },
    ]);
    expect(parseInline('<img src=x onerror=alert(1)>')).toEqual([
      { kind: 'text', text: '<img src=x onerror=alert(1)>' },
    ]);
    expect(safeLink('data:text/html,hi')).toBeNull();
  });

  it('links bare addresses without the sentence’s full stop', () => {
    expect(parseInline('see https://github.com/a/b.')).toEqual([
      { kind: 'text', text: 'see ' },
      {
        kind: 'link',
        href: 'https://github.com/a/b',
        children: [{ kind: 'text', text: 'https://github.com/a/b' }],
      },
      { kind: 'text', text: '.' },
    ]);
  });

  it('leaves unmatched markers and escapes as text', () => {
    expect(parseInline('2 * 3 * 4')).toEqual([{ kind: 'text', text: '2 * 3 * 4' }]);
    expect(parseInline('\\*not em\\*')).toEqual([{ kind: 'text', text: '*not em*' }]);
    expect(parseInline('snake_case_name')).toEqual([{ kind: 'text', text: 'snake_case_name' }]);
    expect(parseInline('_em_')).toEqual([{ kind: 'em', children: [{ kind: 'text', text: 'em' }] }]);
  });
});

describe('parseMarkdown', () => {
  it('splits paragraphs, headings, lists and code', () => {
    const blocks = parseMarkdown('# Title\n\nline one\nline two\n\n- a\n- b\n1. c\n\n```\n<b>x</b>\n```');
    expect(blocks.map((b) => b.kind)).toEqual(['heading', 'paragraph', 'list', 'list', 'code']);
    expect(blocks[1]).toMatchObject({ lines: [[{ text: 'line one' }], [{ text: 'line two' }]] });
    expect(blocks[2]).toMatchObject({ ordered: false, items: [[{ text: 'a' }], [{ text: 'b' }]] });
    expect(blocks[3]).toMatchObject({ ordered: true });
    expect(blocks[4]).toEqual({ kind: 'code', text: '<b>x</b>' });
  });

  it('keeps an unclosed fence’s text', () => {
    expect(parseMarkdown('```\ncode')).toEqual([{ kind: 'code', text: 'code' }]);
  });
});

describe('maths and quotes', () => {
  it('keeps $…$ maths whole for the LaTeX converter, and leaves prices and lone dollars as text', () => {
    expect(parseInline('loss $\\mathcal{L} = x^2$ here')).toEqual([
      { kind: 'text', text: 'loss ' },
      { kind: 'math', source: '$\\mathcal{L} = x^2$' },
      { kind: 'text', text: ' here' },
    ]);
    expect(parseInline('$$a+b$$')).toEqual([{ kind: 'math', source: '$$a+b$$' }]);
    for (const text of ['costs $5 and $10', 'a $ b $ c', 'one $', 'escaped \\$x$']) {
      expect(
        parseInline(text).some((n) => n.kind === 'math'),
        text,
      ).toBe(false);
    }
    expect(parseInline('`$x$`')).toEqual([{ kind: 'code', text: '$x$' }]);
  });

  it('reads a run of > lines as one quote of Markdown of its own, nested a few levels deep', () => {
    expect(parseMarkdown('> said **this**\n> - and a list\n\nafter')).toEqual([
      {
        kind: 'quote',
        blocks: [
          {
            kind: 'paragraph',
            lines: [
              [
                { kind: 'text', text: 'said ' },
                { kind: 'strong', children: [{ kind: 'text', text: 'this' }] },
              ],
            ],
          },
          { kind: 'list', ordered: false, items: [[{ kind: 'text', text: 'and a list' }]] },
        ],
      },
      { kind: 'paragraph', lines: [[{ kind: 'text', text: 'after' }]] },
    ]);
    expect(parseMarkdown('>> inner')).toEqual([
      {
        kind: 'quote',
        blocks: [
          { kind: 'quote', blocks: [{ kind: 'paragraph', lines: [[{ kind: 'text', text: 'inner' }]] }] },
        ],
      },
    ]);
    // Deeper than the limit, the rest of the markers are text: nothing is dropped and nothing recurses on.
    const deep = parseMarkdown('>'.repeat(50) + ' x');
    let depth = 0;
    let block = deep[0];
    while (block?.kind === 'quote') {
      depth += 1;
      block = block.blocks[0];
    }
    expect(depth).toBe(4);
    expect(block).toEqual({ kind: 'paragraph', lines: [[{ kind: 'text', text: '>'.repeat(46) + ' x' }]] });
  });
});
