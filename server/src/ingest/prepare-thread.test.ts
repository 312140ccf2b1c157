/**
 * The prepare thread (PrepareThread) parses dump lines and computes their search terms beside the writes.
 * What it hands over must store exactly what parsing on the writing thread stores: the same papers, the
 * same search index term for term and position for position, the same report of skipped lines.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../store/open-store.ts';
import { importPaths, type ImportOptions, type ImportReport } from './import-dumps.ts';
import { checkpointKey } from './import-checkpoint.ts';

let dir: string;
const stores: Store[] = [];
const clock = () => new Date('2026-05-16T08:00:00Z');

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quire-prepare-thread-'));
});
afterEach(() => {
  for (const store of stores.splice(0)) store.close();
  rmSync(dir, { recursive: true, force: true });
});

function paperLine(
  n: number,
  title = `Multi-agent reinforcement learning ${n} for naïve LLM-based planners`,
): string {
  return JSON.stringify({
    id: `2604.${String(n).padStart(5, '0')}`,
    date: n % 3 === 0 ? '2026-04-02' : '2026-04-01',
    title,
    authors: ['Ada Lovelace', 'Jean-Pierre Serre', `Author ${n}`],
    categories: n % 2 === 0 ? ['cs.LG', 'cs.AI'] : ['cs.CL'],
    comment: null,
    abstract: `We study $\\alpha$-stable graph neural networks (GNNs) ${n}, and the state-of-the-art.`,
    source: 'test',
  });
}

/** 240 lines with what a real dump can hold besides papers: blank lines, bad JSON, non-papers, a paper again. */
function dumpText(): Buffer {
  const parts: Buffer[] = [];
  for (let n = 1; n <= 240; n++) {
    let line: string;
    if (n % 50 === 0) line = '';
    else if (n % 47 === 0) line = '{"id": "2604.1", "title": ';
    else if (n % 61 === 0) line = JSON.stringify({ id: 'not an id', title: 'x' });
    else if (n === 199) line = paperLine(3, 'A corrected title: diffusion transformers');
    else if (n === 120) line = JSON.stringify({ id: '2604.99999', note: 'x'.repeat(5000) });
    else line = paperLine(n);
    parts.push(Buffer.from(`${line}\n`));
    // A line that is not UTF-8.
    if (n === 77) parts.push(Buffer.from([0x7b, 0xff, 0xfe, 0x7d, 0x0a]));
  }
  return Buffer.concat(parts);
}

async function importInto(
  name: string,
  path: string,
  opts: ImportOptions,
): Promise<{ store: Store; report: ImportReport }> {
  const store = openStore(join(dir, `${name}.db`), { now: clock });
  stores.push(store);
  const report = await importPaths(store, [path], { batchSize: 7, maxLineBytes: 4096, now: clock, ...opts });
  return { store, report };
}

/** Every term of the search index with its paper, column and position. */
function indexInstances(store: Store): unknown[] {
  store.db.exec(
    `CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_instances USING fts5vocab(main, paper_search, 'instance')`,
  );
  return store.db
    .prepare(
      `SELECT d.paper_id, i.col, i.offset, i.term FROM temp.search_instances i JOIN search_docs d ON d.doc = i.doc
       ORDER BY d.paper_id, i.col, i.offset`,
    )
    .raw()
    .all();
}

function rows(store: Store, sql: string): unknown[] {
  return store.db.prepare(sql).raw().all();
}

describe('the prepare thread', () => {
  it('stores exactly what parsing on the writing thread stores, search index included', async () => {
    const path = join(dir, 'dump.jsonl.gz');
    writeFileSync(path, gzipSync(dumpText()));
    const threaded = await importInto('threaded', path, { prepareThreadFromBytes: 0 });
    const here = await importInto('here', path, { prepareThreadFromBytes: Infinity });

    const [a] = threaded.report.files;
    const [b] = here.report.files;
    expect(a?.status).toBe('ok');
    expect({ ...a, durationMs: 0 }).toEqual({ ...b, durationMs: 0 });
    expect(a?.updated).toBe(1);
    // Lines the splitter left out (not UTF-8, too long) and lines that did not parse, in file order.
    expect(a?.errors.map((e) => e.line)).toEqual([47, 61, 78, 95, 121, 123, 142, 184, 189, 236]);
    expect(a?.errors[2]?.message).toMatch(/not valid UTF-8/);
    expect(a?.errors[4]?.message).toMatch(/longer than 4 KiB/);
    for (const sql of [
      'SELECT * FROM papers ORDER BY id',
      'SELECT * FROM paper_categories ORDER BY paper_id, category',
      'SELECT paper_id, listing_date FROM search_docs ORDER BY paper_id',
      'SELECT * FROM day_counts ORDER BY listing_date',
      'SELECT * FROM search_pending',
    ]) {
      expect(rows(threaded.store, sql), sql).toEqual(rows(here.store, sql));
    }
    const instances = indexInstances(threaded.store);
    expect(instances).toEqual(indexInstances(here.store));
    // The corrected paper is indexed by its new title only.
    const titleTerms = (instances as [string, string, number, string][])
      .filter(([id, col]) => id === '2604.00003' && col === 'title')
      .map(([, , , term]) => term);
    expect(titleTerms).toContain('diffusion');
    expect(titleTerms).not.toContain('planners');
    expect(threaded.store.state.getCheckpoint(checkpointKey(path))).toBeUndefined();
  });

  it('resumes a stopped file after its last committed batch, each line stored once', async () => {
    const path = join(dir, 'dump.jsonl');
    writeFileSync(path, Array.from({ length: 100 }, (_, i) => paperLine(i + 1)).join('\n') + '\n');
    const store = openStore(join(dir, 'resumed.db'), { now: clock });
    stores.push(store);
    let stopped = false;
    // A clock that moves a second per reading, so that every stored batch reaches onProgress.
    let t = Date.parse('2026-05-16T08:00:00Z');
    const first = await importPaths(store, [path], {
      batchSize: 10,
      prepareThreadFromBytes: 0,
      now: () => new Date((t += 1000)),
      onProgress: (p) => {
        if (stopped || p.papers < 30) return;
        stopped = true;
        throw new Error('stopped by the test');
      },
    });
    expect(first.files[0]?.status).toBe('failed');
    const stored = store.papers.count();
    expect(stored).toBeGreaterThanOrEqual(30);
    expect(stored).toBeLessThan(100);

    const again = await importPaths(store, [path], { batchSize: 10, prepareThreadFromBytes: 0 });
    expect(again.files[0]?.resumedAfterLine).toBe(stored);
    expect(again.totals.inserted).toBe(100 - stored);
    expect(again.totals.updated + again.totals.unchanged).toBe(0);
    expect(store.papers.count()).toBe(100);
    expect(rows(store, 'SELECT COUNT(*) FROM search_docs')).toEqual([[100]]);
    expect(store.state.getCheckpoint(checkpointKey(path))).toBeUndefined();
  });
});
