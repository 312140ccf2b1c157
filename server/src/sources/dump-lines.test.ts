import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { QuireError } from '../errors.ts';
import { parseDumpLine } from './dump-lines.ts';
import { filesUnder, listingsDir } from './test-fixtures.ts';

const kaggleLine = JSON.stringify({
  id: '0704.0002',
  submitter: 'A. Submitter',
  authors: 'Ann Example and Bob Sample',
  title: 'Sparsity-certifying Graph Decompositions\n  for Testing',
  comments: 'To appear in Graphs and Combinatorics',
  'journal-ref': null,
  doi: null,
  'report-no': null,
  categories: 'math.CO cs.CG',
  license: 'http://arxiv.org/licenses/nonexclusive-distrib/1.0/',
  abstract: '  We describe a new algorithm.\n',
  versions: [
    { version: 'v1', created: 'Sat, 31 Mar 2007 02:26:18 GMT' },
    { version: 'v2', created: 'Sat, 13 Dec 2008 17:26:00 GMT' },
  ],
  update_date: '2008-12-13',
  authors_parsed: [
    ['Example', 'Ann', ''],
    ['Sample', 'Bob', 'Jr'],
  ],
});

describe('parseDumpLine', () => {
  it('reads a Kaggle snapshot line', () => {
    expect(parseDumpLine(kaggleLine)).toEqual({
      id: '0704.0002',
      title: 'Sparsity-certifying Graph Decompositions for Testing',
      abstract: 'We describe a new algorithm.',
      authors: [
        { name: 'Ann Example', affiliations: [] },
        { name: 'Bob Sample Jr', affiliations: [] },
      ],
      categories: 'math.CO cs.CG',
      versions: [
        { version: 1, submitted: '2007-03-31T02:26:18Z', size: null },
        { version: 2, submitted: '2008-12-13T17:26:00Z', size: null },
      ],
      submittedV1: '2007-03-31T02:26:18Z',
      comment: 'To appear in Graphs and Combinatorics',
      journalRef: null,
      doi: null,
      license: 'http://arxiv.org/licenses/nonexclusive-distrib/1.0/',
    });
  });

  it('falls back to the author string when authors_parsed is missing', () => {
    const record = JSON.parse(kaggleLine) as Record<string, unknown>;
    delete record.authors_parsed;
    expect(parseDumpLine(JSON.stringify(record)).authors).toEqual([
      { name: 'Ann Example', affiliations: [] },
      { name: 'Bob Sample', affiliations: [] },
    ]);
  });

  it('estimates the listing day from update_date only when the versions give no v1 date', () => {
    const record = JSON.parse(kaggleLine) as Record<string, unknown>;
    expect(parseDumpLine(kaggleLine)).not.toHaveProperty('listingDate');
    // Saturday 2008-12-13: a submission that day is listed on Tuesday the 16th.
    for (const versions of [undefined, [], [{ version: 'v1', created: 'not a date' }]]) {
      const paper = parseDumpLine(JSON.stringify({ ...record, versions }));
      expect(paper).toMatchObject({
        submittedV1: null,
        listingDate: '2008-12-16',
        listingDateEstimated: true,
      });
    }
    const neither = parseDumpLine(JSON.stringify({ ...record, versions: [], update_date: '13/12/2008' }));
    expect(neither).not.toHaveProperty('listingDate');
  });

  it('reads the first listing-corpus line by eye', () => {
    const [file] = filesUnder(listingsDir, '.jsonl.br');
    const first = brotliDecompressSync(readFileSync(join(listingsDir, file as string)))
      .toString('utf8')
      .split('\n', 1)[0] as string;
    const paper = parseDumpLine(first);
    expect(paper).toMatchObject({
      id: '2603.12268',
      listingDate: '2026-03-16',
      listingDateEstimated: false,
      categories: ['cs.DC', 'cs.LG'],
      comment: null,
    });
    expect(paper.title).toMatch(/^A Holistic Framework for Automated Configuration Recommendation/);
    expect(paper.authors[0]).toBe('Anson Bastos');
    expect(paper.authors).toHaveLength(6);
  });

  // How fast is for `pnpm bench ingest`; this checks only what is read.
  it('reads every line of the listing corpus', () => {
    const files = filesUnder(listingsDir, '.jsonl.br');
    expect(files).toHaveLength(9);
    const lines = files.flatMap((file) =>
      brotliDecompressSync(readFileSync(join(listingsDir, file)))
        .toString('utf8')
        .split('\n')
        .filter((line) => line !== ''),
    );
    expect(lines).toHaveLength(26_845);
    const papers = lines.map(parseDumpLine);
    expect(papers.every((p) => p.listingDateEstimated === false && typeof p.listingDate === 'string')).toBe(
      true,
    );
  });

  it.each([
    ['', /empty/],
    ['{"id": "0704.0001", "title": ', /not valid JSON/],
    ['[1, 2]', /not a JSON object/],
    ['"just a string"', /not a JSON object/],
    ['{"title": "no id", "authors": [], "categories": []}', /no string "id"/],
    ['{"id": "0704.0001", "authors": "A", "categories": ["cs.AI"]}', /neither/],
    ['{"id": "0704.0001", "authors": ["A"], "categories": ["cs.AI"], "date": "16/03/2026"}', /date/],
  ])('rejects %j as bad-input', (line, reason) => {
    expect(() => parseDumpLine(line)).toThrow(QuireError);
    expect(() => parseDumpLine(line)).toThrow(
      expect.objectContaining({ code: 'bad-input', message: expect.stringMatching(reason) as unknown }),
    );
  });
});
