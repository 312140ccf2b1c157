/**
 * Issue 11's done-when for the Kaggle snapshot: a real file in the snapshot's schema, generated here from the
 * corpus (four copies, 107,380 lines, gzip), is imported by the CLI in a child process, killed with SIGKILL
 * once its checkpoint says 40% is stored, and imported again: it resumes after the committed lines and ends
 * with every paper exactly once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collapseWhitespace, estimateListingDate, type PaperEntity } from '@quire/core';
import { checkpointKey, type ImportCheckpoint } from '@quire/server/ingest/import-checkpoint';
import type { ImportReport } from '@quire/server/ingest/import-dumps';
import { openStore } from '@quire/server/store/open-store';
import { runCli, startCli } from '../src/harness/run-cli.ts';
import { waitFor } from '../src/harness/wait-for.ts';
import { writeKaggleSnapshot, type KaggleRecord, type KaggleSnapshot } from '../src/kaggle-snapshot.ts';
import type { CorpusPaper } from '../src/replay/corpus.ts';

const COPIES = 4;
const KILL_AT = 0.4;

let dir: string;
let file: string;
let dbPath: string;
let snapshot: KaggleSnapshot;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quire-kaggle-'));
  file = join(dir, 'arxiv-metadata-oai-snapshot.json.gz');
  dbPath = join(dir, 'quire.db');
  snapshot = await writeKaggleSnapshot(file, COPIES);
}, 60_000);
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Reads the database through a connection of the test's own, as a second process would. */
function read<T>(fn: (db: BetterSqlite3.Database) => T): T | undefined {
  let db: BetterSqlite3.Database;
  try {
    db = new BetterSqlite3(dbPath, { readonly: true, fileMustExist: true });
  } catch {
    return undefined; // not created yet
  }
  try {
    return fn(db);
  } catch (err) {
    // The importing process may not have made its tables yet.
    if (err instanceof Error && /no such table/.test(err.message)) return undefined;
    throw err;
  } finally {
    db.close();
  }
}

function checkpoint(): ImportCheckpoint | undefined {
  const value = read((db) =>
    db
      .prepare<[string], string>('SELECT value FROM harvest_checkpoints WHERE key = ?')
      .pluck()
      .get(checkpointKey(file)),
  );
  return value === undefined ? undefined : (JSON.parse(value) as ImportCheckpoint);
}

function storedCount(): number {
  return read((db) => db.prepare<[], number>('SELECT count(*) FROM papers').pluck().get()) ?? 0;
}

/** "Mon, 2 Apr 2007 19:18:42 GMT" as the store keeps it: "2007-04-02T19:18:42Z". */
function iso(rfc2822: string): string {
  return new Date(rfc2822).toISOString().replace('.000Z', 'Z');
}

const text = (s: string): string => collapseWhitespace(s).normalize('NFC');

/** What the store must hold for a snapshot record, read off the record and the corpus paper it copies. */
function expected(record: KaggleRecord, source: CorpusPaper): Partial<PaperEntity> {
  const v1 = record.versions[0]?.created;
  return {
    id: record.id,
    title: text(source.title),
    abstract: text(source.abstract),
    authors: source.authors.map((name) => ({ name: text(name), affiliations: [] })),
    categories: source.categories,
    primaryCategory: source.categories[0],
    versions: record.versions.map((v, i) => ({ version: i + 1, submitted: iso(v.created), size: null })),
    submittedV1: v1 === undefined ? null : iso(v1),
    // Estimated by arXiv's schedule from the v1 date, or from update_date when the versions are missing.
    listingDate: estimateListingDate(v1 ?? record.update_date),
    listingDateEstimated: true,
    comment: source.comment,
    doi: record.doi,
    journalRef: record['journal-ref'],
    license: record.license,
    links: { abs: `https://arxiv.org/abs/${record.id}`, pdf: `https://arxiv.org/pdf/${record.id}` },
  };
}

describe('quire import of a Kaggle-format snapshot, killed part way', () => {
  it('resumes after the committed lines and ends with every paper exactly once', async () => {
    const lines = snapshot.lines;
    expect(lines).toBeGreaterThanOrEqual(100_000);
    expect(new Set(snapshot.ids).size).toBe(lines);

    const first = startCli(['import', '--db', dbPath, '--no-tag', file]);
    const seen = await waitFor(
      `the import to store ${KILL_AT * 100}% of ${lines} lines`,
      () => {
        if (first.child.exitCode !== null) throw new Error(`quire import ended early:\n${first.stderr}`);
        const cp = checkpoint();
        return cp && cp.line >= lines * KILL_AT ? cp : undefined;
      },
      90_000,
    );
    first.child.kill('SIGKILL');
    expect((await first.done).signal).toBe('SIGKILL');

    // A batch or two may have committed between the look and the kill; the checkpoint still says exactly
    // how far the file is stored, since each batch commits with it.
    const cut = checkpoint();
    expect(cut?.line).toBeGreaterThanOrEqual(seen.line);
    expect(cut?.line).toBeLessThan(lines);
    const committed = cut?.line ?? 0;
    expect(storedCount()).toBe(committed);

    const second = await runCli(['import', '--db', dbPath, '--no-tag', '--json', file]);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toContain(`resuming after line ${committed.toLocaleString('en-US')}`);
    const report = JSON.parse(second.stdout) as ImportReport;
    // Only the lines after the checkpoint were stored again: none of the committed ones came back unchanged.
    expect(report.files[0]).toMatchObject({
      status: 'ok',
      format: 'jsonl.gz',
      resumedAfterLine: committed,
      lines,
      inserted: lines - committed,
      updated: 0,
      unchanged: 0,
      skipped: 0,
    });
    console.log(
      `kaggle import: ${lines} lines; killed with ${committed} stored (${Math.round((committed * 100) / lines)}%), the resumed run stored ${lines - committed} in ${report.durationMs} ms`,
    );

    const store = openStore(dbPath);
    try {
      expect(store.papers.count()).toBe(lines);
      expect(store.papers.ids()).toEqual(snapshot.ids);
      expect(checkpoint()).toBeUndefined();
      const log = store.state.recentIngests(10, 'import').reverse();
      expect(log.map((r) => [r.status, r.inserted])).toEqual([
        ['interrupted', 0],
        ['ok', lines - committed],
      ]);
      for (const { record, source } of snapshot.sample) {
        expect(store.papers.get(record.id), record.id).toMatchObject(expected(record, source));
      }
      expect(snapshot.sample.filter((s) => s.record.versions.length === 0).length).toBeGreaterThan(0);
    } finally {
      store.close();
    }
  }, 180_000);
});
