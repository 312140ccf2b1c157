import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPgPool, type PgPool } from './pg-pool.ts';
import { postgresForTests } from './postgres-for-tests.ts';

const db = postgresForTests('pg-pool');

describe.skipIf(db.skip !== null)('a pool whose connections run settings first', () => {
  let pool: PgPool;
  const warnings: string[] = [];
  const onWarning = (w: Error): void => void warnings.push(w.message);

  beforeAll(async () => {
    await db.create();
    process.on('warning', onWarning);
    pool = await openPgPool(db.url(), 'SET enable_seqscan = off; SET jit = off');
  });

  afterAll(async () => {
    process.off('warning', onWarning);
    await pool.end();
    await db.drop();
  });

  it('applies them on every new connection before its first query, without queueing that query behind them', async () => {
    // More concurrent queries than one connection, so the pool opens new ones for them.
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        pool.query<{ seqscan: string; jit: string }>(
          `SELECT current_setting('enable_seqscan') AS seqscan, current_setting('jit') AS jit, pg_sleep(0.05)`,
        ),
      ),
    );
    expect(pool.totalCount).toBeGreaterThan(1);
    for (const { rows } of answers) expect(rows[0]).toMatchObject({ seqscan: 'off', jit: 'off' });
    // Deprecation warnings are emitted on the next tick.
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings.filter((m) => m.includes('already executing a query'))).toEqual([]);
  });
});
