/**
 * Resuming a JSON Lines import. A run is stopped part way by a progress callback that throws once enough
 * papers are stored, which fails the file the way a crash would stop it: after some batches committed. The
 * whole-process version (SIGKILL of the CLI on a 100,000-line snapshot) is tests/integration/import-kaggle.
 */
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../store/open-store.ts';
import { importPaths, type FileReport, type ImportOptions, type ImportProgress } from './import-dumps.ts';
import { checkpointKey, type ImportCheckpoint } from './import-checkpoint.ts';

let dir: string;
let store: Store;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quire-import-resume-'));
  store = openStore(join(dir, 'quire.db'));
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

function line(n: number): string {
  return JSON.stringify({
    id: `2604.${String(n).padStart(5, '0')}`,
    date: '2026-04-01',
    title: `Paper ${n} — naïve`,
    authors: ['Ada Lovelace'],
    categories: ['cs.LG'],
    abstract: `Abstract ${n}.`,
  });
}

function write(name: string, content: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

// A clock that moves a second per reading, so that every stored batch reaches onProgress.
function ticking(): () => Date {
  let t = Date.parse('2026-05-16T08:00:00Z');
  return () => new Date((t += 1000));
}

/** Imports `path` but stops it (the file fails) once `papers` or more papers are stored. */
async function stoppedAt(path: string, papers: number, opts: ImportOptions = {}): Promise<FileReport> {
  let stopped = false;
  const report = await importPaths(store, [path], {
    ...opts,
    now: ticking(),
    onProgress: (p) => {
      if (stopped || p.papers < papers) return;
      stopped = true;
      throw new Error('stopped by the test');
    },
  });
  const [file] = report.files;
  expect(file?.status).toBe('failed');
  return file as FileReport;
}

function checkpoint(path: string): ImportCheckpoint | undefined {
  return store.state.getCheckpoint<ImportCheckpoint>(checkpointKey(path));
}

const BOM = '\uFEFF';
const text = (n: number, sep = '\n'): string =>
  Array.from({ length: n }, (_, i) => line(i + 1)).join(sep) + sep;

describe.each([
  ['plain', 'a.jsonl', (s: string): string | Buffer => s],
  ['gzip', 'a.jsonl.gz', (s: string): string | Buffer => gzipSync(s)],
  ['brotli', 'a.jsonl.br', (s: string): string | Buffer => brotliCompressSync(s)],
])('a %s file stopped part way', (_name, fileName, encode) => {
  it('resumes after the last committed batch, stores each line once, and clears the checkpoint', async () => {
    // A byte order mark, CRLF line ends, a blank and a malformed line: offsets must count every byte.
    const lines = text(95, '\r\n').split('\r\n');
    lines.splice(40, 0, '', 'not json');
    const path = write(fileName, encode(BOM + lines.join('\r\n')));

    const first = await stoppedAt(path, 30, { batchSize: 10 });
    expect(first).toMatchObject({ inserted: 30, resumedAfterLine: 0 });
    const cut = checkpoint(path);
    expect(cut).toMatchObject({ path, line: 30 });
    expect(store.papers.count()).toBe(30);

    const resumed: Array<[string, number]> = [];
    const progress: ImportProgress[] = [];
    const second = await importPaths(store, [path], {
      batchSize: 10,
      onResume: (p, afterLine) => resumed.push([p, afterLine]),
      onProgress: (p) => progress.push(p),
    });
    expect(resumed).toEqual([[path, 30]]);
    // The bytes read to reach line 31 are told apart, for the ETA: a plain file is read from there on (after
    // its byte order mark); a compressed one this small is one chunk, all of it read while passing over.
    const passedOver = progress.at(-1)?.bytesPassedOver;
    expect(passedOver).toBe(
      fileName.endsWith('.jsonl') ? 3 + (cut?.offset ?? 0) : progress.at(-1)?.bytesTotal,
    );
    expect(second.files[0]).toMatchObject({
      status: 'ok',
      resumedAfterLine: 30,
      lines: 97,
      inserted: 65,
      updated: 0,
      unchanged: 0,
      skipped: 1,
    });
    expect(second.files[0]?.errors.map((e) => e.line)).toEqual([42]);
    expect(store.papers.count()).toBe(95);
    expect(store.papers.get('2604.00031')?.title).toBe('Paper 31 — naïve');
    expect(checkpoint(path)).toBeUndefined();
    expect(store.state.lastIngest('import')).toMatchObject({ inserted: 65, status: 'ok' });

    // Done: a third run reads the whole file again and changes nothing.
    const third = await importPaths(store, [path], { batchSize: 10 });
    expect(third.files[0]).toMatchObject({ resumedAfterLine: 0, inserted: 0, unchanged: 95 });
  });
});

describe('resume points', () => {
  it('starts over when the file changed since the checkpoint', async () => {
    const path = write('a.jsonl', text(50));
    await stoppedAt(path, 20, { batchSize: 10 });
    expect(checkpoint(path)?.line).toBe(20);
    writeFileSync(path, text(60));
    const again = await importPaths(store, [path], { batchSize: 10 });
    expect(again.files[0]).toMatchObject({ resumedAfterLine: 0, lines: 60, inserted: 40, unchanged: 20 });
  });

  it('starts over when only the modification time differs', async () => {
    const path = write('a.jsonl', text(50));
    await stoppedAt(path, 20, { batchSize: 10 });
    utimesSync(path, new Date('2020-01-01T00:00:00Z'), new Date('2020-01-01T00:00:00Z'));
    const again = await importPaths(store, [path], { batchSize: 10 });
    expect(again.files[0]?.resumedAfterLine).toBe(0);
  });

  it('finishes cleanly when the stop came after the last line was stored', async () => {
    const path = write('a.jsonl', text(20));
    // Batches of 10: the second one holds the last line but is not the closing one that clears.
    await stoppedAt(path, 20, { batchSize: 10 });
    expect(checkpoint(path)?.line).toBe(20);
    const again = await importPaths(store, [path], { batchSize: 10 });
    expect(again.files[0]).toMatchObject({ status: 'ok', resumedAfterLine: 20, lines: 20, inserted: 0 });
    expect(checkpoint(path)).toBeUndefined();
  });

  it('keeps the checkpoint of a file that fails to the end', async () => {
    const whole = gzipSync(text(200));
    // Cut short, as a download that stopped: the first batches still store before the gzip error.
    const path = write('cut.jsonl.gz', whole.subarray(0, Math.floor(whole.length * 0.8)));
    const report = await importPaths(store, [path], { batchSize: 10 });
    expect(report.files[0]?.status).toBe('failed');
    expect(checkpoint(path)?.line).toBeGreaterThan(0);
  });
});
