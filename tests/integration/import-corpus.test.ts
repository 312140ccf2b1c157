import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { brotliDecompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runImport } from '@quire/server/cli/command-import';
import { runStats } from '@quire/server/cli/command-stats';
import { importPaths } from '@quire/server/ingest/import-dumps';
import { openStore, type Store } from '@quire/server/store/open-store';
import { listingsDir, requireSharedData } from '../src/paths.ts';

interface ManifestFile {
  records: number;
  first_date: string;
  last_date: string;
  per_day: Record<string, number>;
  /** The file's largest primary categories only (not every category). */
  primary_category: Record<string, number>;
}

interface Manifest {
  window: { first: string; last: string };
  files: Record<string, ManifestFile>;
  total_records: number;
}

function readManifest(): Manifest {
  requireSharedData();
  return JSON.parse(readFileSync(join(listingsDir, 'MANIFEST.json'), 'utf8')) as Manifest;
}

function sink(): { stream: Writable; text: () => string } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { stream, text: () => text };
}

/** Everything the store holds, hashed, so "nothing changed" covers every column including updated_at. */
function fingerprint(store: Store): string {
  const hash = createHash('sha256');
  for (const row of store.db.prepare('SELECT * FROM papers ORDER BY id').raw().iterate()) {
    hash.update(JSON.stringify(row));
  }
  for (const row of store.db
    .prepare('SELECT * FROM paper_categories ORDER BY paper_id, category')
    .raw()
    .iterate()) {
    hash.update(JSON.stringify(row));
  }
  return hash.digest('hex');
}

const manifest = readManifest();
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'quire-corpus-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('quire import of the listing corpus', () => {
  let dbPath: string;
  let firstOutput: string;
  let store: Store;

  beforeAll(async () => {
    dbPath = join(dir, 'corpus.db');
    const stdout = sink();
    const stderr = sink();
    const started = performance.now();
    const code = await runImport({
      dbPath,
      args: [listingsDir],
      stdout: stdout.stream,
      stderr: stderr.stream,
    });
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `corpus import: ${manifest.total_records} papers in ${seconds.toFixed(2)} s ` +
        `(${Math.round(manifest.total_records / seconds)} papers/s)`,
    );
    expect(code, stderr.text()).toBe(0);
    firstOutput = stdout.text();
    store = openStore(dbPath);
  });
  afterAll(() => {
    store.close();
  });

  it('stores every paper the manifest counts', () => {
    expect(store.papers.count()).toBe(manifest.total_records);
    expect(firstOutput).toContain(
      `${manifest.total_records.toLocaleString('en-US')} new, 0 updated, 0 unchanged`,
    );
    expect(firstOutput).toMatch(/MANIFEST\.json: skipped/);
  });

  it('stores each listing day with the manifest count, none estimated', () => {
    const expected: Record<string, number> = {};
    for (const file of Object.values(manifest.files)) Object.assign(expected, file.per_day);
    expect(store.papers.countByListingDay()).toEqual(expected);
    expect(
      store.db.prepare('SELECT COUNT(*) FROM papers WHERE listing_date_estimated = 1').pluck().get(),
    ).toBe(0);
    expect(store.papers.stats()).toMatchObject({
      firstListing: manifest.window.first,
      lastListing: manifest.window.last,
    });
  });

  it("matches each week's primary-category counts", () => {
    for (const [name, file] of Object.entries(manifest.files)) {
      const week = store.papers.byListingDate(file.first_date, file.last_date);
      expect(week, name).toHaveLength(file.records);
      const counts = new Map<string, number>();
      for (const paper of week)
        counts.set(paper.primaryCategory, (counts.get(paper.primaryCategory) ?? 0) + 1);
      for (const [category, n] of Object.entries(file.primary_category)) {
        expect(counts.get(category), `${name} ${category}`).toBe(n);
      }
    }
  });

  it('keeps paper_categories complete', () => {
    const rows = store.db.prepare('SELECT COUNT(*) FROM paper_categories').pluck().get() as number;
    const expected = store.db
      .prepare('SELECT SUM(json_array_length(categories)) FROM papers')
      .pluck()
      .get() as number;
    expect(rows).toBe(expected);
    expect(rows).toBeGreaterThan(manifest.total_records);
  });

  it('changes nothing when the corpus is imported again', async () => {
    const before = fingerprint(store);
    const report = await importPaths(store, [listingsDir]);
    expect(report.totals).toMatchObject({
      files: Object.keys(manifest.files).length,
      failedFiles: 0,
      inserted: 0,
      updated: 0,
      unchanged: manifest.total_records,
      skipped: 0,
    });
    expect(fingerprint(store)).toBe(before);
  });

  it('answers stats --json with exactly one object', async () => {
    const stdout = sink();
    const code = await runStats({ dbPath, args: ['--json'], stdout: stdout.stream, stderr: sink().stream });
    expect(code).toBe(0);
    const text = stdout.text();
    expect(text.trim().split('\n')).toHaveLength(1);
    const stats = JSON.parse(text) as {
      papers: number;
      byPrimaryCategory: Record<string, number>;
      firstListing: string;
      lastListing: string;
      lastHarvest: unknown;
    };
    expect(Object.keys(stats)).toEqual([
      'papers',
      'byPrimaryCategory',
      'firstListing',
      'lastListing',
      'lastHarvest',
    ]);
    expect(stats.papers).toBe(manifest.total_records);
    expect(stats.firstListing).toBe(manifest.window.first);
    expect(stats.lastListing).toBe(manifest.window.last);
    expect(stats.lastHarvest).toBeNull();
    const counts = Object.values(stats.byPrimaryCategory);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(manifest.total_records);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
  });
});

