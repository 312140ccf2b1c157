import { afterEach, describe, expect, it } from 'vitest';
import { defaultTaxonomy } from '@quire/core';
import { importPaths } from '@quire/server/ingest/import-dumps';
import { retag } from '@quire/server/topics/retag';
import { TagThread } from '@quire/server/topics/tag-thread';
import { listingsDir } from '../src/paths.ts';
import { tempStore, type TempStore } from '../src/harness/temp-store.ts';
import { waitFor } from '../src/harness/wait-for.ts';

const cleanup: (() => void)[] = [];
afterEach(() => {
  for (const fn of cleanup.splice(0)) fn();
});

const staleCount = (t: TempStore) =>
  t.store.db.prepare('SELECT COUNT(*) FROM papers_to_tag').pluck().get() as number;
const staleOf = (t: TempStore, id: string) =>
  t.store.db.prepare('SELECT COUNT(*) FROM papers_to_tag WHERE paper_id = ?').pluck().get(id) as number;

describe('tagging beside writers', () => {
  it('a paper rewritten while its tags were being made stays stale, and the next run tags its new text', async () => {
    const t = tempStore();
    cleanup.push(() => t.dispose());
    await importPaths(t.store, [listingsDir]);
    await retag(t.store.tags, defaultTaxonomy());
    const tagStore = t.store.tags;
    const [paper] = await tagStore.papersAfter('', 1);
    if (!paper) throw new Error('empty corpus');
    // A harvest writes a new version of the paper after the tag thread read it.
    t.store.db
      .prepare(
        "UPDATE papers SET title = 'Gaussian splatting for dynamic scenes', updated_at = '2999-01-01T00:00:00.000Z' WHERE id = ?",
      )
      .run(paper.id);
    await tagStore.replacePaperTags([{ id: paper.id, tags: [], updatedAt: paper.updatedAt }]);
    expect(staleOf(t, paper.id)).toBe(1);
    const next = await retag(t.store.tags, defaultTaxonomy());
    expect(next.stalePapers).toBe(1);
    expect(staleOf(t, paper.id)).toBe(0);
  });
});

describe('the tag thread', () => {
  it('reports a thread that cannot open the store as failed, without taking the process down', async () => {
    const t = tempStore();
    cleanup.push(() => t.dispose());
    const lines: string[] = [];
    // A folder is not a database: the thread dies opening it. Vitest fails the run on an unhandled rejection.
    const thread = new TagThread(t.dir, { log: (line) => lines.push(line) });
    await expect(thread.ready).rejects.toThrow();
    expect(thread.state).toBe('failed');
    await expect(thread.retag()).rejects.toThrow(/not running/);
    await thread.close();
    expect(lines.join('\n')).toMatch(/tags: /);
  });

  it('a run that fails (the store locked past its timeout) is reported and tried again until it succeeds', async () => {
    const t = tempStore();
    cleanup.push(() => t.dispose());
    await importPaths(t.store, [listingsDir]);
    // Another writer holds the write lock: the thread's first batch waits out its busy timeout and fails.
    t.store.db.exec('BEGIN IMMEDIATE');
    const lines: string[] = [];
    const thread = new TagThread(t.dbPath, { log: (line) => lines.push(line), retryAfterMs: 50 });
    cleanup.push(() => void thread.close());
    await expect(thread.ready).rejects.toThrow(/Tagging failed/);
    expect(thread.lastError).toMatch(/locked|busy/i);
    expect(lines.join('\n')).toMatch(/trying again in/);
    t.store.db.exec('COMMIT');
    await waitFor(
      'the retried run to tag the store',
      () => (thread.lastError === null && staleCount(t) === 0 ? true : undefined),
      60_000,
    );
    await thread.close();
  }, 120_000);

  it('tags a store in its thread and reports each run', async () => {
    const t = tempStore();
    cleanup.push(() => t.dispose());
    await importPaths(t.store, [listingsDir]);
    const tagged: number[] = [];
    const thread = new TagThread(t.dbPath, { onTagged: (report) => tagged.push(report.stalePapers) });
    cleanup.push(() => void thread.close());
    const first = await thread.ready;
    expect(first.stalePapers).toBe(t.store.papers.count());
    expect(thread.state).toBe('ready');
    expect(thread.progress).toBeNull();
    const again = await thread.retag();
    expect(again.stalePapers).toBe(0);
    expect(tagged).toEqual([t.store.papers.count()]);
    const withTags = t.store.db
      .prepare('SELECT COUNT(DISTINCT paper_id) FROM paper_tags')
      .pluck()
      .get() as number;
    expect(withTags).toBeGreaterThan(t.store.papers.count() * 0.9);
    await thread.close();
  }, 120_000);
});
