import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultTaxonomy, type Taxonomy } from '@quire/core';
import { importPaths, type ImportOptions } from '@quire/server/ingest/import-dumps';
import { openStore, type Store } from '@quire/server/store/open-store';
import { retag } from '@quire/server/topics/retag';
import {
  PG_SKIP,
  postgresEngine,
  sqliteEngine,
  taggingSnapshot as engineSnapshot,
} from '../src/harness/paper-engines.ts';
import { changedTaxonomy, taggingSnapshot } from '../src/harness/twin-stores.ts';
import { listingsDir } from '../src/paths.ts';

// An import that tags each batch as it stores it must leave exactly the rows that importing and then
// re-tagging leaves (tags, closure rows, counts, stale marks, definition hashes), whichever thread parses,
// whether the import is stopped and resumed, and whatever it cannot tag itself (exemplars, a changed
// taxonomy), which it leaves stale for the re-tag.

// Each test imports and tags thousands of papers two ways: minutes on a loaded machine.
const LONG = 300_000;

const WEEKS = ['2026-04-27.jsonl.br', '2026-05-04.jsonl.br', '2026-05-11.jsonl.br'].map((f) =>
  join(listingsDir, f),
);

let dir = '';
const opened: Store[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'quire-import-tagging-'));
});
afterAll(() => {
  for (const store of opened) store.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function fresh(name: string): Store {
  const store = openStore(join(dir, `${name}.db`));
  opened.push(store);
  return store;
}

/** The reference: import without tagging, then re-tag. */
async function importThenRetag(store: Store, paths: string[], taxonomy: Taxonomy = defaultTaxonomy()) {
  await importPaths(store, paths);
  return retag(store.tags, taxonomy);
}

/** Imports tagging as it goes, checks the import left only the papers it did not tag stale, then re-tags. */
async function importTagging(
  store: Store,
  paths: string[],
  taxonomy: Taxonomy = defaultTaxonomy(),
  opts: ImportOptions = {},
) {
  const staleBefore = taggingSnapshot(store).stale.length;
  const report = await importPaths(store, paths, { ...opts, tagWith: taxonomy });
  const stale = taggingSnapshot(store).stale.length;
  const { inserted, updated } = report.totals;
  expect(report.tagging?.tagged).toBeLessThanOrEqual(inserted);
  if (report.tagging?.leftToRetag === null) {
    // Every paper the import did not tag (an update, a record merged with another) waits for the re-tag.
    expect(stale).toBeLessThanOrEqual(staleBefore + inserted + updated - report.tagging.tagged);
    expect(stale).toBeGreaterThanOrEqual(staleBefore + inserted - report.tagging.tagged);
  }
  const retagged = await retag(store.tags, taxonomy);
  return { report, retagged };
}

describe('tagging inside the import', () => {
  it(
    'the whole corpus, tagged in the parse thread, gives the rows import-then-retag gives',
    async () => {
      const a = fresh('corpus-tagging');
      const b = fresh('corpus-reference');
      const { report, retagged } = await importTagging(a, [listingsDir], defaultTaxonomy(), {
        prepareThreadFromBytes: 0,
      });
      const reference = await importThenRetag(b, [listingsDir]);
      expect(report.tagging?.leftToRetag).toBeNull();
      // Nearly every paper is tagged as stored; the rest (a record met twice) by the re-tag.
      expect(report.tagging?.tagged).toBeGreaterThan(report.totals.inserted * 0.9);
      expect(retagged.stalePapers).toBe(report.totals.inserted - (report.tagging?.tagged ?? 0));
      expect(reference.stalePapers).toBe(b.papers.count());
      const tagged = taggingSnapshot(a);
      expect(tagged.tags.length).toBeGreaterThan(a.papers.count());
      expect(tagged.counts.length).toBeGreaterThan(0);
      expect(tagged.bits.length).toBeGreaterThan(0);
      expect(tagged).toEqual(taggingSnapshot(b));
    },
    LONG,
  );

  it(
    'tagged on the writing thread, stopped part way and resumed, then a week more on a tagged store: the same rows',
    async () => {
      const a = fresh('weeks-tagging');
      const b = fresh('weeks-reference');
      let stopped = false;
      const first = await importPaths(a, WEEKS.slice(0, 2), {
        tagWith: defaultTaxonomy(),
        prepareThreadFromBytes: Infinity,
        batchSize: 200,
        onProgress: (p) => {
          if (stopped || p.papers < 1000) return;
          stopped = true;
          throw new Error('stopped by the test');
        },
      });
      expect(first.files[0]?.status).toBe('failed');
      expect(first.tagging?.tagged).toBeGreaterThan(0);
      await importTagging(a, WEEKS.slice(0, 2), defaultTaxonomy(), { prepareThreadFromBytes: Infinity });
      await importThenRetag(b, WEEKS.slice(0, 2));
      expect(taggingSnapshot(a)).toEqual(taggingSnapshot(b));

      const more = await importTagging(a, WEEKS.slice(1), defaultTaxonomy(), { prepareThreadFromBytes: 0 });
      await importThenRetag(b, WEEKS.slice(1));
      expect(more.report.tagging?.tagged).toBeGreaterThan(0);
      expect(taggingSnapshot(a)).toEqual(taggingSnapshot(b));
    },
    LONG,
  );

  it(
    'with exemplars, or with topics changed since the last tagging, it leaves the papers to the re-tag',
    async () => {
      const seed = fresh('exemplar-seed');
      await importThenRetag(seed, WEEKS.slice(0, 1));
      const exemplars = seed.db
        .prepare("SELECT paper_id FROM paper_tags WHERE topic = 'video-generation' ORDER BY paper_id LIMIT 2")
        .pluck()
        .all() as string[];
      expect(exemplars).toHaveLength(2);
      const withExemplars = changedTaxonomy(exemplars);

      // A fresh store with an exemplar taxonomy.
      const a = fresh('exemplar-tagging');
      const b = fresh('exemplar-reference');
      const { report } = await importTagging(a, WEEKS.slice(0, 2), withExemplars, {
        prepareThreadFromBytes: 0,
      });
      expect(report.tagging?.tagged).toBe(0);
      expect(report.tagging?.leftToRetag).toContain('exemplar');
      await importThenRetag(b, WEEKS.slice(0, 2), withExemplars);
      expect(taggingSnapshot(a)).toEqual(taggingSnapshot(b));

      // A store tagged with the default taxonomy, then imported into with a changed one.
      const c = fresh('changed-tagging');
      const d = fresh('changed-reference');
      await importThenRetag(c, WEEKS.slice(0, 1));
      await importThenRetag(d, WEEKS.slice(0, 1));
      const changed = changedTaxonomy([], ['sparse-reward-rl']);
      const late = await importTagging(c, WEEKS.slice(1, 2), changed);
      expect(late.report.tagging?.tagged).toBe(0);
      expect(late.report.tagging?.leftToRetag).toContain('changed');
      expect(late.retagged.removedTopics).toEqual(['sparse-reward-rl']);
      await importThenRetag(d, WEEKS.slice(1, 2), changed);
      expect(taggingSnapshot(c)).toEqual(taggingSnapshot(d));
    },
    LONG,
  );
});

// PostgreSQL's import stores no tags (its batches write papers only): every paper it imports waits for the
// re-tag, whose rows over PgTagStore must be exactly SQLite's import-then-retag rows.
describe.skipIf(PG_SKIP !== null)('importing into PostgreSQL, then the re-tag', () => {
  const pg = postgresEngine('import_tagging');
  const sqlite = sqliteEngine();

  it(
    'leaves every imported paper stale, and the re-tag gives the rows SQLite gives, on a fresh store and a tagged one',
    async () => {
      const a = await pg.fresh('weeks');
      const b = await sqlite.fresh('weeks');
      try {
        const report = await a.importPaths(WEEKS.slice(0, 2), { tagWith: defaultTaxonomy() });
        expect(report.tagging?.tagged).toBe(0);
        expect(report.tagging?.leftToRetag).toContain('PostgreSQL');
        expect(await a.tags.staleCount()).toBe(report.totals.inserted);
        const retagged = await retag(a.tags, defaultTaxonomy());
        expect(retagged.stalePapers).toBe(report.totals.inserted);
        await b.importPaths(WEEKS.slice(0, 2));
        await retag(b.tags, defaultTaxonomy());
        const tagged = await engineSnapshot(a);
        expect(tagged.tags.length).toBeGreaterThan(report.totals.inserted);
        expect(tagged.counts.length).toBeGreaterThan(0);
        expect(tagged).toEqual(await engineSnapshot(b));

        const more = await a.importPaths(WEEKS.slice(1), { tagWith: defaultTaxonomy() });
        expect(more.totals.inserted).toBeGreaterThan(0);
        await retag(a.tags, defaultTaxonomy());
        await b.importPaths(WEEKS.slice(1));
        await retag(b.tags, defaultTaxonomy());
        expect(await engineSnapshot(a)).toEqual(await engineSnapshot(b));
      } finally {
        await a.close();
        await b.close();
      }
    },
    LONG,
  );
});
