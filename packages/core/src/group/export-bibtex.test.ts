import { parse } from '@retorquere/bibtex-parser';
import { describe, expect, it } from 'vitest';
import { bibtexKeys, escapeBibtex, exportBibtex } from './export-bibtex.ts';
import { listQueue, saveToQueue } from './queue.ts';
import { at, newDoc, paper } from './test-helpers.ts';

/** The entries as the parser behind Better BibTeX for Zotero reads them; it reports what it cannot read. */
function read(bib: string) {
  const library = parse(bib, { sentenceCase: false, english: false });
  expect(library.errors).toEqual([]);
  return library.entries;
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
        '  month = mar,',
        '  eprint = {2603.01234},',
        '  archivePrefix = {arXiv},',
        '  primaryClass = {cs.LG},',
        '  version = {1},',
        '  doi = {10.48550/arXiv.2603.01234},',
        '  url = {https://arxiv.org/abs/2603.01234},',
        '  abstract = {The abstract of 2603.01234.},',
        '  keywords = {Reinforcement Learning}',
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
    const entries = read(bib);
    expect(entries).toHaveLength(4);
    expect(new Set(entries.map((e) => e.key)).size).toBe(4);
    // Unbalanced braces come back as written; balanced ones are LaTeX grouping (case protection).
    expect(entries.map((e) => e.fields.title)).toEqual([
      'Unclosed {brace',
      'Extra } brace',
      '100% of RL',
      'Costs $5',
    ]);
    for (const entry of entries) {
      expect(entry.type).toBe('misc');
      expect(entry.fields.archiveprefix).toBe('arXiv');
      expect(entry.fields.eprint).toMatch(/^2603\.0000\d$/);
      expect(entry.fields.url).toBe(`https://arxiv.org/abs/${String(entry.fields.eprint)}`);
    }
    expect(exportBibtex([])).toBe('');
  });
});

describe('BibTeX read back by a BibTeX parser (the one behind Better BibTeX for Zotero)', () => {
  it('gives Zotero the DOI, month, version, abstract and topics of every paper', () => {
    const doc = newDoc();
    saveToQueue(
      doc,
      paper('2605.01234', {
        version: 3,
        title: 'Credit assignment for {LLM} agents: 100% of $O(n^2)$',
        abstract: 'We show that $\\alpha_1$-weighted returns & 50% fewer steps\n  suffice.',
        tags: [
          { slug: 'reinforcement-learning', name: 'Reinforcement Learning' },
          { slug: 'credit-assignment-in-rl', name: 'Credit Assignment in RL' },
        ],
      }),
      'ada',
      at('2026-05-12T09:00:00Z'),
    );
    saveToQueue(
      doc,
      paper('hep-th/9901001', { version: null, tags: [], abstract: '' }),
      'ada',
      at('2026-05-12T09:00:00Z'),
    );
    const [modern, old] = read(exportBibtex(listQueue(doc)));
    expect(modern?.type).toBe('misc');
    expect(modern?.fields).toMatchObject({
      doi: '10.48550/arXiv.2605.01234',
      year: '2026',
      month: '5',
      version: '3',
      eprint: '2605.01234',
      archiveprefix: 'arXiv',
      url: 'https://arxiv.org/abs/2605.01234',
      abstract: 'We show that α₁-weighted returns & 50% fewer steps suffice.',
    });
    expect([...(modern?.fields.keywords ?? [])].sort()).toEqual([
      'Credit Assignment in RL',
      'Reinforcement Learning',
    ]);
    expect(modern?.fields.author).toEqual([
      { lastName: 'Lovelace', firstName: 'Ada' },
      { lastName: 'Turing', firstName: 'Alan' },
    ]);
    // An old-style id has its DOI and month too; what a paper lacks is left out rather than left empty.
    expect(old?.fields).toMatchObject({ doi: '10.48550/arXiv.hep-th/9901001', year: '1999', month: '1' });
    expect(Object.keys(old?.fields ?? {})).not.toContain('version');
    expect(Object.keys(old?.fields ?? {})).not.toContain('abstract');
    expect(Object.keys(old?.fields ?? {})).not.toContain('keywords');
  });
});
