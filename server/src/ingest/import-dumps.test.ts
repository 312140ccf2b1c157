import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../store/open-store.ts';
import { sqliteSearchReader } from '../store/search-reader.ts';
import { word } from '../store/search-match.ts';
import { importInto, importPaths, type ImportProgress } from './import-dumps.ts';
import { sqliteImportWrites } from '../store/import-writes.ts';

let dir: string;
let store: Store;
let clock: Date;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quire-import-'));
  clock = new Date('2026-05-16T08:00:00Z');
  store = openStore(join(dir, 'db', 'quire.db'), { now: () => clock });
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

function listingLine(n: number, date = '2026-04-01'): string {
  return JSON.stringify({
    id: `2604.${String(n).padStart(5, '0')}`,
    date,
    title: `Paper number ${n}`,
    authors: ['Ada Lovelace', 'Alan Turing'],
    categories: n % 2 === 0 ? ['cs.LG', 'cs.AI'] : ['cs.CL'],
    comment: null,
    abstract: `Abstract of paper ${n}.`,
    source: 'test',
  });
}

function lines(count: number): string[] {
  return Array.from({ length: count }, (_, i) => listingLine(i + 1));
}

function write(name: string, content: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

const KAGGLE_LINE = JSON.stringify({
  id: '0704.0001',
  submitter: 'Pavel Nadolsky',
  authors: "C. Bal\\'azs, E. L. Berger, P. M. Nadolsky, C.-P. Yuan",
  title: 'Calculation of prompt diphoton production cross sections at Tevatron and\n  LHC energies',
  comments: '37 pages, 15 figures',
  'journal-ref': 'Phys.Rev.D76:013009,2007',
  doi: '10.1103/PhysRevD.76.013009',
  categories: 'hep-ph',
  license: null,
  abstract: '  A fully differential calculation in perturbative quantum chromodynamics is presented.\n',
  versions: [{ version: 'v1', created: 'Mon, 2 Apr 2007 19:18:42 GMT' }],
  update_date: '2008-11-13',
  authors_parsed: [
    ['Balázs', 'C.', ''],
    ['Berger', 'E. L.', ''],
  ],
});

const OAI_PAGE = `<?xml version="1.0" encoding="UTF-8"?>
<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/">
<responseDate>2026-05-16T08:00:00Z</responseDate>
<request verb="ListRecords" metadataPrefix="arXiv" set="cs">http://export.arxiv.org/oai2</request>
<ListRecords>
${[1, 2]
  .map(
    (
      n,
    ) => `<record><header><identifier>oai:arXiv.org:2605.0000${n}</identifier><datestamp>2026-05-14</datestamp>
<setSpec>cs</setSpec></header><metadata>
<arXiv xmlns="http://arxiv.org/OAI/arXiv/"><id>2605.0000${n}</id><created>2026-05-12</created>
<authors><author><keyname>Hopper</keyname><forenames>Grace</forenames><affiliation>Navy</affiliation></author></authors>
<title>Harvested paper ${n}</title><categories>cs.SE</categories><abstract>About compilers ${n}.</abstract>
</arXiv></metadata></record>`,
  )
  .join('\n')}
<resumptionToken cursor="0" completeListSize="2"></resumptionToken>
</ListRecords>
</OAI-PMH>
`;

describe('importPaths with JSON Lines', () => {
  it('stores every line of a plain file and logs the import', async () => {
    const path = write('week.jsonl', lines(25).join('\n') + '\n');
    const report = await importPaths(store, [path], { batchSize: 10 });
    expect(report.files).toHaveLength(1);
    expect(report.files[0]).toMatchObject({
      path,
      format: 'jsonl',
      lines: 25,
      inserted: 25,
      updated: 0,
      unchanged: 0,
      skipped: 0,
      status: 'ok',
    });
    expect(report.totals).toMatchObject({ files: 1, failedFiles: 0, inserted: 25 });
    expect(store.papers.count()).toBe(25);
    expect(store.papers.get('2604.00002')).toMatchObject({
      title: 'Paper number 2',
      primaryCategory: 'cs.LG',
      listingDate: '2026-04-01',
      listingDateEstimated: false,
    });
    const logged = store.state.lastIngest('import');
    expect(logged).toMatchObject({ source: path, inserted: 25, status: 'ok', errors: [] });
  });

  it('reads the same content from gzip and brotli files alike', async () => {
    const text = lines(30).join('\n');
    const plain = await importPaths(store, [write('a.jsonl', text)]);
    const gz = await importPaths(store, [write('a.jsonl.gz', gzipSync(text))]);
    const br = await importPaths(store, [write('a.jsonl.br', brotliCompressSync(text))]);
    expect(plain.files[0]).toMatchObject({ format: 'jsonl', inserted: 30 });
    expect(gz.files[0]).toMatchObject({
      format: 'jsonl.gz',
      lines: 30,
      unchanged: 30,
      inserted: 0,
      updated: 0,
    });
    expect(br.files[0]).toMatchObject({
      format: 'jsonl.br',
      lines: 30,
      unchanged: 30,
      inserted: 0,
      updated: 0,
    });
  });

  it('skips a malformed line, reports its number and stores the others', async () => {
    const content = [...lines(4), '{"id": "2604.99999", "title": broken', ...lines(9).slice(4), '', '[1,2]'];
    const path = write('broken.jsonl', content.join('\r\n'));
    const report = await importPaths(store, [path], { batchSize: 3 });
    const file = report.files[0];
    expect(file?.status).toBe('ok');
    expect(file?.inserted).toBe(9);
    expect(file?.skipped).toBe(2);
    expect(file?.errors.map((e) => e.line)).toEqual([5, 12]);
    expect(file?.errors[0]?.message).toMatch(/not valid JSON/);
    expect(store.papers.count()).toBe(9);
    expect(store.papers.has('2604.99999')).toBe(false);
    expect(store.state.lastIngest()?.errors.map((e) => e.line)).toEqual([5, 12]);
  });

  it('keeps at most 100 errors per file but counts them all', async () => {
    const content = [listingLine(1), ...Array.from({ length: 150 }, () => 'not json'), listingLine(2)];
    const report = await importPaths(store, [write('noisy.jsonl', content.join('\n'))]);
    const file = report.files[0];
    expect(file?.skipped).toBe(150);
    expect(file?.errorCount).toBe(150);
    expect(file?.errors).toHaveLength(100);
    expect(file?.inserted).toBe(2);
  });

  it('imports a Kaggle snapshot line with an estimated listing date', async () => {
    const report = await importPaths(store, [write('arxiv-metadata-oai-snapshot.json', KAGGLE_LINE + '\n')]);
    expect(report.files[0]).toMatchObject({ format: 'jsonl', inserted: 1 });
    const paper = store.papers.get('0704.0001');
    expect(paper?.doi).toBe('10.1103/PhysRevD.76.013009');
    expect(paper?.listingDateEstimated).toBe(true);
  });
});

describe('the search index after an import', () => {
  // FTS5's segments: each batch writes one, merged 8 at a time.
  const segments = () =>
    store.db.prepare<[], number>(`SELECT count(DISTINCT segid) FROM paper_search_idx`).pluck().get();

  it('is merged into one segment when the import wrote most of the store, and finds the same papers', async () => {
    const report = await importPaths(store, [write('bulk.jsonl', lines(60).join('\n') + '\n')], {
      batchSize: 5,
    });
    expect(report.indexCompactMs).toBeGreaterThanOrEqual(0);
    expect(segments()).toBe(1);
    const reader = sqliteSearchReader(store.db);
    expect(await reader.hitsUpTo(word('paper'), 100)).toBe(60);
    expect(await reader.vocabulary(['lovelace', 'number'])).toEqual([
      { term: 'lovelace', docs: 60 },
      { term: 'number', docs: 60 },
    ]);
  });

  it('failing to merge is a note, not a failed import: every paper stays stored', async () => {
    const writes = sqliteImportWrites(store);
    const full = {
      ...writes,
      afterBulkLoad: () => Promise.reject(new Error('database or disk is full')),
    };
    const report = await importInto(full, [write('bulk.jsonl', lines(60).join('\n') + '\n')], {
      batchSize: 5,
    });
    expect(report.totals.inserted).toBe(60);
    expect(report.notes.join('\n')).toContain(
      'the search index was not merged after the import (database or disk is full)',
    );
    expect(await sqliteSearchReader(store.db).hitsUpTo(word('paper'), 100)).toBe(60);
  });

  it('is left as it is after an import of a few papers into a larger store', async () => {
    await importPaths(store, [write('bulk.jsonl', lines(60).join('\n') + '\n')], { batchSize: 5 });
    const more = Array.from({ length: 10 }, (_, i) => listingLine(100 + i)).join('\n') + '\n';
    const report = await importPaths(store, [write('more.jsonl', more)], { batchSize: 5 });
    expect(report.indexCompactMs).toBeUndefined();
    expect(segments()).toBe(3);
    expect(await sqliteSearchReader(store.db).hitsUpTo(word('paper'), 100)).toBe(70);
  });
});

describe('importPaths with folders and failures', () => {
  it('expands a folder in name order and notes what it skips', async () => {
    const folder = join(dir, 'dumps');
    mkdirSync(join(folder, 'older'), { recursive: true });
    writeFileSync(join(folder, 'b.jsonl'), listingLine(2));
    writeFileSync(join(folder, 'a.jsonl.gz'), gzipSync(listingLine(1)));
    writeFileSync(join(folder, 'older', 'c.jsonl'), listingLine(3));
    writeFileSync(join(folder, 'MANIFEST.json'), '{\n "total_records": 3\n}\n');
    writeFileSync(join(folder, 'README.md'), '# dumps\n');
    const report = await importPaths(store, [folder]);
    expect(report.files.map((f) => f.path)).toEqual([
      join(folder, 'a.jsonl.gz'),
      join(folder, 'b.jsonl'),
      join(folder, 'older', 'c.jsonl'),
    ]);
    expect(report.notes).toHaveLength(2);
    expect(report.notes.join('\n')).toMatch(/MANIFEST\.json: skipped, a corpus manifest/);
    expect(report.notes.join('\n')).toMatch(/README\.md: skipped, not a dump file/);
    expect(store.papers.count()).toBe(3);
  });

  it('fails a missing, unknown or corrupt file alone with a clear sentence and imports the rest', async () => {
    const good = write('good.jsonl', listingLine(1));
    const unknown = write('notes.txt', 'Dear reading group,\nplease read this.\n');
    const array = write('array.json', `[${listingLine(2)}]`);
    const corrupt = write('corrupt.jsonl.gz', Buffer.from('this is not gzip at all'));
    const missing = join(dir, 'missing.jsonl');
    const report = await importPaths(store, [missing, unknown, array, corrupt, good]);

    const byPath = new Map(report.files.map((f) => [f.path, f]));
    expect(byPath.get(missing)?.failure).toEqual({
      code: 'unreadable-file',
      message: `Cannot read ${missing}: no such file or folder.`,
    });
    expect(byPath.get(unknown)?.failure?.code).toBe('unknown-format');
    expect(byPath.get(unknown)?.failure?.message).toMatch(/notes\.txt is in an unknown format/);
    expect(byPath.get(array)?.failure?.message).toMatch(/one JSON array, not JSON Lines/);
    expect(byPath.get(corrupt)?.failure).toMatchObject({ code: 'unreadable-file' });
    expect(byPath.get(corrupt)?.failure?.message).toMatch(/not valid gzip data/);
    expect(byPath.get(good)).toMatchObject({ status: 'ok', inserted: 1 });
    expect(report.totals).toMatchObject({ files: 5, failedFiles: 4, inserted: 1 });
    expect(store.state.recentIngests(10).filter((r) => r.status === 'failed')).toHaveLength(4);
  });
});

describe('importPaths with OAI-PMH pages', () => {
  it('stores a saved page whole', async () => {
    const report = await importPaths(store, [write('page-1.xml', OAI_PAGE)]);
    expect(report.files[0]).toMatchObject({ format: 'oai-xml', lines: 2, inserted: 2, status: 'ok' });
    const paper = store.papers.get('2605.00001');
    expect(paper?.authors).toEqual([{ name: 'Grace Hopper', affiliations: ['Navy'] }]);
    expect(paper?.listingDateEstimated).toBe(true);
  });

  it('reads a gzipped page', async () => {
    const report = await importPaths(store, [write('page-1.xml.gz', gzipSync(OAI_PAGE))]);
    expect(report.files[0]).toMatchObject({ format: 'oai-xml.gz', inserted: 2 });
  });

  it('fails a truncated page whole, storing nothing of it', async () => {
    const truncated = OAI_PAGE.slice(0, OAI_PAGE.indexOf('Harvested paper 2'));
    const report = await importPaths(store, [write('page-2.xml', truncated)]);
    expect(report.files[0]?.status).toBe('failed');
    expect(report.files[0]?.inserted).toBe(0);
    expect(report.files[0]?.failure?.message).toMatch(/page-2\.xml/);
    expect(store.papers.count()).toBe(0);
  });

  it('treats noRecordsMatch as an empty page and other OAI errors as failures', async () => {
    const error = (code: string) =>
      `<?xml version="1.0"?><OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><responseDate>2026-05-16T08:00:00Z</responseDate><request verb="ListRecords">http://export.arxiv.org/oai2</request><error code="${code}">nope</error></OAI-PMH>`;
    const report = await importPaths(store, [
      write('empty.xml', error('noRecordsMatch')),
      write('bad-token.xml', error('badResumptionToken')),
    ]);
    expect(report.files.map((f) => f.status)).toEqual(['ok', 'failed']);
    expect(report.files[1]?.failure).toMatchObject({ code: 'oai-error' });
  });

  it('refuses XML that is not OAI-PMH', async () => {
    const report = await importPaths(store, [write('feed.xml', '<?xml version="1.0"?><feed></feed>')]);
    expect(report.files[0]?.failure?.code).toBe('unknown-format');
  });
});

describe('progress', () => {
  it('reports bytes across files, throttled, with a final report per file', async () => {
    const a = write('a.jsonl', lines(50).join('\n'));
    const b = write('b.jsonl.br', brotliCompressSync(lines(80).join('\n')));
    const events: ImportProgress[] = [];
    // A clock that never moves allows only the first report and the one at each file end.
    await importPaths(store, [a, b], { onProgress: (p) => events.push(p), now: () => clock, batchSize: 7 });
    expect(events.length).toBe(3);
    const last = events.at(-1);
    expect(last).toMatchObject({ file: b, fileIndex: 1, fileCount: 2, papers: 130 });
    expect(last?.bytesRead).toBe(last?.bytesTotal);
    expect(events[1]).toMatchObject({ file: a, papers: 50 });
    expect(events[1]?.fileBytesRead).toBe(events[1]?.fileBytesTotal);
  });
});
