import { QuireError } from '../../errors.ts';
import { type GroupSideRows, type GroupSideTable, type UpdateTotals } from '../group-side-rows.ts';
import { migratePg } from './pg-migrations.ts';
import { inTransaction, openPgPool, type PgClient, type PgPool } from './pg-pool.ts';

// Each batch is one multi-row INSERT over arrays (unnest), whatever its size: one round trip a batch.
const INSERT_GROUPS = `INSERT INTO groups (id, name, created_at)
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[])`;
const INSERT_INVITES = `INSERT INTO group_invites (id, group_id, role, token_hash, created_at, revoked_at, invited_by)
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bytea[], $5::text[], $6::text[], $7::text[])`;
const INSERT_FEEDS = `INSERT INTO calendar_feeds (id, group_id, invite_id, token_hash, created_at, revoked_at)
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bytea[], $5::text[], $6::text[])`;
// A group's rows are numbered on from its update_seq, as an append numbers them (pg-update-log.ts), in
// the source's row order: the copied log replays in the order SQLite stored it.
const BUMP_SEQ = `UPDATE groups SET update_seq = update_seq + $2 WHERE id = $1 RETURNING update_seq`;
const INSERT_UPDATES = `INSERT INTO group_updates (group_id, seq, data)
  SELECT * FROM unnest($1::text[], $2::bigint[], $3::bytea[])`;

const SELECT_RUN = `SELECT source, started_at, finished_at FROM migrate_runs WHERE id = 1`;
const INSERT_RUN = `INSERT INTO migrate_runs (id, source, started_at) VALUES (1, $1, $2)`;
const FINISH_RUN = `UPDATE migrate_runs SET finished_at = $1 WHERE id = 1`;
const SELECT_PROGRESS = `SELECT table_name, last_key, copied::integer AS copied, done FROM migrate_progress`;
const UPSERT_PROGRESS = `INSERT INTO migrate_progress (table_name, last_key, copied, done) VALUES ($1, $2, $3, $4)
  ON CONFLICT (table_name) DO UPDATE SET last_key = excluded.last_key, copied = excluded.copied, done = excluded.done`;
const ANY_GROUP = `SELECT EXISTS (SELECT 1 FROM groups) AS any`;
const countSql = (table: GroupSideTable): string => `SELECT count(*)::integer AS n FROM ${table}`;
const UPDATE_TOTALS = `SELECT g.id AS group_id, g.update_seq::integer AS update_seq,
    count(u.seq)::integer AS rows, coalesce(max(u.seq), 0)::integer AS max_seq,
    coalesce(sum(octet_length(u.data)), 0)::bigint AS bytes
  FROM groups g LEFT JOIN group_updates u ON u.group_id = g.id GROUP BY g.id`;

export interface MigrateRun {
  source: string;
  startedAt: string;
  finishedAt: string | null;
}

export interface TableProgress {
  lastKey: string;
  copied: number;
  done: boolean;
}

export interface TargetUpdateTotals extends UpdateTotals {
  maxSeq: number;
  /** The group's row counter, which the next append continues from. */
  updateSeq: number;
}

/** A PostgreSQL database that `quire migrate` copies a SQLite file's group side into. */
export class PgGroupSideTarget {
  private constructor(private readonly pool: PgPool) {}

  /** Connects (a wrong address fails here, named) and brings the schema up to date. */
  static async open(url: string): Promise<PgGroupSideTarget> {
    const pool = await openPgPool(url);
    try {
      await migratePg(pool);
    } catch (err) {
      await pool.end().catch(() => {});
      throw err;
    }
    return new PgGroupSideTarget(pool);
  }

  async run(): Promise<MigrateRun | null> {
    const { rows } = await this.pool.query<{
      source: string;
      started_at: string;
      finished_at: string | null;
    }>(SELECT_RUN);
    const row = rows[0];
    return row ? { source: row.source, startedAt: row.started_at, finishedAt: row.finished_at } : null;
  }

  async progress(): Promise<Map<GroupSideTable, TableProgress>> {
    const { rows } = await this.pool.query<{
      table_name: GroupSideTable;
      last_key: string;
      copied: number;
      done: boolean;
    }>(SELECT_PROGRESS);
    return new Map(rows.map((r) => [r.table_name, { lastKey: r.last_key, copied: r.copied, done: r.done }]));
  }

