import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultTaxonomy, type Author, type SearchResponseDto } from '@quire/core';
import { runMigrate } from '@quire/server/cli/command-migrate';
import { importPaths } from '@quire/server/ingest/import-dumps';
import { FtsSearch } from '@quire/server/search/fts-search';
import type { SearchPage } from '@quire/server/search/search-api';
import { SearchThread } from '@quire/server/search/search-thread';
import { openStore } from '@quire/server/store/open-store';
import { openPgSearchReader } from '@quire/server/store/pg/pg-search-reader';
import { createThrowawayDatabase, type ThrowawayDatabase } from '@quire/server/store/pg/throwaway-database';
import { openSearchReader, type SearchReader } from '@quire/server/store/search-reader';
import { retag } from '@quire/server/topics/retag';
import { PG_SKIP } from '../src/harness/engines.ts';
import { listingsDir } from '../src/paths.ts';

/*
 * Search on both engines (issue 13): one real listing imported and tagged on SQLite, copied to PostgreSQL
 * by `quire migrate`, and the same searches run through FtsSearch over each engine's reader — the
 * behaviours the e2e search specs rely on (tests/e2e/search.spec.ts): a paper found by its exact title,
 * its id or address, a rare word of its abstract and that word with a typo, its first author as a filter;
 * topic and category filters, newest first, a person's papers first; and related papers. Each behaviour's
 * agreement is printed. Ranked lists are compared by their first result: the first ranking differs by
 * engine (bm25 against ts_rank × idf), the re-ranking of the first 60 does not.
 */

const PG_URL = process.env.QUIRE_TEST_DATABASE_URL ?? '';
if (PG_SKIP) console.warn(`search on both engines: skipped: ${PG_SKIP}`);

const LISTING = '2026-05-04.jsonl.br';
/** Papers looked for, every n-th of the listing by id. */
const PICKS = 40;
const PAGE = { limit: 20, offset: 0 };
const SLUG = '3d-gaussian-splatting';

interface Picked {
  id: string;
  title: string;
  abstract: string;
  firstAuthor: string;
}

const dir = mkdtempSync(join(tmpdir(), 'quire-search-engines-'));
let database: ThrowawayDatabase | null = null;
const readers: SearchReader[] = [];
let sqlite: FtsSearch;
let postgres: FtsSearch;
let picked: Picked[] = [];

beforeAll(async () => {
  if (PG_SKIP) return;
  const path = join(dir, 'quire.db');
  const taxonomy = defaultTaxonomy();
  const store = openStore(path);
  try {
    await importPaths(store, [join(listingsDir, LISTING)]);
    await retag(store.tags, taxonomy);
    const ids = store.papers.ids();
    const step = Math.max(1, Math.floor(ids.length / PICKS));
    picked = ids
      .filter((_, i) => i % step === 0)
      .slice(0, PICKS)
      .flatMap((id) => {
        const paper = store.papers.get(id);
        return paper
          ? [{ id, title: paper.title, abstract: paper.abstract, firstAuthor: firstAuthor(paper.authors) }]
          : [];
      });
  } finally {
    store.close();
  }
  database = await createThrowawayDatabase(PG_URL, 'search-engines');
  const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
  const code = await runMigrate({
    dbPath: path,
    args: ['--from', `sqlite:${path}`, '--to', database.url],
    env: {},
    stdout: sink,
    stderr: sink,
  });
  if (code !== 0) throw new Error(`quire migrate exited with ${code}`);
  const sqliteReader = openSearchReader(path);
  const pgReader = await openPgSearchReader(database.url);
  readers.push(sqliteReader, pgReader);
  sqlite = new FtsSearch(sqliteReader, taxonomy);
  postgres = new FtsSearch(pgReader, taxonomy);
}, 600_000);

afterAll(async () => {
  for (const reader of readers) await reader.close();
  await database?.drop();
  rmSync(dir, { recursive: true, force: true });
});

function firstAuthor(authors: readonly Author[]): string {
  return authors[0]?.name ?? '';
}

const ids = (answer: SearchResponseDto) => answer.results.map((r) => r.id);

/** Both engines' answers to one query. */
async function both(q: string, page: SearchPage = PAGE): Promise<[SearchResponseDto, SearchResponseDto]> {
  return [await sqlite.search(q, page), await postgres.search(q, page)];
}

