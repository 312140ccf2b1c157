import { normalisePaper, type PaperEntity } from '@quire/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { QuireError } from '../errors.ts';
import type { IngestKind, IngestRecord } from './harvest-state.ts';
import { sqliteHarvestWrites, type HarvestWrites } from './harvest-writes.ts';
import { sqlitePapers, type PaperRepository } from './paper-repository.ts';
import { PgHarvestState } from './pg/pg-harvest-state.ts';
import { pgHarvestWrites } from './pg/pg-harvest-writes.ts';
import { migratePg } from './pg/pg-migrations.ts';
import { PgPaperStore } from './pg/pg-paper-store.ts';
import { openPgPool, type PgPool } from './pg/pg-pool.ts';
import { postgresForTests } from './pg/postgres-for-tests.ts';
import { settled } from './settled.ts';
import { sqliteForTests } from './sqlite-for-tests.ts';

/*
 * One contract for what harvesters write (a page's papers with its checkpoint, whole or not at all) and the
 * ingest log, on SQLite and PostgreSQL.
 */

const postgres = postgresForTests('harvest-writes contract');
beforeAll(() => postgres.create());
afterAll(() => postgres.drop());

interface Log {
  startIngest(kind: IngestKind, source: string, at: Date): Promise<number>;
  markInterruptedIngests(isAlive: (pid: number) => boolean): Promise<IngestRecord[]>;
  recentIngests(n: number, kind?: IngestKind): Promise<IngestRecord[]>;
}

interface Opened {
  writes: HarvestWrites;
  papers: PaperRepository;
  log: Log;
  close(): Promise<void>;
}

const ENGINES: { name: string; skip: string | null; open(): Promise<Opened> }[] = [
  {
    name: 'SQLite',
    skip: null,
    open: () => {
      const { store, close } = sqliteForTests('harvest-contract');
      return Promise.resolve({
        writes: sqliteHarvestWrites(store),
        papers: sqlitePapers(store.papers),
        log: {
          startIngest: (kind, source, at) => settled(() => store.state.startIngest(kind, source, at)),
          markInterruptedIngests: (isAlive) => settled(() => store.state.markInterruptedIngests(isAlive)),
          recentIngests: (n, kind) => settled(() => store.state.recentIngests(n, kind)),
        },
        close,
      });
    },
  },
  {
    name: 'PostgreSQL',
    skip: postgres.skip,
    open: async () => {
      const pool: PgPool = await openPgPool(postgres.url());
      await migratePg(pool);
      await pool.query('TRUNCATE papers, papers_to_tag, day_counts, harvest_checkpoints, ingest_log CASCADE');
      const papers = new PgPaperStore(pool);
      const state = new PgHarvestState(pool);
      return {
        writes: pgHarvestWrites(pool, papers, state),
        papers,
        log: state,
        close: () => pool.end(),
      };
    },
  },
];

const paper = (id: string, overrides: Partial<Parameters<typeof normalisePaper>[0]> = {}): PaperEntity =>
  normalisePaper({
    id,
    title: `Paper ${id}`,
    abstract: `About ${id}.`,
    authors: ['Ada Lovelace'],
    categories: ['cs.LG'],
    listingDate: '2026-04-02',
    ...overrides,
  });

const KEY = 'oai:cs:arXivRaw';

