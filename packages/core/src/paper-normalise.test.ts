import { describe, expect, it } from 'vitest';
import type { CoreError } from './errors.ts';
import type { RawPaper } from './paper.ts';
import { PAPER_LIMITS } from './paper-limits.ts';
import { normalisePaper } from './paper-normalise.ts';

const raw: RawPaper = {
  id: 'arXiv:2603.01234v2',
  title: '  Sparse \n   attention for $\\mathcal{O}(n)$  ',
  abstract: 'We do things.\n  Code: https://github.com/acme/widget.',
  authors: 'Ada Lovelace, Alan Turing and Grace Hopper',
  categories: 'cs.LG stat.ML cs.LG',
  versions: [
    { version: 2, submitted: 'Tue, 10 Mar 2026 09:00:00 GMT', size: '120kb' },
    { version: 1, submitted: 'Thu, 5 Mar 2026 20:00:00 GMT', size: ' 100kb ' },
  ],
  comment: '  12 pages;\n data at huggingface.co/datasets/acme/corpus ',
  doi: '   ',
  journalRef: null,
  license: 'http://creativecommons.org/licenses/by/4.0/',
};

function errorOf(run: () => unknown): CoreError {
  try {
    run();
  } catch (error) {
    return error as CoreError;
  }
  throw new Error('expected a CoreError');
}

