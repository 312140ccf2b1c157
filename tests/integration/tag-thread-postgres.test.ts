import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalisePaper } from '@quire/core';
import { parseDumpLine } from '@quire/server/sources/dump-lines';
import { openMigratedPool } from '@quire/server/store/pg/pg-migrations';
import { PgPaperStore } from '@quire/server/store/pg/pg-paper-store';
import { openPgPool } from '@quire/server/store/pg/pg-pool';
import { postgresForTests } from '@quire/server/store/pg/postgres-for-tests';
import { TagThread } from '@quire/server/topics/tag-thread';
import { listingsDir } from '../src/paths.ts';

/*
 * The tag thread on PostgreSQL (issue 13): nodes sharing one database tag it one at a time, so two started
 * together tag the stored papers once between them, and a thread waiting for another node's run still
 * stops when its server closes.
 */

const pg = postgresForTests('tag-thread-postgres');
const LISTING = '2026-05-11.jsonl.br';
const TAGGING_LOCK = `SELECT pg_advisory_lock(hashtextextended('quire:tagging', 0))`;
/** Distinct ids in the listing, read from the file itself. */
let listed = 0;

beforeAll(async () => {
  if (pg.skip) return;
  const lines = brotliDecompressSync(readFileSync(join(listingsDir, LISTING)))
    .toString('utf8')
    .split('\n')
    .filter((line) => line.trim() !== '');
  listed = new Set(lines.map((line) => (JSON.parse(line) as { id: string }).id)).size;
  await pg.create();
  const pool = await openMigratedPool(pg.url());
  try {
    const papers = new PgPaperStore(pool);
    const entities = lines.map((line) => normalisePaper(parseDumpLine(line)));
    for (let i = 0; i < entities.length; i += 500) {
      await papers.upsertBatch(entities.slice(i, i + 500), { countsAsListing: true });
    }
  } finally {
    await pool.end();
  }
}, 300_000);
afterAll(() => pg.drop());

const source = () => ({ engine: 'postgres' as const, databaseUrl: pg.url() });

describe.skipIf(pg.skip !== null)('the tag thread on PostgreSQL', () => {
  it('two nodes starting together tag the stored papers once between them', async () => {
    const threads = [new TagThread(source()), new TagThread(source())];
    try {
      const reports = await Promise.all(threads.map((t) => t.ready));
      expect(reports.map((r) => r.stalePapers).sort((a, b) => a - b)).toEqual([0, listed]);
      expect(threads.map((t) => t.state)).toEqual(['ready', 'ready']);
    } finally {
      for (const t of threads) await t.close();
    }
  }, 300_000);

  it('stops when closed while another node holds the tagging lock', async () => {
    const holder = await openPgPool(pg.url());
    const client = await holder.connect();
    try {
      await client.query(TAGGING_LOCK);
      const thread = new TagThread(source());
      await thread.close();
      await expect(thread.ready).rejects.toThrow(/shutting down/);
      expect(thread.state).toBe('closed');
    } finally {
      client.release(true);
      await holder.end();
    }
  });
});