  /** True when the database holds no group yet (nothing a copy could collide with). */
  async isEmpty(): Promise<boolean> {
    const { rows } = await this.pool.query<{ any: boolean }>(ANY_GROUP);
    return rows[0]?.any !== true;
  }

  async begin(source: string, at: string): Promise<void> {
    await this.pool.query(INSERT_RUN, [source, at]);
  }

  async finish(at: string): Promise<void> {
    await this.pool.query(FINISH_RUN, [at]);
  }

  /**
   * Writes one batch of `table` and where the copy then stands in one transaction: a kill leaves either
   * both or neither, so the next run continues exactly after the last batch that committed.
   */
  async writeBatch<T extends GroupSideTable>(
    table: T,
    rows: readonly GroupSideRows[T][],
    progress: TableProgress,
  ): Promise<void> {
    await inTransaction(this.pool, async (client) => {
      if (rows.length > 0) await insertRows(client, table, rows);
      await client.query(UPSERT_PROGRESS, [table, progress.lastKey, progress.copied, progress.done]);
    });
  }

  async count(table: GroupSideTable): Promise<number> {
    const { rows } = await this.pool.query<{ n: number }>(countSql(table));
    return rows[0]?.n ?? 0;
  }

  async updateTotals(): Promise<Map<string, TargetUpdateTotals>> {
    const { rows } = await this.pool.query<{
      group_id: string;
      update_seq: number;
      rows: number;
      max_seq: number;
      bytes: string;
    }>(UPDATE_TOTALS);
    return new Map(
      rows.map((r) => [
        r.group_id,
        { rows: r.rows, bytes: Number(r.bytes), maxSeq: r.max_seq, updateSeq: r.update_seq },
      ]),
    );
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}

function insertRows<T extends GroupSideTable>(
  client: PgClient,
  table: T,
  rows: readonly GroupSideRows[T][],
): Promise<unknown> {
  const column = <R, V>(list: readonly R[], pick: (row: R) => V): V[] => list.map(pick);
  switch (table) {
    case 'groups': {
      const r = rows as readonly GroupSideRows['groups'][];
      return client.query(INSERT_GROUPS, [
        column(r, (x) => x.id),
        column(r, (x) => x.name),
        column(r, (x) => x.created_at),
      ]);
    }
    case 'group_invites': {
      const r = rows as readonly GroupSideRows['group_invites'][];
      return client.query(INSERT_INVITES, [
        column(r, (x) => x.id),
        column(r, (x) => x.group_id),
        column(r, (x) => x.role),
        column(r, (x) => x.token_hash),
        column(r, (x) => x.created_at),
        column(r, (x) => x.revoked_at),
        column(r, (x) => x.invited_by),
      ]);
    }
    case 'calendar_feeds': {
      const r = rows as readonly GroupSideRows['calendar_feeds'][];
      return client.query(INSERT_FEEDS, [
        column(r, (x) => x.id),
        column(r, (x) => x.group_id),
        column(r, (x) => x.invite_id),
        column(r, (x) => x.token_hash),
        column(r, (x) => x.created_at),
        column(r, (x) => x.revoked_at),
      ]);
    }
    case 'group_updates':
      return insertUpdates(client, rows as readonly GroupSideRows['group_updates'][]);
    default:
      throw new QuireError('store-error', `quire migrate does not know the table ${String(table)}.`);
  }
}

async function insertUpdates(
  client: PgClient,
  rows: readonly GroupSideRows['group_updates'][],
): Promise<void> {
  const perGroup = new Map<string, number>();
  for (const row of rows) perGroup.set(row.group_id, (perGroup.get(row.group_id) ?? 0) + 1);
  // The number after which each group's rows of this batch go: its counter before the batch.
  const next = new Map<string, number>();
  for (const [groupId, n] of perGroup) {
    const { rows: bumped } = await client.query<{ update_seq: string }>(BUMP_SEQ, [groupId, n]);
    const head = bumped[0];
    if (!head) {
      throw new QuireError(
        'store-error',
        `An update of group ${groupId} has no group row in the target: the groups table was not copied first.`,
      );
    }
    next.set(groupId, Number(head.update_seq) - n);
  }
  const seqs = rows.map((row) => {
    const seq = (next.get(row.group_id) ?? 0) + 1;
    next.set(row.group_id, seq);
    return seq;
  });
  await client.query(INSERT_UPDATES, [rows.map((r) => r.group_id), seqs, rows.map((r) => r.data)]);
}
