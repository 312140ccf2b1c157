import pg from 'pg';
import { QuireError, errorMessage, redactedUrl } from '../../errors.ts';

export type PgPool = pg.Pool;
export type PgClient = pg.PoolClient;

/** Connections one node keeps open; the sync server's appends are short, so a few go a long way. */
const POOL_SIZE = 10;

/**
 * A pool over `url`, checked with one round trip so a wrong address fails here rather than on first use.
 * `settings`: SET statements every new connection runs before its first query. Sent as statements, not as
 * the startup packet's `options`: an `options=` in the operator's URL would replace ours (pg merges the
 * parsed URL over the config), and poolers such as PgBouncer refuse that startup parameter.
 */
export async function openPgPool(url: string, settings?: string): Promise<PgPool> {
  const pool = new pg.Pool({
    connectionString: url,
    max: POOL_SIZE,
    // pg-pool waits for this hook's promise before it hands a new connection out (its types say void), so
    // the settings finish before the first query instead of queueing it behind them, which pg 8 warns of
    // and pg 9 refuses. A failed SET surfaces as a slow plan, not a wrong answer, so it does not fail the
    // connection; the pool's first check below reports an unreachable server.
    // eslint-disable-next-line @typescript-eslint/no-misused-promises
    onConnect: settings === undefined ? undefined : (client) => applySettings(client, settings),
  });
  // An idle connection that dies (a server restart) is dropped from the pool and the next query opens a
  // new one; without a listener the pool's 'error' event would end the process.
  pool.on('error', () => {});
  try {
    await pool.query('SELECT 1');
  } catch (err) {
    await pool.end().catch(() => {});
    throw new QuireError(
      'store-error',
      `Cannot reach PostgreSQL at ${redactedUrl(url)}: ${errorMessage(err)}. Check the address (QUIRE_DATABASE_URL) and that the server is running.`,
      { cause: err },
    );
  }
  return pool;
}

async function applySettings(client: pg.ClientBase, settings: string): Promise<void> {
  await client.query(settings).catch(() => undefined);
}

/** Whether `x` is a pool of this module's (callers outside store/ take either engine's handle). */
export function isPgPool(x: unknown): x is PgPool {
  return x instanceof pg.Pool;
}

/** Runs `fn` in one transaction on one connection: committed if it resolves, rolled back if it throws. */
export async function inTransaction<T>(pool: PgPool, fn: (client: PgClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

/** A byte array as pg sends bytea: a Buffer over the same memory (pg sends other views as text). */
export function bytea(data: Uint8Array): Buffer {
  return Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
}
