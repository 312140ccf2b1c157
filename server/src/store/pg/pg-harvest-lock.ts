import pg from 'pg';
import { errorMessage } from '../../errors.ts';

// One key for the whole installation: every node sharing the database competes for it. A session lock
// (not a transaction one) is held for as long as its connection lives, so a harvester that dies, however
// it dies, gives it up when PostgreSQL sees its connection close.
const TRY_HARVEST_LOCK = `SELECT pg_try_advisory_lock(hashtextextended('quire:harvest', 0)) AS locked`;
const RELEASE_HARVEST_LOCK = `SELECT pg_advisory_unlock(hashtextextended('quire:harvest', 0))`;
const STILL_CONNECTED = `SELECT 1`;

/**
 * The harvester's lock: a PostgreSQL session advisory lock on a connection of its own (a pooled one would
 * go back to the pool with the lock, or be closed under it). `lost` fires once if the connection breaks
 * while the lock is held: the lock is then gone (PostgreSQL released it with the session) and another
 * node may already hold it.
 */
export class PgHarvestLock {
  private lostReported = false;

  private constructor(
    private readonly client: pg.Client,
    private readonly onLost: (why: string) => void,
  ) {
    const lose = (why: string) => {
      if (this.lostReported) return;
      this.lostReported = true;
      onLost(why);
    };
    client.on('error', (err) => lose(errorMessage(err)));
    client.on('end', () => lose('its connection closed'));
  }

  /** The lock if no other session holds it, else null (the connection opened for it is closed again). */
  static async tryAcquire(url: string, onLost: (why: string) => void): Promise<PgHarvestLock | null> {
    const client = new pg.Client({ connectionString: url });
    // Until the lock is ours an error here only fails this attempt; the listener keeps it from throwing.
    client.on('error', () => {});
    await client.connect();
    try {
      const { rows } = await client.query<{ locked: boolean }>(TRY_HARVEST_LOCK);
      if (rows[0]?.locked) return new PgHarvestLock(client, onLost);
    } catch (err) {
      await client.end().catch(() => {});
      throw err;
    }
    await client.end();
    return null;
  }

  /** One round trip on the lock's connection: a broken one reports `lost` (and rejects). */
  async check(): Promise<void> {
    try {
      await this.client.query(STILL_CONNECTED);
    } catch (err) {
      if (!this.lostReported) {
        this.lostReported = true;
        this.onLost(errorMessage(err));
      }
      throw err;
    }
  }

  /** Gives the lock up and closes its connection (closing alone would release it too). */
  async release(): Promise<void> {
    this.lostReported = true;
    await this.client.query(RELEASE_HARVEST_LOCK).catch(() => {});
    await this.client.end().catch(() => {});
  }
}