/** Long words of the abstract, longest first (as the e2e spec picks them). */
function longWords(abstract: string): string[] {
  const words = new Set((abstract.match(/\b[A-Za-z]{9,}\b/g) ?? []).map((w) => w.toLowerCase()));
  return [...words].sort((a, b) => b.length - a.length || a.localeCompare(b));
}

/** One letter changed in the middle of the word (the e2e spec's typo). */
function withTypo(word: string): string {
  const at = Math.floor(word.length / 2);
  const letter = word.charAt(at) === 'x' ? 'z' : 'x';
  return word.slice(0, at) + letter + word.slice(at + 1);
}

function report(line: string): void {
  console.log(`search on both engines: ${line}`);
}

describe.skipIf(PG_SKIP !== null)('search on SQLite and PostgreSQL over one real listing', () => {
  it('finds each paper first by its exact title on both', async () => {
    let sqliteFirst = 0;
    let pgFirst = 0;
    const differ: string[] = [];
    for (const paper of picked) {
      const [a, b] = await both(paper.title);
      if (ids(a)[0] === paper.id) sqliteFirst++;
      if (ids(b)[0] === paper.id) pgFirst++;
      else differ.push(`${paper.id} "${paper.title}" → ${ids(b).slice(0, 3).join(', ')}`);
    }
    report(
      `exact titles: first on SQLite ${sqliteFirst}/${picked.length}, on PostgreSQL ${pgFirst}/${picked.length}`,
    );
    for (const line of differ) report(`  PostgreSQL missed: ${line}`);
    expect(picked.length).toBe(PICKS);
    expect(sqliteFirst).toBe(picked.length);
    expect(pgFirst).toBe(sqliteFirst);
  });

  it('answers an id, an arXiv address and an unknown id alike', async () => {
    for (const paper of picked.slice(0, 10)) {
      for (const q of [
        paper.id,
        `arXiv:${paper.id}v2`,
        `https://arxiv.org/abs/${paper.id}`,
        `https://arxiv.org/pdf/${paper.id}v1`,
      ]) {
        const [a, b] = await both(q);
        expect(b.exact, q).toEqual({ id: paper.id, stored: true });
        expect(ids(b)).toEqual([paper.id]);
        expect(b).toEqual(a);
      }
    }
    const [a, b] = await both('2605.99999');
    expect(b).toMatchObject({ total: 0, exact: { id: '2605.99999', stored: false } });
    expect(b).toEqual(a);
  });

  it('finds a paper by a rare word of its abstract, and by that word with a typo', async () => {
    let words = 0;
    let typos = 0;
    let pgWords = 0;
    let pgTypos = 0;
    for (const paper of picked) {
      // The e2e spec's word: the longest whose search lists the paper on the first page (on SQLite).
      let word: string | undefined;
      for (const w of longWords(paper.abstract)) {
        if (ids(await sqlite.search(w, PAGE)).includes(paper.id)) {
          word = w;
          break;
        }
      }
      if (word === undefined) continue;
      words++;
      const [a, b] = await both(word);
      if (ids(b).includes(paper.id)) pgWords++;
      else {
        const deeper = ids(await postgres.search(word, { limit: 100, offset: 0 })).indexOf(paper.id);
        report(
          `  "${word}" (${a.total} papers) lists ${paper.id} at ${ids(a).indexOf(paper.id) + 1} on SQLite, ${deeper + 1} on PostgreSQL`,
        );
      }
      const [ta, tb] = await both(withTypo(word));
      if (ids(ta).includes(paper.id)) typos++;
      if (ids(tb).includes(paper.id)) pgTypos++;
    }
    report(
      `a rare abstract word: found on the first page on SQLite ${words}/${words}, on PostgreSQL ${pgWords}/${words}; ` +
        `with a typo: SQLite ${typos}/${words}, PostgreSQL ${pgTypos}/${words}`,
    );
    expect(words).toBeGreaterThan(PICKS / 2);
    expect(pgWords).toBe(words);
    expect(typos).toBe(words);
    expect(pgTypos).toBe(typos);
  });

  it('lists the same papers, in the same order, for an author filter, a topic, a category and newest first', async () => {
    for (const paper of picked.slice(0, 15)) {
      const [a, b] = await both(`author:"${paper.firstAuthor}"`);
      expect(ids(a), paper.firstAuthor).toContain(paper.id);
      expect(ids(b), paper.firstAuthor).toEqual(ids(a));
      expect(b.total).toBe(a.total);
    }
    for (const q of [
      `topic:${SLUG}`,
      'cat:cs.CV',
      'cat:cs',
      'topic:reinforcement-learning cat:cs.LG',
      'from:2026-05-05 to:2026-05-06',
    ]) {
      const [a, b] = await both(q, { limit: 50, offset: 0 });
      expect(a.total, q).toBeGreaterThan(0);
      expect(b.total, q).toBe(a.total);
      expect(ids(b), q).toEqual(ids(a));
    }
    for (const q of ['diffusion', 'reinforcement learning', `gaussian topic:${SLUG}`, 'agents cat:cs.AI']) {
      const [a, b] = await both(q, { limit: 50, offset: 0, sort: 'newest' as const });
      expect(b.total, q).toBe(a.total);
      expect(ids(b), q).toEqual(ids(a));
    }
  });

  it('ranks the same paper first for words and filters, and lists a person’s papers first', async () => {
    const queries = [
      'diffusion',
      'gaussian splatting',
      `gaussian topic:${SLUG}`,
      '"large language models" reasoning',
      'reinforcement learning cat:cs.LG',
      'retrieval augmented generation',
      'neural radiance fields',
      'graph neural networks',
      'mixture of experts',
      'speculative decoding',
    ];
    let same = 0;
    for (const q of queries) {
      const [a, b] = await both(q);
      expect(b.total, q).toBe(a.total);
      if (ids(a)[0] === ids(b)[0]) same++;
      else report(`  first result differs for "${q}": SQLite ${ids(a)[0]}, PostgreSQL ${ids(b)[0]}`);
      const overlap = ids(a).filter((id) => ids(b).includes(id)).length;
      report(`  "${q}": ${a.total} match on both, first page overlap ${overlap}/${ids(a).length}`);
      // Rankings may differ in their ties and float rounding, not in which papers make the first page.
      expect(overlap, q).toBeGreaterThanOrEqual(Math.ceil(0.8 * ids(a).length));
    }
    report(`words and filters: same first result ${same}/${queries.length}`);
    expect(same).toBeGreaterThanOrEqual(queries.length - 1);
    for (const paper of picked.slice(0, 10)) {
      const [a, b] = await both(paper.firstAuthor);
      expect(b.byAuthor, paper.firstAuthor).toEqual(a.byAuthor);
      const named = (r: SearchResponseDto) => r.results.filter((x) => x.authorMatch).map((x) => x.id);
      expect(named(b), paper.firstAuthor).toEqual(named(a));
    }
  });

  it('finds related papers that mostly agree', async () => {
    let shared = 0;
    let listed = 0;
    for (const paper of picked.slice(0, 20)) {
      const a = await sqlite.related(paper.id, 5, new Map());
      const b = await postgres.related(paper.id, 5, new Map());
      const mine = new Set(b.results.map((r) => r.id));
      shared += a.results.filter((r) => mine.has(r.id)).length;
      listed += a.results.length;
      expect(b.results.map((r) => r.id)).not.toContain(paper.id);
    }
    report(
      `related papers: ${shared} of SQLite's ${listed} also listed by PostgreSQL (5 per paper, 20 papers)`,
    );
    expect(shared).toBeGreaterThan(listed / 2);
  });

  it('answers from a search thread over PostgreSQL as in process, and says why when it cannot connect', async () => {
    const thread = new SearchThread({ engine: 'postgres', databaseUrl: database?.url ?? '' });
    try {
      for (const q of ['gaussian splatting', `topic:${SLUG}`, picked[0]?.title ?? '']) {
        expect(await thread.search(q, PAGE), q).toEqual(await postgres.search(q, PAGE));
      }
      const id = picked[0]?.id ?? '';
      expect(await thread.related(id, 5, new Map())).toEqual(await postgres.related(id, 5, new Map()));
    } finally {
      await thread.close();
    }
    const unreachable = new URL(database?.url ?? '');
    unreachable.port = '1';
    const broken = new SearchThread({ engine: 'postgres', databaseUrl: unreachable.toString() });
    try {
      await expect(broken.search('graph', PAGE)).rejects.toThrow(/Cannot reach PostgreSQL/);
      expect(broken.state).toBe('failed');
    } finally {
      await broken.close();
    }
  });
});
