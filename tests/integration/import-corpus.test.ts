import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { brotliDecompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runImport } from '@quire/server/cli/command-import';
import { runStats } from '@quire/server/cli/command-stats';
import { runTag } from '@quire/server/cli/command-topics';
import { describeOnPaperEngines, type PaperEngineStore } from '../src/harness/paper-engines.ts';
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

const manifest = readManifest();
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'quire-corpus-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

// The whole corpus by the CLI, then a re-import, on each engine: PostgreSQL's re-tag of every paper after
// the import (it stores none tagged) makes its setup the longer one.
// A safety net, not a measure: PostgreSQL's took 305 s in a CI run at a load of 20-30.
const CORPUS_SETUP_MS = 600_000;

describeOnPaperEngines('import_corpus', 'quire import of the listing corpus', (engine) => {
  let firstOutput: string;
  let store: PaperEngineStore | undefined;
  let address: { dbPath: string; databaseUrl: string | null } | undefined;
  const opened = (): PaperEngineStore => {
    if (!store) throw new Error('the corpus store is opened in beforeAll');
    return store;
  };

  beforeAll(async () => {
    const at = await engine.address('corpus');
    address = at;
    const stdout = sink();
    const stderr = sink();
    const started = performance.now();
    const code = await runImport({
      dbPath: at.dbPath,
      databaseUrl: at.databaseUrl,
      args: [listingsDir],
      stdout: stdout.stream,
      stderr: stderr.stream,
    });
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `corpus import (${engine.name}, tags included): ${manifest.total_records} papers in ${seconds.toFixed(2)} s ` +
        `(${Math.round(manifest.total_records / seconds)} papers/s)`,
    );
    expect(code, stderr.text()).toBe(0);
    firstOutput = stdout.text();
    store = await engine.open(at);
  }, CORPUS_SETUP_MS);
  afterAll(async () => {
    await store?.close();
  });

  it('stores every paper the manifest counts, and tags them', async () => {
    expect(await opened().papers.count()).toBe(manifest.total_records);
    expect(firstOutput).toContain(
      `${manifest.total_records.toLocaleString('en-US')} new, 0 updated, 0 unchanged`,
    );
    expect(firstOutput).toMatch(/MANIFEST\.json: skipped/);
    expect(await opened().tags.staleCount()).toBe(0);
    expect(await opened().count('SELECT COUNT(DISTINCT paper_id) FROM paper_tags')).toBeGreaterThan(
      manifest.total_records / 2,
    );
  });

  it('logs each file in the ingest log', async () => {
    const files = Object.keys(manifest.files).length;
    const log = await opened().recentIngests(files + 5, 'import');
    expect(log).toHaveLength(files);
    expect(log.every((r) => r.status === 'ok' && r.skipped === 0 && r.finishedAt !== null)).toBe(true);
    expect(log.reduce((sum, r) => sum + r.inserted, 0)).toBe(manifest.total_records);
  });

  it('stores each listing day with the manifest count, none estimated', async () => {
    const expected: Record<string, number> = {};
    for (const file of Object.values(manifest.files)) Object.assign(expected, file.per_day);
    expect(await opened().papers.countByListingDay()).toEqual(expected);
    expect(await opened().count('SELECT COUNT(*) FROM papers WHERE listing_date_estimated = 1')).toBe(0);
    expect(await opened().papers.stats()).toMatchObject({
      firstListing: manifest.window.first,
      lastListing: manifest.window.last,
    });
  });

  it("matches each week's primary-category counts", async () => {
    for (const [name, file] of Object.entries(manifest.files)) {
      const week = await opened().papers.byListingDate(file.first_date, file.last_date);
      expect(week, name).toHaveLength(file.records);
      const counts = new Map<string, number>();
      for (const paper of week)
        counts.set(paper.primaryCategory, (counts.get(paper.primaryCategory) ?? 0) + 1);
      for (const [category, n] of Object.entries(file.primary_category)) {
        expect(counts.get(category), `${name} ${category}`).toBe(n);
      }
    }
  });

  it('keeps paper_categories complete', async () => {
    const rows = await opened().count('SELECT COUNT(*) FROM paper_categories');
    // Categories are a JSON array in a text column on both engines; PostgreSQL reads it as json explicitly.
    const expected = await opened().count(
      engine.name === 'SQLite'
        ? 'SELECT SUM(json_array_length(categories)) FROM papers'
        : 'SELECT SUM(json_array_length(categories::json)) FROM papers',
    );
    expect(rows).toBe(expected);
    expect(rows).toBeGreaterThan(manifest.total_records);
  });

  it('changes nothing when the corpus is imported again', async () => {
    const before = await opened().fingerprint();
    const report = await opened().importPaths([listingsDir]);
    expect(report.totals).toMatchObject({
      files: Object.keys(manifest.files).length,
      failedFiles: 0,
      inserted: 0,
      updated: 0,
      unchanged: manifest.total_records,
      skipped: 0,
    });
    expect(await opened().fingerprint()).toBe(before);
  });

  it('answers stats --json with exactly one object', async () => {
    const stdout = sink();
    if (!address) throw new Error('the corpus store is addressed in beforeAll');
    const code = await runStats({
      dbPath: address.dbPath,
      args: ['--json', ...(address.databaseUrl ? ['--database-url', address.databaseUrl] : [])],
      stdout: stdout.stream,
      stderr: sink().stream,
    });
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

describeOnPaperEngines('import_week', 'one corpus week as plain, gzip and with a broken line', (engine) => {
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
    const plain = join(dir, `week-${engine.name}.jsonl`);
    const gz = join(dir, `week-${engine.name}.jsonl.gz`);
    writeFileSync(plain, lines.join('\n') + '\n');
    writeFileSync(gz, gzipSync(lines.join('\n')));

    const fromBr = await engine.fresh('week_br');
    const fromPlain = await engine.fresh('week_plain');
    try {
      await fromBr.importPaths([join(listingsDir, weekName ?? '')]);
      const plainReport = await fromPlain.importPaths([plain]);
      expect(plainReport.files[0]).toMatchObject({ format: 'jsonl', inserted: week?.records, skipped: 0 });
      const gzReport = await fromPlain.importPaths([gz]);
      expect(gzReport.files[0]).toMatchObject({
        format: 'jsonl.gz',
        inserted: 0,
        updated: 0,
        unchanged: week?.records,
      });
      const ids = await fromBr.papers.ids();
      expect(ids).toHaveLength(week?.records ?? -1);
      expect(await fromPlain.papers.ids()).toEqual(ids);
      for (const id of ids) expect(await fromPlain.papers.get(id)).toEqual(await fromBr.papers.get(id));
    } finally {
      await fromBr.close();
      await fromPlain.close();
    }
  });

  it('skips a broken line in the middle, names its number and stores the rest', async () => {
    const middle = Math.floor(lines.length / 2);
    const victim = JSON.parse(lines[middle] ?? '{}') as { id: string };
    const broken = [...lines];
    broken[middle] = (lines[middle] ?? '').slice(0, 80);
    const path = join(dir, `broken-week-${engine.name}.jsonl`);
    writeFileSync(path, broken.join('\n') + '\n');

    const at = await engine.address('broken');
    const stdout = sink();
    const stderr = sink();
    const code = await runImport({
      dbPath: at.dbPath,
      databaseUrl: at.databaseUrl,
      args: ['--no-tag', path],
      stdout: stdout.stream,
      stderr: stderr.stream,
    });
    expect(code).toBe(0);
    expect(stderr.text()).toContain(
      at.databaseUrl ? '`pnpm quire tag --database-url <the same address>`' : '`pnpm quire tag`',
    );
    expect(stdout.text()).toContain(`${path} line ${middle + 1}: `);
    expect(stdout.text()).toMatch(/skipped: 1 malformed line\b/);

    const store = await engine.open(at);
    try {
      expect(await store.papers.count()).toBe(lines.length - 1);
      expect(await store.papers.has(victim.id)).toBe(false);
      const logged = await store.lastIngest('import');
      expect(logged).toMatchObject({ status: 'ok', source: path, inserted: lines.length - 1, skipped: 1 });
      expect(logged?.errors[0]?.line).toBe(middle + 1);
      // --no-tag left them stale; `quire tag` (with the same address on PostgreSQL) tags them.
      expect(await store.tags.staleCount()).toBe(lines.length - 1);
      const tagged = await runTag({
        dbPath: at.dbPath,
        args: at.databaseUrl ? ['--database-url', at.databaseUrl] : [],
        env: {},
        stdout: sink().stream,
        stderr: sink().stream,
      });
      expect(tagged).toBe(0);
      expect(await store.tags.staleCount()).toBe(0);
      expect(await store.count('SELECT COUNT(DISTINCT paper_id) FROM paper_tags')).toBeGreaterThan(0);
    } finally {
      await store.close();
    }
  });

  it('exits 1 naming a file it cannot read, and logs the failure', async () => {
    const missing = join(dir, 'no-such-week.jsonl.br');
    const at = await engine.address('missing');
    const stdout = sink();
    const code = await runImport({
      dbPath: at.dbPath,
      databaseUrl: at.databaseUrl,
      args: [missing],
      stdout: stdout.stream,
      stderr: sink().stream,
    });
    expect(code).toBe(1);
    expect(stdout.text()).toContain(`Cannot read ${missing}: no such file or folder.`);
    const store = await engine.open(at);
    try {
      expect(await store.lastIngest('import')).toMatchObject({
        status: 'failed',
        source: missing,
        inserted: 0,
      });
      expect(await store.papers.count()).toBe(0);
    } finally {
      await store.close();
    }
  });
});
