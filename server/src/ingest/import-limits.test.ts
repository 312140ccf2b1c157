/**
 * Hostile dumps (issue 10, finding 5): each is generated here in a temp folder and deleted after. The caps
 * are set low where the point is the cap itself, so no test writes more than a few MiB.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../store/open-store.ts';
import { importPaths, type ImportProgress } from './import-dumps.ts';

let dir: string;
let store: Store;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quire-import-limits-'));
  store = openStore(join(dir, 'quire.db'));
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

function listingLine(n: number, fields: Record<string, unknown> = {}): string {
  return JSON.stringify({
    id: `2604.${String(n).padStart(5, '0')}`,
    date: '2026-04-01',
    title: `Paper number ${n}`,
    authors: ['Ada Lovelace'],
    categories: ['cs.LG'],
    comment: null,
    abstract: `Abstract of paper ${n}.`,
    source: 'test',
    ...fields,
  });
}

function write(name: string, content: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

describe('line cap', () => {
  it('skips a 3 MiB line with its line number and imports the rest of the file', async () => {
    const huge = listingLine(2, { abstract: 'a'.repeat(3 * 1024 * 1024) });
    const path = write('long.jsonl', [listingLine(1), huge, listingLine(3)].join('\n') + '\n');
    const report = await importPaths(store, [path]);
    const file = report.files[0];
    expect(file).toMatchObject({ status: 'ok', lines: 3, inserted: 2, skipped: 1 });
    expect(file?.errors).toHaveLength(1);
    expect(file?.errors[0]?.line).toBe(2);
    expect(file?.errors[0]?.message).toMatch(/longer than 1 MiB/);
    expect(file?.errors[0]?.message).toMatch(/QUIRE_IMPORT_MAX_LINE_BYTES/);
    expect(store.papers.has('2604.00002')).toBe(false);
    expect(store.papers.has('2604.00003')).toBe(true);
  });

  it('skips a gzipped line with no newline that expands far past the cap, then reads on', async () => {
    // 32 MiB of one line, under 40 KB compressed; the cap is lowered so the skip is the behaviour seen.
    const endless = Buffer.concat([
      Buffer.from('{"id":"2604.00002","abstract":"'),
      Buffer.alloc(32 << 20, 'x'),
    ]);
    const body = Buffer.concat([
      Buffer.from(listingLine(1) + '\n'),
      endless,
      Buffer.from('\n' + listingLine(3)),
    ]);
    const path = write('bomb.jsonl.gz', gzipSync(body));
    const report = await importPaths(store, [path], { maxLineBytes: 64 * 1024 });
    const file = report.files[0];
    expect(file).toMatchObject({ status: 'ok', lines: 3, inserted: 2, skipped: 1 });
    expect(file?.errors[0]).toMatchObject({ line: 2 });
    expect(file?.errors[0]?.message).toMatch(/longer than 64 KiB/);
  });

  it('keeps lines whole across chunk boundaries, CRLF and multibyte characters included', async () => {
    const title = 'Ünïcödé ' + '→'.repeat(200_000);
    const content = [listingLine(1), listingLine(2, { title }), listingLine(3)].join('\r\n');
    const report = await importPaths(store, [write('wide.jsonl.gz', gzipSync(content))]);
    expect(report.files[0]).toMatchObject({ lines: 3, inserted: 3, skipped: 0 });
    expect(store.papers.get('2604.00002')?.title.startsWith('Ünïcödé →→')).toBe(true);
  });
});

describe('invalid UTF-8', () => {
  it('skips and reports a line that is not UTF-8 instead of storing replacement characters', async () => {
    const bad = Buffer.from(listingLine(2, { title: 'Caf@ society' }));
    bad[bad.indexOf('@')] = 0xe9; // Latin-1 é: not UTF-8
    const content = Buffer.concat([
      Buffer.from(listingLine(1) + '\n'),
      bad,
      Buffer.from('\n' + listingLine(3) + '\n'),
    ]);
    const report = await importPaths(store, [write('latin1.jsonl', content)]);
    const file = report.files[0];
    expect(file).toMatchObject({ status: 'ok', lines: 3, inserted: 2, skipped: 1 });
    expect(file?.errors[0]?.line).toBe(2);
    expect(file?.errors[0]?.message).toMatch(/not valid UTF-8/);
    expect(store.papers.has('2604.00002')).toBe(false);
  });

  it('still imports a line that holds a genuine U+FFFD', async () => {
    const path = write('fffd.jsonl', listingLine(1, { title: 'Replacement \uFFFD sign' }) + '\n');
    const report = await importPaths(store, [path]);
    expect(report.files[0]).toMatchObject({ inserted: 1, skipped: 0 });
  });
});

describe('XML page cap', () => {
  const pageWith = (padding: string): string =>
    `<?xml version="1.0" encoding="UTF-8"?>
<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/">
<responseDate>2026-05-16T08:00:00Z</responseDate>
<request verb="ListRecords" metadataPrefix="arXiv">http://export.arxiv.org/oai2</request>
<!-- ${padding} -->
<ListRecords></ListRecords>
</OAI-PMH>
`;

  it('fails a gzipped page that expands past the cap, before reading all of it', async () => {
    // Random text compresses poorly, so the file is several read chunks long and stopping early shows.
    const path = write('bomb.xml.gz', gzipSync(pageWith(randomBytes(6 << 20).toString('base64'))));
    let tick = 0;
    const events: ImportProgress[] = [];
    const report = await importPaths(store, [path], {
      maxXmlBytes: 1 << 20,
      now: () => new Date(++tick * 1000),
      onProgress: (p) => events.push(p),
    });
    const file = report.files[0];
    expect(file?.status).toBe('failed');
    expect(file?.failure?.code).toBe('too-large');
    expect(file?.failure?.message).toMatch(/more than 1 MiB of XML/);
    expect(file?.failure?.message).toMatch(/QUIRE_IMPORT_MAX_XML_BYTES/);
    // The last report settles the count to the file size; the one before shows where reading stopped.
    const beforeEnd = events.at(-2);
    expect(beforeEnd?.fileBytesRead).toBeLessThan((beforeEnd?.fileBytesTotal ?? 0) / 2);
  });

  it('imports a page under the cap', async () => {
    const path = write('fine.xml', pageWith('small'));
    const report = await importPaths(store, [path], { maxXmlBytes: 1 << 20 });
    expect(report.files[0]).toMatchObject({ status: 'ok', format: 'oai-xml' });
  });
});
