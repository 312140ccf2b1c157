import { describe, expect, it } from 'vitest';
import type { CoreError } from './errors.ts';
import type { PaperEntity } from './paper.ts';
import { mergePapers, paperEquals } from './paper-merge.ts';

const base: PaperEntity = {
  id: '2603.01234',
  title: 'Sparse attention',
  abstract: 'We do things. Code: https://github.com/acme/widget',
  authors: [
    { name: 'Ada Lovelace', affiliations: ['Analytical Engines'] },
    { name: 'Alan Turing', affiliations: [] },
  ],
  categories: ['cs.LG', 'stat.ML'],
  primaryCategory: 'cs.LG',
  versions: [{ version: 1, submitted: '2026-03-05T20:00:00Z', size: '100kb' }],
  listingDate: '2026-03-09',
  listingDateEstimated: false,
  submittedV1: '2026-03-05T20:00:00Z',
  comment: '12 pages',
  doi: '10.1000/xyz',
  journalRef: 'J. Things 1 (2026)',
  license: 'http://creativecommons.org/licenses/by/4.0/',
  links: { abs: 'https://arxiv.org/abs/2603.01234', pdf: 'https://arxiv.org/pdf/2603.01234' },
  codeLinks: ['https://github.com/acme/widget'],
};

// The store round-trips entities through JSON, so a JSON copy is the realistic "same record again".
function clone(p: PaperEntity): PaperEntity {
  return JSON.parse(JSON.stringify(p)) as PaperEntity;
}

function paper(change: Partial<PaperEntity>): PaperEntity {
  return { ...clone(base), ...change };
}

const listing = { countsAsListing: true };
const replacement = { countsAsListing: false };

describe('mergePapers', () => {
  it('changes nothing when the same record arrives again', () => {
    expect(paperEquals(mergePapers(base, clone(base), listing), base)).toBe(true);
    expect(paperEquals(mergePapers(base, clone(base), replacement), base)).toBe(true);
  });

  it('takes metadata from the incoming record', () => {
    const incoming = paper({
      title: 'Sparse attention, revised',
      categories: ['stat.ML'],
      primaryCategory: 'stat.ML',
      comment: '14 pages',
      codeLinks: ['https://github.com/acme/widget2'],
    });
    expect(mergePapers(base, incoming, replacement)).toMatchObject({
      title: 'Sparse attention, revised',
      categories: ['stat.ML'],
      primaryCategory: 'stat.ML',
      comment: '14 pages',
      codeLinks: ['https://github.com/acme/widget2'],
    });
  });

  it('never lets a missing or empty incoming value erase a known one', () => {
    const incoming = paper({
      title: ' ',
      authors: [],
      categories: [],
      comment: null,
      doi: '',
      journalRef: null,
      license: null,
      codeLinks: [],
    });
    const merged = mergePapers(base, incoming, listing);
    expect(paperEquals(merged, base)).toBe(true);
  });

  it('keeps affiliations a names-only source does not give', () => {
    const incoming = paper({
      authors: [
        { name: 'ada lovelace', affiliations: [] },
        { name: 'Alan Turing', affiliations: ['Bletchley Park'] },
        { name: 'Grace Hopper', affiliations: [] },
      ],
    });
    expect(mergePapers(base, incoming, listing).authors).toEqual([
      { name: 'ada lovelace', affiliations: ['Analytical Engines'] },
      { name: 'Alan Turing', affiliations: ['Bletchley Park'] },
      { name: 'Grace Hopper', affiliations: [] },
    ]);
  });

  it('unions versions by number, a known date beating an unknown one', () => {
    const incoming = paper({
      versions: [
        { version: 1, submitted: null, size: null },
        { version: 2, submitted: '2026-03-10T09:00:00Z', size: '120kb' },
      ],
    });
    expect(mergePapers(base, incoming, replacement).versions).toEqual([
      { version: 1, submitted: '2026-03-05T20:00:00Z', size: '100kb' },
      { version: 2, submitted: '2026-03-10T09:00:00Z', size: '120kb' },
    ]);
  });

  it('keeps the earliest known v1 date, preferring a timestamp to the same bare day', () => {
    const later = paper({ submittedV1: '2026-03-06T01:00:00Z', versions: [] });
    expect(mergePapers(base, later, listing).submittedV1).toBe('2026-03-05T20:00:00Z');
    const sameDay = paper({ submittedV1: '2026-03-05', versions: [] });
    expect(mergePapers(base, sameDay, listing).submittedV1).toBe('2026-03-05T20:00:00Z');
    const earlierDay = paper({ submittedV1: '2026-03-04', versions: [] });
    expect(mergePapers(base, earlierDay, listing).submittedV1).toBe('2026-03-04');
    const unknown = paper({ submittedV1: null, versions: [] });
    expect(mergePapers(paper({ submittedV1: null, versions: [] }), unknown, listing).submittedV1).toBeNull();
  });

  it('takes the v1 date from merged versions when neither record gave one', () => {
    const existing = paper({ submittedV1: null, versions: [] });
    const incoming = paper({
      submittedV1: null,
      versions: [{ version: 1, submitted: '2026-03-05', size: null }],
    });
    expect(mergePapers(existing, incoming, listing).submittedV1).toBe('2026-03-05');
  });

  it('rejects records of different papers', () => {
    expect(() => mergePapers(base, paper({ id: '2603.99999' }), listing)).toThrow(
      expect.objectContaining({ code: 'invalid-paper' }) as CoreError,
    );
  });
});

