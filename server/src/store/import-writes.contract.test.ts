import { normalisePaper, type PaperEntity } from '@quire/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { QuireError } from '../errors.ts';
import type { IngestRecord } from './harvest-state.ts';
import { sqliteImportWrites, type ImportWrites } from './import-writes.ts';
import { sqlitePapers, type PaperRepository } from './paper-repository.ts';
import { pgIngestStoresOver } from './pg/pg-ingest-stores.ts';
import { migratePg } from './pg/pg-migrations.ts';
import { openPgPool } from './pg/pg-pool.ts';
import { postgresForTests } from './pg/postgres-for-tests.ts';
import { settled } from './settled.ts';
import { sqliteForTests } from './sqlite-for-tests.ts';

/*
 * One contract for what `quire import` writes (a batch of papers with its file's checkpoint, whole or not
 * at all; the ingest log row opened before the file and finished after it), on SQLite and PostgreSQL.
 */

const postgres = postgresForTests('import-writes contract');
beforeAll(() => postgres.create());
afterAll(() => postgres.drop());

interface Opened {
  writes: ImportWrites;
  papers: PaperRepository;
  recentIngests(n: number): Promise<IngestRecord[]>;
  close(): Promise<void>;
}

const ENGINES: { name: string; skip: string | null; open(): Promise<Opened> }[] = [
  {
    name: 'SQLite',
    skip: null,
    open: () => {
      const { store, close } = sqliteForTests('import-contract');
      return Promise.resolve({
        writes: sqliteImportWrites(store),
        papers: sqlitePapers(store.papers),
        recentIngests: (n) => settled(() => store.state.recentIngests(n)),
        close,
      });
    },
  },
  {
    name: 'PostgreSQL',
    skip: postgres.skip,
    open: async () => {
      const pool = await openPgPool(postgres.url());
      await migratePg(pool);
      await pool.query(
        'TRUNCATE papers, papers_to_tag, day_counts, paper_tags, topic_state, harvest_checkpoints, ingest_log CASCADE',
      );
      const pg = pgIngestStoresOver(pool);
      return {
        writes: pg.imports,
        papers: pg.papers,
        recentIngests: (n) => pg.state.recentIngests(n),
        close: () => pool.end(),
      };
    },
  },
];

const paper = (id: string, title = `Paper ${id}`): PaperEntity =>
  normalisePaper({
    id,
    title,
    abstract: `About ${id}.`,
    authors: ['Ada Lovelace'],
    categories: ['cs.LG'],
    listingDate: '2026-04-02',
  });

const KEY = 'import:/data/dump.jsonl';

describe.each(ENGINES)('import writes on $name', (engine) => {
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

    it('stores a batch as listed with its checkpoint, and the last batch clears it', async () => {
      const { writes, papers } = opened();
      expect(await writes.getCheckpoint(KEY)).toBeUndefined();
      const first = await writes.storeBatch(
        [paper('2604.00001'), paper('2604.00002')],
        {},
        {
          key: KEY,
          value: { line: 2, offset: 100 },
        },
      );
      expect(first).toMatchObject({ inserted: 2, updated: 0, unchanged: 0 });
      expect(await writes.getCheckpoint(KEY)).toEqual({ line: 2, offset: 100 });
      const last = await writes.storeBatch(
        [paper('2604.00002', 'Paper 2604.00002, revised'), paper('2604.00003')],
        {},
        {
          key: KEY,
          clear: true,
        },
      );
      expect(last).toMatchObject({ inserted: 1, updated: 1, unchanged: 0 });
      expect(await writes.getCheckpoint(KEY)).toBeUndefined();
      expect(await papers.ids()).toEqual(['2604.00001', '2604.00002', '2604.00003']);
      expect((await papers.get('2604.00002'))?.title).toBe('Paper 2604.00002, revised');
      expect(await opened().writes.tags.staleCount()).toBe(3);
    });

    it('keeps the checkpoint where it was and stores no paper when a batch fails', async () => {
      const { writes, papers } = opened();
      await writes.storeBatch([paper('2604.00001')], {}, { key: KEY, value: { line: 1, offset: 50 } });
      const broken = { ...paper('2604.00009'), title: null } as unknown as PaperEntity;
      const error = await writes
        .storeBatch([paper('2604.00002'), broken], {}, { key: KEY, value: { line: 3, offset: 150 } })
        .then(
          () => null,
          (err: unknown) => err,
        );
      expect(error).toBeInstanceOf(QuireError);
      expect((error as QuireError).message).toMatch(/none of the batch was stored/);
      expect(await writes.getCheckpoint(KEY)).toEqual({ line: 1, offset: 50 });
      expect(await papers.ids()).toEqual(['2604.00001']);
    });

    it("opens a file's log row as it starts and finishes it with the counts", async () => {
      const { writes } = opened();
      const id = await writes.startIngest('import', '/data/dump.jsonl', new Date('2026-04-02T12:00:00Z'));
      await writes.finishIngest(id, {
        finishedAt: new Date('2026-04-02T12:00:03Z'),
        inserted: 2,
        updated: 1,
        unchanged: 4,
        skipped: 1,
        errors: [{ line: 7, message: 'not JSON' }],
        status: 'ok',
      });
      await writes.startIngest('import', '/data/next.jsonl', new Date('2026-04-02T12:00:04Z'));
      const [running, done] = await opened().recentIngests(5);
      expect(running).toMatchObject({ kind: 'import', source: '/data/next.jsonl', status: 'running' });
      expect(done).toMatchObject({
        id,
        kind: 'import',
        source: '/data/dump.jsonl',
        status: 'ok',
        durationMs: 3000,
        inserted: 2,
        updated: 1,
        unchanged: 4,
        skipped: 1,
        errors: [{ line: 7, message: 'not JSON' }],
      });
    });
  });
});
