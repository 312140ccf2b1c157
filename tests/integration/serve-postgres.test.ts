import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  normalisePaper,
  type PaperEntity,
  type PaperView,
  type RelatedPapersDto,
  type SearchResponseDto,
  type StatusDto,
} from '@quire/core';
import { DEFAULT_CONFIG } from '@quire/server/config';
import { startServer, type RunningServer } from '@quire/server/server';
import { parseDumpLine } from '@quire/server/sources/dump-lines';
import { openStore } from '@quire/server/store/open-store';
import { sqlitePapers, type PaperRepository } from '@quire/server/store/paper-repository';
import { openMigratedPool } from '@quire/server/store/pg/pg-migrations';
import { PgPaperStore } from '@quire/server/store/pg/pg-paper-store';
import { postgresForTests } from '@quire/server/store/pg/postgres-for-tests';
import type { TopicDetail, TopicSummary } from '@quire/server/topics/topic-service';
import { listingsDir } from '../src/paths.ts';
import { squash } from '../src/harness/temp-store.ts';
import { waitFor } from '../src/harness/wait-for.ts';

/*
 * `quire serve` with a database URL (issue 13): one week of the listing corpus stored in a throwaway
 * PostgreSQL through PgPaperStore, and the same papers in a SQLite file; a real server started over each,
 * which tag them in their tag threads. The PostgreSQL server must answer papers, topics, search and related
 * papers from PostgreSQL alone (no SQLite file made), and give the SQLite server's answers where both engines
 * must agree exactly: a paper's JSON with its tags, the topics' totals and papers, a search's first hit.
 */

const pg = postgresForTests('serve-postgres');
const LISTING = '2026-05-11.jsonl.br';
const BATCH = 500;

/** The listing's lines, read as the corpus files are written (brotli, one JSON record a line). */
function listingLines(): string[] {
  const text = brotliDecompressSync(readFileSync(join(listingsDir, LISTING))).toString('utf8');
  return text.split('\n').filter((line) => line.trim() !== '');
}

async function storeAll(papers: PaperRepository, entities: readonly PaperEntity[]): Promise<void> {
  for (let i = 0; i < entities.length; i += BATCH) {
    await papers.upsertBatch(entities.slice(i, i + BATCH), { countsAsListing: true });
  }
}

const sqliteDir = mkdtempSync(join(tmpdir(), 'quire-serve-sqlite-'));
const pgDir = mkdtempSync(join(tmpdir(), 'quire-serve-postgres-'));
let onSqlite: RunningServer | null = null;
let onPostgres: RunningServer | null = null;
const pgLog: string[] = [];
/** Listed ids in the file, as the corpus names them (not through the code under test). */
const listedIds = new Set<string>();
/** The corpus record of each id: its title as written. */
const records = new Map<string, { title: string }>();

async function ready(server: RunningServer): Promise<void> {
  await waitFor(
    `${server.url} to be ready (its tag thread done)`,
    async () => ((await fetch(`${server.url}/api/ready`)).status === 200 ? true : undefined),
    300_000,
  );
}