describe('one corpus week as plain, gzip and with a broken line', () => {
  const [weekName, week] = Object.entries(manifest.files)[0] ?? [];
  let lines: string[];

  beforeAll(() => {
    if (!weekName || !week) throw new Error('The manifest lists no files.');
    expect(readdirSync(listingsDir)).toContain(weekName);
    lines = brotliDecompressSync(readFileSync(join(listingsDir, weekName)))
      .toString('utf8')
      .split('\n')
      .filter((line) => line !== '');
    expect(lines).toHaveLength(week.records);
  });

  it('stores the same papers from .jsonl.br, .jsonl and .jsonl.gz', async () => {
    const plain = join(dir, 'week.jsonl');
    const gz = join(dir, 'week.jsonl.gz');
    writeFileSync(plain, lines.join('\n') + '\n');
    writeFileSync(gz, gzipSync(lines.join('\n')));

    const fromBr = openStore(join(dir, 'week-br.db'));
    const fromPlain = openStore(join(dir, 'week-plain.db'));
    try {
      await importPaths(fromBr, [join(listingsDir, weekName ?? '')]);
      const plainReport = await importPaths(fromPlain, [plain]);
      expect(plainReport.files[0]).toMatchObject({ format: 'jsonl', inserted: week?.records, skipped: 0 });
      const gzReport = await importPaths(fromPlain, [gz]);
      expect(gzReport.files[0]).toMatchObject({
        format: 'jsonl.gz',
        inserted: 0,
        updated: 0,
        unchanged: week?.records,
      });
      expect(fromPlain.papers.ids()).toEqual(fromBr.papers.ids());
      for (const id of fromBr.papers.ids()) expect(fromPlain.papers.get(id)).toEqual(fromBr.papers.get(id));
    } finally {
      fromBr.close();
      fromPlain.close();
    }
  });

  it('skips a broken line in the middle, names its number and stores the rest', async () => {
    const middle = Math.floor(lines.length / 2);
    const victim = JSON.parse(lines[middle] ?? '{}') as { id: string };
    const broken = [...lines];
    broken[middle] = (lines[middle] ?? '').slice(0, 80);
    const path = join(dir, 'broken-week.jsonl');
    writeFileSync(path, broken.join('\n') + '\n');

    const dbPath = join(dir, 'broken.db');
    const stdout = sink();
    const code = await runImport({ dbPath, args: [path], stdout: stdout.stream, stderr: sink().stream });
    expect(code).toBe(0);
    expect(stdout.text()).toContain(`${path} line ${middle + 1}: `);
    expect(stdout.text()).toMatch(/skipped: 1 malformed line\b/);

    const store = openStore(dbPath);
    try {
      expect(store.papers.count()).toBe(lines.length - 1);
      expect(store.papers.has(victim.id)).toBe(false);
      const logged = store.state.lastIngest('import');
      expect(logged?.skipped).toBe(1);
      expect(logged?.errors[0]?.line).toBe(middle + 1);
    } finally {
      store.close();
    }
  });

  it('exits 1 naming a file it cannot read', async () => {
    const missing = join(dir, 'no-such-week.jsonl.br');
    const stdout = sink();
    const code = await runImport({
      dbPath: join(dir, 'missing.db'),
      args: [missing],
      stdout: stdout.stream,
      stderr: sink().stream,
    });
    expect(code).toBe(1);
    expect(stdout.text()).toContain(`Cannot read ${missing}: no such file or folder.`);
  });
});
