/**
 * Issue 11's done-when for the Kaggle snapshot: a real file in the snapshot's schema, generated here from the
 * corpus (four copies, 107,380 lines, gzip), is imported by the CLI in a child process, killed with SIGKILL
 * once its checkpoint says 40% is stored, and imported again: it resumes after the committed lines and ends
 * with every paper exactly once. On PostgreSQL too (issue 13), with one copy (26,845 lines): its batches
 * take longer to write, and what is checked (the checkpoint committed with each batch) is the same.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { collapseWhitespace, estimateListingDate, type PaperEntity } from '@quire/core';
import { checkpointKey, type ImportCheckpoint } from '@quire/server/ingest/import-checkpoint';
import type { ImportReport } from '@quire/server/ingest/import-dumps';
import { describeOnPaperEngines, peek, type EngineName } from '../src/harness/paper-engines.ts';
import { runCli, startCli } from '../src/harness/run-cli.ts';
import { waitFor } from '../src/harness/wait-for.ts';
import { writeKaggleSnapshot, type KaggleRecord, type KaggleSnapshot } from '../src/kaggle-snapshot.ts';
import type { CorpusPaper } from '../src/replay/corpus.ts';

const COPIES: Record<EngineName, number> = { SQLite: 4, PostgreSQL: 1 };
const KILL_AT = 0.4;

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'quire-kaggle-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

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

describeOnPaperEngines(
  'import_kaggle',
  'quire import of a Kaggle-format snapshot, killed part way',
  (engine) => {
    let file: string;
    let snapshot: KaggleSnapshot;

    beforeAll(async () => {
      file = join(dir, `arxiv-metadata-oai-snapshot-${engine.name}.json.gz`);
      snapshot = await writeKaggleSnapshot(file, COPIES[engine.name]);
    }, 60_000);

    it('resumes after the committed lines and ends with every paper exactly once', async () => {
      const at = await engine.address('kaggle');
      const checkpoint = async (): Promise<ImportCheckpoint | undefined> => {
        const rows = await peek<{ value: string }>(
          at,
          'SELECT value FROM harvest_checkpoints WHERE key = $1',
          [checkpointKey(file)],
        );
        const value = rows?.[0]?.value;
        return value === undefined ? undefined : (JSON.parse(value) as ImportCheckpoint);
      };
      const storedCount = async (): Promise<number> =>
        Number((await peek<{ n: number | string }>(at, 'SELECT count(*) AS n FROM papers'))?.[0]?.n ?? 0);

      const lines = snapshot.lines;
      expect(lines).toBeGreaterThanOrEqual(COPIES[engine.name] * 25_000);
      expect(new Set(snapshot.ids).size).toBe(lines);

      const first = startCli(['import', ...at.cliArgs, '--no-tag', file]);
      let seen: ImportCheckpoint | undefined;
      await waitFor(
        `the import to store ${KILL_AT * 100}% of ${lines} lines`,
        async () => {
          if (first.child.exitCode !== null) throw new Error(`quire import ended early:\n${first.stderr}`);
          const cp = await checkpoint();
          if (cp && cp.line >= lines * KILL_AT) seen = cp;
          return seen;
        },
        // A safety net, not a measure: the first 40% took over 90 s on PostgreSQL at a load of 20-30.
        240_000,
      );
      first.child.kill('SIGKILL');
      expect((await first.done).signal).toBe('SIGKILL');

      // A batch or two may have committed between the look and the kill; the checkpoint still says exactly
      // how far the file is stored, since each batch commits with it.
      const cut = await checkpoint();
      expect(cut?.line).toBeGreaterThanOrEqual(seen?.line ?? Infinity);
      expect(cut?.line).toBeLessThan(lines);
      const committed = cut?.line ?? 0;
      expect(await storedCount()).toBe(committed);

      const second = await runCli(['import', ...at.cliArgs, '--no-tag', '--json', file]);
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
        `kaggle import (${engine.name}): ${lines} lines; killed with ${committed} stored (${Math.round((committed * 100) / lines)}%), the resumed run stored ${lines - committed} in ${report.durationMs} ms`,
      );

      const store = await engine.open(at);
      try {
        expect(await store.papers.count()).toBe(lines);
        expect(await store.papers.ids()).toEqual(snapshot.ids);
        expect(await checkpoint()).toBeUndefined();
        const log = (await store.recentIngests(10, 'import')).reverse();
        expect(log.map((r) => [r.status, r.inserted])).toEqual([
          ['interrupted', 0],
          ['ok', lines - committed],
        ]);
        for (const { record, source } of snapshot.sample) {
          expect(await store.papers.get(record.id), record.id).toMatchObject(expected(record, source));
        }
        expect(snapshot.sample.filter((s) => s.record.versions.length === 0).length).toBeGreaterThan(0);
      } finally {
        await store.close();
      }
    }, 420_000);
  },
);
