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
/*
 * Several groups' appends in one statement (see AppendBatcher). Their group rows are locked in id order
 * first, so two nodes' statements over overlapping groups wait for each other instead of deadlocking;
 * each group row is then bumped once and its update written under the new number. A group not found
 * returns no row.
 */
const APPEND_UPDATES = `
  WITH locked AS (
    SELECT id FROM groups WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE
  ), head AS (
    UPDATE groups SET update_seq = update_seq + 1 FROM locked WHERE groups.id = locked.id
    RETURNING groups.id, groups.update_seq
  )
  INSERT INTO group_updates (group_id, seq, data)
  SELECT head.id, head.update_seq, input.data
  FROM head JOIN unnest($1::text[], $2::bytea[]) AS input (group_id, data) ON input.group_id = head.id
  RETURNING group_id, seq`;
/** Statements of batched appends one node keeps out at once (each on a connection of its own). */
const APPENDS_IN_FLIGHT = 2;
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
  private readonly appends: AppendBatcher;

  constructor(private readonly pool: PgPool) {
    this.appends = new AppendBatcher(pool);
  }

  async load(groupId: string): Promise<StoredUpdate[]> {
    const { rows } = await this.pool.query<UpdateRow>(SELECT_UPDATES, [groupId]);
    return rows.map((r) => ({ id: Number(r.seq), data: r.data }));
  }

  append(groupId: string, update: Uint8Array): Promise<number> {
    return this.appends.append(groupId, update);
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

interface QueuedAppend {
  groupId: string;
  update: Buffer;
  resolve(seq: number): void;
  reject(err: unknown): void;
}

/**
 * A node's appends, several groups' in one statement: with APPENDS_IN_FLIGHT statements out, the appends
 * that arrive meanwhile wait for one of them and then go together, one round trip, one commit and one
 * statement for PostgreSQL to plan for all of them. Alone, an append goes at once, as before. The 3-node
 * sync bench's profile spent a fifth of each node's CPU in pg's client and its socket writes at one
 * statement per group per append. Each append still resolves only once its row is committed. A group's
 * append waits while one of its own is out, so its rows are numbered in the order they were appended.
 */
class AppendBatcher {
  private queue: QueuedAppend[] = [];
  private inFlight = 0;
  /** Groups with an append in a statement that is out: their next one waits for it. */
  private readonly groupsOut = new Set<string>();

  constructor(private readonly pool: PgPool) {}

  append(groupId: string, update: Uint8Array): Promise<number> {
    return new Promise((resolve, reject) => {
      this.queue.push({ groupId, update: bytea(update), resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.inFlight < APPENDS_IN_FLIGHT && this.queue.length > 0) {
      const batch: QueuedAppend[] = [];
      const later: QueuedAppend[] = [];
      for (const item of this.queue) {
        if (this.groupsOut.has(item.groupId)) later.push(item);
        else {
          this.groupsOut.add(item.groupId);
          batch.push(item);
        }
      }
      this.queue = later;
      if (batch.length === 0) return;
      this.inFlight++;
      void this.send(batch).finally(() => {
        this.inFlight--;
        for (const item of batch) this.groupsOut.delete(item.groupId);
        this.pump();
      });
    }
  }

  private async send(batch: readonly QueuedAppend[]): Promise<void> {
    try {
      const seqs = await appendBatchOn(this.pool, batch);
      for (const item of batch) {
        const seq = seqs.get(item.groupId);
        if (seq === undefined) item.reject(noGroup(item.groupId));
        else item.resolve(seq);
      }
    } catch (err) {
      for (const item of batch) item.reject(err);
    }
  }
}

async function appendBatchOn(db: PgPool, batch: readonly QueuedAppend[]): Promise<Map<string, number>> {
  const seqs = new Map<string, number>();
  if (batch.length === 1) {
    // The single-row statement: nothing to sort or unnest.
    const only = batch[0]!;
    const { rows } = await db.query<{ seq: string }>(APPEND_UPDATE, [only.groupId, only.update]);
    const seq = rows[0]?.seq;
    if (seq !== undefined) seqs.set(only.groupId, Number(seq));
    return seqs;
  }
  const { rows } = await db.query<{ group_id: string; seq: string }>(APPEND_UPDATES, [
    batch.map((item) => item.groupId),
    batch.map((item) => item.update),
  ]);
  for (const row of rows) seqs.set(row.group_id, Number(row.seq));
  return seqs;
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