describe.each(ENGINES)('harvest writes on $name', (engine) => {
  describe.skipIf(engine.skip !== null)('contract', () => {
    let o: Opened | null = null;
    const opened = (): Opened => {
      if (!o) throw new Error('not open');
      return o;
    };
    beforeEach(async () => {
      await o?.close();
      o = await engine.open();
    });
    afterAll(() => o?.close());

    it('stores a page of listed and replaced papers with its checkpoint', async () => {
      const { writes, papers } = opened();
      expect(await writes.getCheckpoint(KEY)).toBeNull();
      const counts = await writes.storeBatches(
        [
          { papers: [paper('2604.00001'), paper('2604.00002')], countsAsListing: true },
          { papers: [paper('2604.00003', { listingDate: '2026-04-20' })], countsAsListing: false },
        ],
        { key: KEY, value: { pages: 1, token: 'abc' } },
      );
      expect(counts).toEqual({ inserted: 3, updated: 0, unchanged: 0 });
      expect(await writes.getCheckpoint(KEY)).toEqual({ pages: 1, token: 'abc' });
      expect(await papers.count()).toBe(3);
      // A replacement never sets the listing date of a paper not seen listed.
      expect((await papers.get('2604.00003'))?.listingDate).toBeNull();
      expect(await writes.storeBatches([], { key: KEY, value: { pages: 2 } })).toEqual({
        inserted: 0,
        updated: 0,
        unchanged: 0,
      });
      expect(await writes.getCheckpoint(KEY)).toEqual({ pages: 2 });
    });

    it('keeps the old checkpoint and stores no paper when a page fails', async () => {
      const { writes, papers } = opened();
      await writes.storeBatches([{ papers: [paper('2604.00001')], countsAsListing: true }], {
        key: KEY,
        value: { pages: 1 },
      });
      const broken = { ...paper('2604.00009'), title: null } as unknown as PaperEntity;
      const error = await writes
        .storeBatches([{ papers: [paper('2604.00002'), broken], countsAsListing: true }], {
          key: KEY,
          value: { pages: 2 },
        })
        .then(
          () => null,
          (err: unknown) => err,
        );
      expect(error).toBeInstanceOf(QuireError);
      expect((error as QuireError).message).toMatch(/none of the batch was stored/);
      expect(await writes.getCheckpoint(KEY)).toEqual({ pages: 1 });
      expect(await papers.ids()).toEqual(['2604.00001']);
    });

    it('stores neither batch of a page whose second batch fails', async () => {
      const { writes, papers } = opened();
      const broken = { ...paper('2604.00009'), title: null } as unknown as PaperEntity;
      const error = await writes
        .storeBatches(
          [
            { papers: [paper('2604.00001'), paper('2604.00002')], countsAsListing: true },
            { papers: [broken], countsAsListing: false },
          ],
          { key: KEY, value: { pages: 1 } },
        )
        .then(
          () => null,
          (err: unknown) => err,
        );
      expect(error).toBeInstanceOf(QuireError);
      expect(await writes.getCheckpoint(KEY)).toBeNull();
      expect(await papers.count()).toBe(0);
      expect(
        await writes.storeBatches([{ papers: [paper('2604.00001')], countsAsListing: true }], null),
      ).toEqual({ inserted: 1, updated: 0, unchanged: 0 });
    });

    it('logs runs newest first, and marks a run whose process is gone as interrupted', async () => {
      const { writes, log } = opened();
      const base = { inserted: 2, updated: 1, unchanged: 0, skipped: 0, errors: [], status: 'ok' as const };
      await writes.logIngest({
        ...base,
        kind: 'harvest',
        source: 'oai-pmh first',
        startedAt: new Date('2026-04-02T10:00:00Z'),
        finishedAt: new Date('2026-04-02T10:00:05Z'),
      });
      await writes.logIngest({
        ...base,
        kind: 'fetch',
        source: 'fetch 2604.00001',
        startedAt: new Date('2026-04-02T11:00:00Z'),
        finishedAt: new Date('2026-04-02T11:00:01Z'),
        errors: [{ message: 'one record skipped' }],
        status: 'failed',
      });
      const recent = await log.recentIngests(5);
      expect(recent.map((r) => [r.kind, r.source, r.status, r.durationMs])).toEqual([
        ['fetch', 'fetch 2604.00001', 'failed', 1000],
        ['harvest', 'oai-pmh first', 'ok', 5000],
      ]);
      expect(recent[0]?.errors).toEqual([{ message: 'one record skipped' }]);
      expect((await log.recentIngests(5, 'harvest')).map((r) => r.source)).toEqual(['oai-pmh first']);

      await log.startIngest('import', 'dump.jsonl', new Date('2026-04-02T12:00:00Z'));
      // This process is alive: its own running row is left alone.
      expect(await log.markInterruptedIngests(() => false)).toEqual([]);
      expect((await log.recentIngests(1))[0]?.status).toBe('running');
    });
  });
});

describe.skipIf(postgres.skip !== null)('the ingest log on PostgreSQL, several hosts', () => {
  it("judges only its own host's running rows", async () => {
    const pool = await openPgPool(postgres.url());
    try {
      await migratePg(pool);
      await pool.query('TRUNCATE ingest_log');
      const here = new PgHarvestState(pool, { host: 'node-a' });
      const there = new PgHarvestState(pool, { host: 'node-b' });
      const mine = await here.startIngest('import', 'a.jsonl', new Date('2026-04-02T12:00:00Z'));
      await there.startIngest('import', 'b.jsonl', new Date('2026-04-02T12:00:01Z'));
      // A process of the same pid on node-a but another run: gone once node-a looks.
      await pool.query(`UPDATE ingest_log SET run_token = 'an earlier process' WHERE id = $1`, [mine]);
      const marked = await here.markInterruptedIngests(() => false);
      expect(marked.map((r) => [r.source, r.status])).toEqual([['a.jsonl', 'interrupted']]);
      expect(marked[0]?.errors[0]?.message).toMatch(/stopped before it finished.*run the import again/);
      const rows = await here.recentIngests(5);
      expect(rows.map((r) => [r.source, r.status])).toEqual([
        ['b.jsonl', 'running'],
        ['a.jsonl', 'interrupted'],
      ]);
    } finally {
      await pool.end();
    }
  });
});