describe('mergePapers listing dates', () => {
  const real = (listingDate: string | null) => paper({ listingDate, listingDateEstimated: false });
  const estimate = (listingDate: string) => paper({ listingDate, listingDateEstimated: true });
  const result = (p: PaperEntity) => [p.listingDate, p.listingDateEstimated];

  it('leaves the listing date alone for a replacement, even when unknown', () => {
    expect(result(mergePapers(real(null), real('2026-03-10'), replacement))).toEqual([null, false]);
    expect(result(mergePapers(estimate('2026-03-09'), real('2026-03-10'), replacement))).toEqual([
      '2026-03-09',
      true,
    ]);
    expect(result(mergePapers(real('2026-03-10'), real('2026-03-09'), replacement))).toEqual([
      '2026-03-10',
      false,
    ]);
  });

  it('fills an unknown date and keeps a known one when the incoming has none', () => {
    expect(result(mergePapers(real(null), estimate('2026-03-09'), listing))).toEqual(['2026-03-09', true]);
    expect(result(mergePapers(estimate('2026-03-09'), real(null), listing))).toEqual(['2026-03-09', true]);
  });

  it('lets a read date replace an estimate, later or not', () => {
    expect(result(mergePapers(estimate('2026-03-09'), real('2026-03-10'), listing))).toEqual([
      '2026-03-10',
      false,
    ]);
    expect(result(mergePapers(estimate('2026-03-11'), real('2026-03-10'), listing))).toEqual([
      '2026-03-10',
      false,
    ]);
  });

  it('never lets an estimate replace a read date', () => {
    expect(result(mergePapers(real('2026-03-10'), estimate('2026-03-09'), listing))).toEqual([
      '2026-03-10',
      false,
    ]);
  });

  it('keeps the earlier of two dates of the same kind', () => {
    expect(result(mergePapers(real('2026-03-10'), real('2026-03-09'), listing))).toEqual([
      '2026-03-09',
      false,
    ]);
    expect(result(mergePapers(real('2026-03-09'), real('2026-03-10'), listing))).toEqual([
      '2026-03-09',
      false,
    ]);
    expect(result(mergePapers(estimate('2026-03-10'), estimate('2026-03-09'), listing))).toEqual([
      '2026-03-09',
      true,
    ]);
    expect(result(mergePapers(estimate('2026-03-09'), estimate('2026-03-10'), listing))).toEqual([
      '2026-03-09',
      true,
    ]);
  });
});

describe('paperEquals', () => {
  it('compares deeply', () => {
    expect(paperEquals(base, clone(base))).toBe(true);
    const changed = clone(base);
    changed.authors[0]?.affiliations.push('Elsewhere');
    expect(paperEquals(base, changed)).toBe(false);
    expect(paperEquals(base, paper({ versions: [] }))).toBe(false);
    expect(paperEquals(base, paper({ doi: null }))).toBe(false);
  });

  it('treats a key holding undefined as absent', () => {
    const withExtra = { ...clone(base), note: undefined } as PaperEntity;
    expect(paperEquals(base, withExtra)).toBe(true);
  });
});
