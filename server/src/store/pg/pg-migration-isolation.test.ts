import { normalisePaper } from '@quire/core';
import { afterAll, describe, expect, it } from 'vitest';
import type { IndexFilters } from '../search-index.ts';
import { phrase } from '../search-match.ts';
import { migratePg, PG_MIGRATIONS } from './pg-migrations.ts';
import { PgPaperStore } from './pg-paper-store.ts';
import { openPgPool } from './pg-pool.ts';
import { PgSearchReader } from './pg-search-reader.ts';
import { postgresForTests } from './postgres-for-tests.ts';

const NO_FILTERS: IndexFilters = { topics: null, topicsFrom: 'tags', categories: null, from: null, to: null };
const WEIGHTS = { title: 3, authors: 2, abstract: 1 };
const paper = (n: number) =>
  normalisePaper({
    id: `2604.${String(n).padStart(5, '0')}`,
    title: `Harbour semaphore study ${n}`,
    abstract: 'We watch a harbour semaphore at dusk.',
    authors: ['Grace Hopper'],
    categories: ['cs.LG'],
    listingDate: '2026-04-02',
  });

const db = postgresForTests('migration-isolation');
afterAll(() => db.drop());

describe.skipIf(db.skip !== null)('a PostgreSQL migration step and a writer in flight', () => {
  it('fills what a writer committed while the step waited for its lock, under a REPEATABLE READ default', async () => {
    await db.create();
    const admin = await openPgPool(db.url());
    const name = new URL(db.url()).pathname.slice(1);
    await admin.query(`ALTER DATABASE "${name}" SET default_transaction_isolation TO 'repeatable read'`);
    await admin.end();
    const pool = await openPgPool(db.url());
    try {
      // Every step before the positions' fill, then three papers, then a fourth left uncommitted.
      const fill = PG_MIGRATIONS.findIndex((step) => step.name === 'search-positions');
      await migratePg(pool, PG_MIGRATIONS.slice(0, fill));
      const store = new PgPaperStore(pool);
      await store.upsertBatch([1, 2, 3].map(paper), { countsAsListing: true });
      const writer = await pool.connect();
      await writer.query('BEGIN');
      await store.upsertWith(writer, [paper(4)], { countsAsListing: true });
      const migrating = migratePg(pool);
      // The step is waiting for the writer's lock once PostgreSQL shows an ungranted lock on the table.
      for (;;) {
        const { rows } = await pool.query<{ n: number }>(
          "SELECT count(*)::integer AS n FROM pg_locks WHERE NOT granted AND relation = 'paper_search'::regclass",
        );
        if ((rows[0]?.n ?? 0) > 0) break;
        await new Promise((resolve) => setImmediate(resolve));
      }
      await writer.query('COMMIT');
      writer.release();
      await migrating;
      const found = await new PgSearchReader(pool).ranked(
        phrase(['harbour', 'semaphore']),
        NO_FILTERS,
        WEIGHTS,
        {
          limit: 10,
          offset: 0,
          window: 5000,
        },
      );
      expect(found.total).toBe(4);
      expect(found.rows.map((r) => r.paperId).sort()).toEqual([
        '2604.00001',
        '2604.00002',
        '2604.00003',
        '2604.00004',
      ]);
    } finally {
      await pool.end();
    }
  }, 60_000);
});
