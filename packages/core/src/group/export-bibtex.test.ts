import { describe, expect, it } from 'vitest';
import { bibtexKeys, escapeBibtex, exportBibtex } from './export-bibtex.ts';
import { listQueue, saveToQueue } from './queue.ts';
import { at, newDoc, paper } from './test-helpers.ts';

/** Reads entries the way BibTeX does: a value ends where its braces, every brace counted, balance. */
function parseBib(text: string): { type: string; key: string; fields: Map<string, string> }[] {
  const entries = [];
  let i = 0;
  const skipSpace = () => {
    while (/\s/.test(text.charAt(i))) i++;
  };
  while ((i = text.indexOf('@', i)) !== -1) {
    const head = /^@(\w+)\{([^,\s{}]+),/.exec(text.slice(i));
    if (!head) throw new Error(`bad entry head at ${i}`);
    i += head[0].length;
    const fields = new Map<string, string>();
    for (;;) {
      skipSpace();
      if (text.charAt(i) === '}') {
        i++;
        break;
      }
      const name = /^(\w+)\s*=\s*\{/.exec(text.slice(i));
      if (!name?.[1]) throw new Error(`bad field at ${i}: ${text.slice(i, i + 30)}`);
      i += name[0].length;
      let depth = 1;
      const start = i;
      while (depth > 0) {
        const ch = text.charAt(i++);
        if (ch === '') throw new Error('unterminated value');
        if (ch === '{') depth++;
        if (ch === '}') depth--;
      }
      fields.set(name[1], text.slice(start, i - 1));
      skipSpace();
      if (text.charAt(i) === ',') i++;
    }
    entries.push({ type: head[1] ?? '', key: head[2] ?? '', fields });
  }
  return entries;
}

describe('BibTeX export', () => {
  it('writes an arXiv @misc entry with escaped text', () => {
    const p = paper('2603.01234', {
      title: 'Q&A at 100% with C# and snake_case: $O(n^2)$ {BERT} for M\\"uller',
      authors: ['Jörg M\\"uller', 'Research and Development Team', 'Smith, Jr., John'],
    });
    expect(exportBibtex([p])).toBe(
      [
        '@misc{muller2026snake,',
        '  title = {{Q\\&A at 100\\% with C\\# and snake\\_case: $O(n^2)$ {BERT} for M\\"uller}},',
        '  author = {Jörg M\\"uller and {Research and Development Team} and {Smith, Jr., John}},',
        '  year = {2026},',
        '  eprint = {2603.01234},',
        '  archivePrefix = {arXiv},',
        '  primaryClass = {cs.LG},',
        '  url = {https://arxiv.org/abs/2603.01234}',
        '}',
        '',
      ].join('\n'),
    );
  });

  it('escapes what would break BibTeX or LaTeX', () => {
    expect(escapeBibtex('Closing } the loop {')).toBe(
      'Closing \\textbraceright{} the loop \\textbraceleft{}',
    );
    expect(escapeBibtex('Set \\{1\\} only {')).toBe(
      'Set \\textbraceleft{}1\\textbraceright{} only \\textbraceleft{}',
    );
    expect(escapeBibtex('A {balanced \\{pair\\}} stays')).toBe('A {balanced \\{pair\\}} stays');
    expect(escapeBibtex('Costs $5 per run')).toBe('Costs \\$5 per run');
    expect(escapeBibtex('Ends with \\')).toBe('Ends with \\textbackslash{}');
    expect(escapeBibtex('$x % y$ and x^2\n growth')).toBe('$x \\% y$ and x\\^{}2 growth');
    expect(escapeBibtex('Already \\& escaped \\% and \\emph{kept}')).toBe(
      'Already \\& escaped \\% and \\emph{kept}',
    );
  });

  it('gives stable unique keys, the smallest id keeping the plain one, whatever the order', () => {
    const p1 = paper('2603.00001', { title: 'Attention Is All You Need', authors: ['A. Vaswani'] });
    const p2 = paper('2603.00002', {
      title: 'Attention is all you need, again',
      authors: ['Ashish Vaswani'],
    });
    const p3 = paper('hep-th/9901001', { title: 'The Large N Limit', authors: ['J. Maldacena'] });
    const expected = new Map([
      ['2603.00001', 'vaswani2026attention'],
      ['2603.00002', 'vaswani2026attention-2603.00002'],
      ['hep-th/9901001', 'maldacena1999large'],
    ]);
    expect(bibtexKeys([p1, p2, p3])).toEqual(expected);
    expect(new Map([...bibtexKeys([p3, p2, p1])].sort())).toEqual(new Map([...expected].sort()));
    expect(bibtexKeys([paper('2603.00009', { title: '$\\alpha$', authors: [] })]).get('2603.00009')).toBe(
      'anon2026',
    );
  });

  it('exports the whole queue as entries BibTeX can read', () => {
    const doc = newDoc();
    const titles = ['Unclosed {brace', 'Extra } brace', '100% of {RL}', 'Costs $5'];
    titles.forEach((title, i) =>
      saveToQueue(
        doc,
        paper(`2603.0000${i + 1}`, { title, authors: ['A. B. Author'] }),
        'ada',
        at('2026-03-10T09:00:00Z'),
      ),
    );
    const bib = exportBibtex(listQueue(doc));
    const entries = parseBib(bib);
    expect(entries).toHaveLength(4);
    expect(new Set(entries.map((e) => e.key)).size).toBe(4);
    for (const entry of entries) {
      expect(entry.type).toBe('misc');
      expect(entry.fields.get('archivePrefix')).toBe('arXiv');
      expect(entry.fields.get('eprint')).toMatch(/^2603\.0000\d$/);
      expect(entry.fields.get('url')).toBe(`https://arxiv.org/abs/${String(entry.fields.get('eprint'))}`);
      expect(entry.fields.get('title')).not.toMatch(/(^|[^\\])[%&#]/);
    }
    expect(exportBibtex([])).toBe('');
  });
});