async function get<T>(server: RunningServer | null, path: string): Promise<T> {
  if (!server) throw new Error('the server was not started');
  const res = await fetch(`${server.url}${path}`);
  if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

/** The same GET on both servers: [SQLite, PostgreSQL]. */
async function both<T>(path: string): Promise<[T, T]> {
  return [await get<T>(onSqlite, path), await get<T>(onPostgres, path)];
}

beforeAll(async () => {
  if (pg.skip) return;
  const lines = listingLines();
  for (const line of lines) {
    const record = JSON.parse(line) as { id: string; title: string };
    listedIds.add(record.id);
    records.set(record.id, { title: record.title });
  }
  const entities = lines.map((line) => normalisePaper(parseDumpLine(line)));

  await pg.create();
  const pool = await openMigratedPool(pg.url());
  try {
    await storeAll(new PgPaperStore(pool), entities);
  } finally {
    await pool.end();
  }
  const sqlitePath = join(sqliteDir, 'quire.db');
  const file = openStore(sqlitePath);
  try {
    await storeAll(sqlitePapers(file.papers), entities);
  } finally {
    file.close();
  }

  const config = { ...DEFAULT_CONFIG, port: 0, harvest: false };
  onSqlite = await startServer({ ...config, dbPath: sqlitePath });
  onPostgres = await startServer(
    { ...config, dbPath: join(pgDir, 'quire.db'), databaseUrl: pg.url() },
    { log: (line) => pgLog.push(line) },
  );
  await Promise.all([ready(onSqlite), ready(onPostgres)]);
}, 600_000);

afterAll(async () => {
  await onPostgres?.close();
  await onSqlite?.close();
  await pg.drop();
  rmSync(sqliteDir, { recursive: true, force: true });
  rmSync(pgDir, { recursive: true, force: true });
});

/** Ids spread over the listing, in id order. */
function spread(count: number): string[] {
  const ids = [...listedIds].sort();
  const step = Math.max(1, Math.floor(ids.length / count));
  return ids.filter((_, i) => i % step === 0).slice(0, count);
}

describe.skipIf(pg.skip !== null)('quire serve on PostgreSQL', () => {
  it('creates no SQLite file, and says where it keeps everything', () => {
    expect(readdirSync(pgDir)).toEqual([]);
    expect(onPostgres?.store.where).toMatch(/^PostgreSQL at postgres(ql)?:\/\//);
    expect(pgLog.join('\n')).toMatch(/tags: tagged \d+ of \d+ papers/);
  });

  it('counts the listed papers in its status, as the SQLite server does', async () => {
    const [sqlite, postgres] = await both<StatusDto>('/api/status');
    expect(postgres.papers).toBe(listedIds.size);
    expect(postgres.papers).toBe(sqlite.papers);
    expect(postgres.byPrimaryCategory).toEqual(sqlite.byPrimaryCategory);
    expect([postgres.firstListing, postgres.lastListing]).toEqual([sqlite.firstListing, sqlite.lastListing]);
    expect(postgres.warming).toEqual([]);
  });

  it('answers a paper by id with its tags, the same JSON as the SQLite server', async () => {
    let tagged = 0;
    for (const id of spread(20)) {
      const [sqlite, postgres] = await both<PaperView>(`/api/papers/${id}`);
      expect(squash(postgres.title)).toBe(squash(records.get(id)?.title ?? null));
      expect(postgres).toEqual(sqlite);
      if (postgres.tags.length > 0) tagged++;
    }
    expect(tagged).toBeGreaterThan(0);
    const ids = spread(5);
    const [sqliteBatch, postgresBatch] = await both<{ papers: PaperView[]; missing: string[] }>(
      `/api/papers?ids=${[...ids, '2605.99999'].join(',')}`,
    );
    expect(postgresBatch.papers.map((p) => p.id)).toEqual(ids);
    expect(postgresBatch.missing).toEqual(['2605.99999']);
    expect(postgresBatch).toEqual(sqliteBatch);
  });

  it("lists topics with the SQLite server's momentum, and a topic's papers", async () => {
    const [sqlite, postgres] = await both<TopicSummary[]>('/api/topics');
    const totals = (topics: TopicSummary[]) => new Map(topics.map((t) => [t.slug, t.momentum.total]));
    expect(postgres.filter((t) => t.momentum.total > 0).length).toBeGreaterThan(10);
    expect(totals(postgres)).toEqual(totals(sqlite));
    expect(postgres.map((t) => t.momentum)).toEqual(sqlite.map((t) => t.momentum));

    // A topic page: a tagged paper is among its topic's papers, listed as on SQLite.
    const paper = await firstTagged();
    const slug = paper.tags[0]!.slug;
    const [sqliteTopic, postgresTopic] = await both<TopicDetail>(`/api/topics/${slug}`);
    expect(postgresTopic.paperIds).toContain(paper.id);
    expect(postgresTopic.paperIds).toEqual(sqliteTopic.paperIds);
  });

  it('finds a paper first by its exact title and as the exact match of its arXiv id', async () => {
    for (const id of spread(8)) {
      const title = records.get(id)?.title ?? '';
      const [sqlite, postgres] = await both<SearchResponseDto>(`/api/search?q=${encodeURIComponent(title)}`);
      expect(postgres.results[0]?.id, title).toBe(id);
      expect(postgres.results[0]?.id).toBe(sqlite.results[0]?.id);

      const byId = await get<SearchResponseDto>(onPostgres, `/api/search?q=${id}`);
      expect(byId.exact).toEqual({ id, stored: true });
      expect(byId.results.map((r) => r.id)).toEqual([id]);
    }
  });

  it('answers related papers for a tagged paper', async () => {
    const paper = await firstTagged();
    const related = await get<RelatedPapersDto>(onPostgres, `/api/related/${paper.id}`);
    expect(related.id).toBe(paper.id);
    expect(related.results.length).toBeGreaterThan(0);
    expect(related.results.map((r) => r.id)).not.toContain(paper.id);
    for (const r of related.results) expect(listedIds.has(r.id)).toBe(true);
  });
});

async function firstTagged(): Promise<PaperView> {
  for (const id of spread(50)) {
    const paper = await get<PaperView>(onPostgres, `/api/papers/${id}`);
    if (paper.tags.length > 0) return paper;
  }
  throw new Error('no tagged paper among the first picks');
}
