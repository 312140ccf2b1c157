import { describe, expect, it } from 'vitest';
import { parseMarkdown } from '../groups/markdown.ts';
import { richText } from './latex-text.ts';
import { countVisits } from './linear-scan.ts';
import { RENDER_LIMIT } from './render-limit.ts';

// Work is counted, not timed: the renderers count the characters they look at (linear-scan.ts). A renderer
// that rescans the rest of the input at every opening bracket looks at about n²/2 characters; these inputs
// (~20,000 characters) would count in the hundreds of millions.
const LENGTH = 20_000;
/** Characters looked at per input character, at most. */
const PER_CHAR = 8;

const repeat = (unit: string, length = LENGTH): string => unit.repeat(Math.ceil(length / unit.length));

const MARKDOWN: Record<string, string> = {
  'unclosed brackets': repeat('['),
  'emphasis markers after spaces': repeat('*a '),
  'strong markers after spaces': repeat('**a '),
  'underscores after spaces': repeat('_a '),
  'links without an address': repeat('[a]('),
  'unclosed backticks and brackets': repeat('`[x'),
  'almost-addresses': repeat('(http://.'),
  'a list item with a line separator': `- ${repeat(' ')}x\u2028y`,
  'a heading with a line separator': `# ${repeat(' ')}x\u2028y`,
  'nested emphasis': repeat('*_'),
};

const LATEX: Record<string, string> = {
  'unclosed \\(': repeat('\\('),
  'unclosed \\[': repeat('\\['),
  'dollars after spaces': repeat('$a '),
  'display dollars': repeat('$$a\\$'),
  'unclosed optional arguments': repeat('\\sqrt['),
  'escaped dollars': repeat('$\\\\\\$'),
  'scripts, fractions and groups': repeat('$x^{a}_{b}$ \\frac{a}{b} {c} '),
};

describe('rendering work grows linearly with the input', () => {
  it.each(Object.entries(MARKDOWN))('Markdown: %s', (_name, source) => {
    const visits = countVisits(() => parseMarkdown(source, Infinity));
    expect(visits).toBeLessThanOrEqual(PER_CHAR * source.length);
  });

  it.each(Object.entries(LATEX))('LaTeX: %s', (_name, source) => {
    const visits = countVisits(() => richText(source, Infinity));
    expect(visits).toBeLessThanOrEqual(PER_CHAR * source.length);
  });

  it('ten times the input is about ten times the work', () => {
    const ratio = (render: (s: string) => unknown, unit: string): number =>
      countVisits(() => render(repeat(unit, 10 * 2_000))) / countVisits(() => render(repeat(unit, 2_000)));
    expect(ratio((s) => parseMarkdown(s, Infinity), '[')).toBeLessThan(11);
    expect(ratio((s) => parseMarkdown(s, Infinity), '*a ')).toBeLessThan(11);
    expect(ratio((s) => richText(s, Infinity), '\\(')).toBeLessThan(11);
  });
});

describe('what is rendered is capped', () => {
  it('a note past the limit ends with how much was left out', () => {
    const blocks = parseMarkdown(`${'a'.repeat(RENDER_LIMIT)}bcd`);
    expect(blocks).toEqual([
      { kind: 'paragraph', lines: [[{ kind: 'text', text: 'a'.repeat(RENDER_LIMIT) }]] },
      { kind: 'paragraph', lines: [[{ kind: 'text', text: '(… 3 more characters not shown)' }]] },
    ]);
    expect(parseMarkdown('a'.repeat(RENDER_LIMIT))).toHaveLength(1);
  });

  it('an abstract past the limit ends with how much was left out, never half a character', () => {
    const text = 'x'.repeat(RENDER_LIMIT - 1) + '𝒳'.repeat(1_500);
    expect(richText(text)).toEqual([`${'x'.repeat(RENDER_LIMIT - 1)} (… 1,500 more characters not shown)`]);
    expect(richText('a lone $ sign', 6)).toEqual(['a lone (… 7 more characters not shown)']);
  });

  it('the hostile inputs are rendered only up to the limit', () => {
    const visits = countVisits(() => parseMarkdown(repeat('[', 100 * LENGTH)));
    expect(visits).toBeLessThanOrEqual(PER_CHAR * RENDER_LIMIT);
  });
});
