import * as Y from 'yjs';
import { QuireError } from '../../errors.ts';
import type { StoredUpdate, UpdateLog } from '../update-log-store.ts';
import { bytea, inTransaction, type PgClient, type PgPool } from './pg-pool.ts';

/*
 * Durability: an append is one autocommitted statement, and PostgreSQL (synchronous_commit on, its
 * default) answers only once the commit is flushed to its WAL, so `append` resolves after the update is
 * durable; the sync server applies and broadcasts it only then.
 *
 * Several nodes: an append bumps the group row's update_seq and writes the row under that number in one
 * statement, holding the group row's lock until it commits, so a group's rows commit in number order.
 * Compaction first takes an advisory try-lock on the group (a node finding it held skips), so no two
 * nodes compact one group at once. A node's document holds only the rows it loaded and its own appends,
 * not another node's appends since, so compaction does not trust the merged state it is handed alone: it
 * merges every row it deletes into it, and nothing is lost whichever node compacts. It reads and merges
 * those rows before it touches the group row: they are committed and, under the advisory lock, nobody
 * else deletes them, while appends only add rows after them. The group row's lock is taken only by the
 * merged row's own append, at the end, so the group's appends from every node wait for one insert and
 * a commit, not for the read of up to a compaction's worth of rows and their merge in this process.
 */

const APPEND_UPDATE = `
  WITH head AS (UPDATE groups SET update_seq = update_seq + 1 WHERE id = $1 RETURNING update_seq)
  INSERT INTO group_updates (group_id, seq, data) SELECT $1, update_seq, $2 FROM head
  RETURNING seq`;
const SELECT_UPDATES = `SELECT seq, data FROM group_updates WHERE group_id = $1 ORDER BY seq`;
const SELECT_UPDATES_THROUGH = `
  SELECT seq, data FROM group_updates WHERE group_id = $1 AND seq <= $2 ORDER BY seq`;
const COUNT_UPDATES = `SELECT count(*)::integer AS n FROM group_updates WHERE group_id = $1`;
const DELETE_THROUGH = `DELETE FROM group_updates WHERE group_id = $1 AND seq <= $2`;
const SELECT_UPDATES_AFTER = `
  SELECT seq, data FROM group_updates WHERE group_id = $1 AND seq > $2 ORDER BY seq`;
const SELECT_HEADS = `SELECT id, update_seq FROM groups WHERE id = ANY($1::text[])`;
// Taken before the row lock and given up at once when held: a node finding another compacting the group
// skips its own compaction instead of waiting to redo the same work (the rows it would merge are being
// merged). Released with the transaction.
const TRY_LOCK_COMPACTION = `
  SELECT pg_try_advisory_xact_lock(hashtextextended('quire:compact:' || $1, 0)) AS locked`;

interface UpdateRow {
  seq: string; // bigint, which pg hands over as text
  data: Buffer;
}

function noGroup(groupId: string): QuireError {
  return new QuireError(
    'not-found',
    `There is no group ${groupId} in the PostgreSQL database to store an update for; it may have been deleted.`,
  );
}

/** What nodes sharing one log need beyond the single-node contract (sync across nodes, issue 13). */
export interface SharedUpdateLog extends UpdateLog {
  /** The group's rows numbered after `seq`, oldest first: every change committed after it. */
  after(groupId: string, seq: number): Promise<StoredUpdate[]>;
  /** The newest row number of each group (0 before its first update); groups not found are left out. */
  heads(groupIds: readonly string[]): Promise<Map<string, number>>;
  /**
   * `replaceThrough` that says what happened: the number of the merged row, or null when another node
   * was compacting the group at that moment (nothing was changed).
   */
  compactThrough(groupId: string, throughId: number, merged: Uint8Array): Promise<number | null>;
}

/** The per-group log of Yjs updates on PostgreSQL (same contract as SqliteUpdateLog). */
export class PgUpdateLog implements SharedUpdateLog {
  constructor(private readonly pool: PgPool) {}

  async load(groupId: string): Promise<StoredUpdate[]> {
    const { rows } = await this.pool.query<UpdateRow>(SELECT_UPDATES, [groupId]);
    return rows.map((r) => ({ id: Number(r.seq), data: r.data }));
  }

  async append(groupId: string, update: Uint8Array): Promise<number> {
    return appendOn(this.pool, groupId, update);
  }

  async count(groupId: string): Promise<number> {
    const { rows } = await this.pool.query<{ n: number }>(COUNT_UPDATES, [groupId]);
    return rows[0]?.n ?? 0;
  }

  async replaceThrough(groupId: string, throughId: number, merged: Uint8Array): Promise<void> {
    await this.compactThrough(groupId, throughId, merged);
  }

  compactThrough(groupId: string, throughId: number, merged: Uint8Array): Promise<number | null> {
    return inTransaction(this.pool, async (client) => {
      const lock = await client.query<{ locked: boolean }>(TRY_LOCK_COMPACTION, [groupId]);
      if (!lock.rows[0]?.locked) return null;
      const { rows } = await client.query<UpdateRow>(SELECT_UPDATES_THROUGH, [groupId, throughId]);
      const whole = mergeInto(merged, rows);
      await client.query(DELETE_THROUGH, [groupId, throughId]);
      return appendOn(client, groupId, whole);
    });
  }

  async after(groupId: string, seq: number): Promise<StoredUpdate[]> {
    const { rows } = await this.pool.query<UpdateRow>(SELECT_UPDATES_AFTER, [groupId, seq]);
    return rows.map((r) => ({ id: Number(r.seq), data: r.data }));
  }

  async heads(groupIds: readonly string[]): Promise<Map<string, number>> {
    const heads = new Map<string, number>();
    if (groupIds.length === 0) return heads;
    const { rows } = await this.pool.query<{ id: string; update_seq: string }>(SELECT_HEADS, [groupIds]);
    for (const r of rows) heads.set(r.id, Number(r.update_seq));
    return heads;
  }
}

async function appendOn(db: PgPool | PgClient, groupId: string, update: Uint8Array): Promise<number> {
  const { rows } = await db.query<{ seq: string }>(APPEND_UPDATE, [groupId, bytea(update)]);
  const seq = rows[0]?.seq;
  if (seq === undefined) throw noGroup(groupId);
  return Number(seq);
}

/**
 * `merged` with every stored row applied on top: a row the caller's document already holds changes
 * nothing, one another node appended is kept. A row Yjs cannot apply is left out, as loading skips it.
 */
function mergeInto(merged: Uint8Array, rows: readonly UpdateRow[]): Uint8Array {
  const doc = new Y.Doc({ gc: true });
  try {
    Y.applyUpdate(doc, merged);
    for (const row of rows) {
      try {
        Y.applyUpdate(doc, row.data);
      } catch {
        // Skipped as GroupDoc's load skips it (and logs it there); compaction must not keep a group stuck.
      }
    }
    return Y.encodeStateAsUpdate(doc);
  } finally {
    doc.destroy();
  }
}