describe('normalisePaper', () => {
  it('normalises a full record', () => {
    expect(normalisePaper(raw)).toEqual({
      id: '2603.01234',
      title: 'Sparse attention for $\\mathcal{O}(n)$',
      abstract: 'We do things. Code: https://github.com/acme/widget.',
      authors: [
        { name: 'Ada Lovelace', affiliations: [] },
        { name: 'Alan Turing', affiliations: [] },
        { name: 'Grace Hopper', affiliations: [] },
      ],
      categories: ['cs.LG', 'stat.ML'],
      primaryCategory: 'cs.LG',
      versions: [
        { version: 1, submitted: '2026-03-05T20:00:00Z', size: '100kb' },
        { version: 2, submitted: '2026-03-10T09:00:00Z', size: '120kb' },
      ],
      // Thursday 2026-03-05 15:00 EST is after the cutoff: Friday's window, listed Monday.
      listingDate: '2026-03-09',
      listingDateEstimated: true,
      submittedV1: '2026-03-05T20:00:00Z',
      comment: '12 pages; data at huggingface.co/datasets/acme/corpus',
      doi: null,
      journalRef: null,
      license: 'http://creativecommons.org/licenses/by/4.0/',
      links: { abs: 'https://arxiv.org/abs/2603.01234', pdf: 'https://arxiv.org/pdf/2603.01234' },
      codeLinks: ['https://github.com/acme/widget', 'https://huggingface.co/datasets/acme/corpus'],
    });
  });

  it('adds the version named in the id when the record lacks it', () => {
    const paper = normalisePaper({ ...raw, id: '2603.01234v3' });
    expect(paper.versions.map((v) => v.version)).toEqual([1, 2, 3]);
    expect(paper.versions[2]).toEqual({ version: 3, submitted: null, size: null });
    expect(normalisePaper({ ...raw, id: '2603.01234v1', versions: undefined }).versions).toEqual([
      { version: 1, submitted: null, size: null },
    ]);
  });

  it('merges repeated version numbers, keeping known fields', () => {
    const paper = normalisePaper({
      ...raw,
      versions: [
        { version: 1, submitted: null },
        { version: 1, submitted: '2026-03-05', size: '1kb' },
      ],
    });
    expect(paper.versions).toEqual([
      { version: 1, submitted: '2026-03-05', size: '1kb' },
      { version: 2, submitted: null, size: null },
    ]);
    // A bare Thursday is taken as before its cutoff.
    expect(paper.listingDate).toBe('2026-03-06');
  });

  it('moves a separately named primary category first', () => {
    expect(
      normalisePaper({ ...raw, categories: ['stat.ML', 'cs.LG'], primaryCategory: 'cs.LG' }),
    ).toMatchObject({
      categories: ['cs.LG', 'stat.ML'],
      primaryCategory: 'cs.LG',
    });
    expect(
      normalisePaper({ ...raw, categories: ['stat.ML'], primaryCategory: ' cs.AI ' }).categories,
    ).toEqual(['cs.AI', 'stat.ML']);
  });

  it('normalises author objects and their affiliations', () => {
    const paper = normalisePaper({
      ...raw,
      authors: [
        { name: ' Ada   Lovelace ', affiliations: [' Analytical  Engines ', 'Analytical Engines', ''] },
        'Alan Turing',
        '  ',
        { name: 'Grace Hopper' },
      ],
    });
    expect(paper.authors).toEqual([
      { name: 'Ada Lovelace', affiliations: ['Analytical Engines'] },
      { name: 'Alan Turing', affiliations: [] },
      { name: 'Grace Hopper', affiliations: [] },
    ]);
  });

  it('splits an author string with its parenthesised affiliations', () => {
    const paper = normalisePaper({ ...raw, authors: 'Ada Lovelace (Analytical Engines), Alan Turing, Jr.' });
    expect(paper.authors).toEqual([
      { name: 'Ada Lovelace', affiliations: ['Analytical Engines'] },
      { name: 'Alan Turing Jr.', affiliations: [] },
    ]);
  });

  it('prefers a given v1 date and a given listing date', () => {
    const paper = normalisePaper({ ...raw, submittedV1: '2026-03-04T12:00:00Z', listingDate: '2026-03-10' });
    expect(paper.submittedV1).toBe('2026-03-04T12:00:00Z');
    expect(paper).toMatchObject({ listingDate: '2026-03-10', listingDateEstimated: false });
    expect(normalisePaper({ ...raw, listingDate: '2026-03-10', listingDateEstimated: true })).toMatchObject({
      listingDate: '2026-03-10',
      listingDateEstimated: true,
    });
  });

  it('leaves the listing date unknown when no date is known', () => {
    expect(normalisePaper({ ...raw, versions: [] })).toMatchObject({
      submittedV1: null,
      listingDate: null,
      listingDateEstimated: false,
    });
  });

  it('links old-style papers', () => {
    const paper = normalisePaper({ ...raw, id: 'oai:arXiv.org:math.AG/0601001', versions: [] });
    expect(paper.id).toBe('math/0601001');
    expect(paper.links).toEqual({
      abs: 'https://arxiv.org/abs/math/0601001',
      pdf: 'https://arxiv.org/pdf/math/0601001',
    });
  });

  it.each([
    ['title', { title: ' \n ' }, /Paper 2603\.01234 has no title/],
    ['abstract', { abstract: '' }, /Paper 2603\.01234 has no abstract/],
    ['categories', { categories: '  ' }, /Paper 2603\.01234 has no categories/],
    ['categories', { categories: [] }, /has no categories/],
    ['listing date', { listingDate: '2026/03/10' }, /listing date "2026\/03\/10"/],
    ['version number', { versions: [{ version: 0 }] }, /version numbered 0/],
    ['version date', { versions: [{ version: 1, submitted: 'soon' }] }, /unreadable submission date for v1/],
    ['v1 date', { submittedV1: 'soon' }, /unreadable v1 submission date/],
  ])('rejects a bad %s with invalid-paper', (_field, change, message) => {
    const error = errorOf(() => normalisePaper({ ...raw, ...change }));
    expect(error).toMatchObject({ name: 'CoreError', code: 'invalid-paper' });
    expect(error.message).toMatch(message);
  });

  it('cuts a hostile record to the field limits instead of storing it whole', () => {
    const paper = normalisePaper({
      ...raw,
      title: 'Long '.repeat(1_000_000),
      abstract: 'a'.repeat(8 * 1024 * 1024),
      authors: Array.from({ length: 20_000 }, (_, i) => ({
        name: i === 0 ? `Ada ${'L'.repeat(1_000_000)}` : `Author ${i}`,
        affiliations: Array.from({ length: 100 }, (_, j) => `Lab ${j}`),
      })),
      comment: 'c'.repeat(1_000_000),
    });
    expect(paper.title.length).toBeLessThanOrEqual(PAPER_LIMITS.titleChars);
    expect(paper.title).toMatch(/^Long Long .*…$/);
    expect(paper.abstract.length).toBeLessThanOrEqual(PAPER_LIMITS.abstractChars);
    expect(paper.abstract.endsWith('a…')).toBe(true);
    expect(paper.authors).toHaveLength(PAPER_LIMITS.authors);
    expect(paper.authors[0]?.name.length).toBeLessThanOrEqual(PAPER_LIMITS.authorNameChars);
    expect(paper.authors[1]?.affiliations).toHaveLength(PAPER_LIMITS.affiliationsPerAuthor);
    expect(paper.comment?.length).toBeLessThanOrEqual(PAPER_LIMITS.otherTextChars);
  });

  it('cuts an author line given as one huge string before splitting it', () => {
    const line = Array.from({ length: 30_000 }, (_, i) => `Author Number${i}`).join(', ');
    const paper = normalisePaper({ ...raw, authors: line });
    expect(paper.authors).toHaveLength(PAPER_LIMITS.authors);
    expect(paper.authors[0]?.name).toBe('Author Number0');
  });

  it('never splits a surrogate pair when cutting', () => {
    const paper = normalisePaper({ ...raw, title: '𝔸'.repeat(PAPER_LIMITS.titleChars) });
    expect(paper.title.endsWith('𝔸…')).toBe(true);
    expect(paper.title.length).toBeLessThanOrEqual(PAPER_LIMITS.titleChars);
  });

  it('rejects an unreadable id with invalid-arxiv-id', () => {
    expect(errorOf(() => normalisePaper({ ...raw, id: 'paper-42' }))).toMatchObject({
      code: 'invalid-arxiv-id',
    });
  });
});
