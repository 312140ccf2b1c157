import type { Database, Statement } from 'better-sqlite3';
import { settled } from './settled.ts';

/*
 * Durability: every update is one autocommitted INSERT. The database runs in WAL mode with
 * synchronous=NORMAL (open-database.ts), so a commit has been written to the WAL file (in the OS page
 * cache) before `append` resolves. That survives the process dying in any way, `kill -9` included; only a
 * power loss or OS crash can drop the last commits (NORMAL skips the fsync per commit, which is what keeps
 * an append at tens of microseconds). The caller awaits the append before it applies or broadcasts an
 * update, so a peer can only ever have seen updates that are already in this log.
 */

const SELECT_UPDATES = `SELECT id, data FROM group_updates WHERE group_id = ? ORDER BY id`;
const INSERT_UPDATE = `INSERT INTO group_updates (group_id, data) VALUES (?, ?)`;
const DELETE_THROUGH = `DELETE FROM group_updates WHERE group_id = ? AND id <= ?`;
const COUNT_UPDATES = `SELECT count(*) FROM group_updates WHERE group_id = ?`;

export interface StoredUpdate {
  id: number;
  data: Uint8Array;
}

/**
 * The per-group log of Yjs updates: the only place a group document is stored. Asynchronous because a
 * network engine (PostgreSQL) answers later; the SQLite one has committed by the time it returns.
 */
export interface UpdateLog {
  /** Every stored row of the group, oldest first. */
  load(groupId: string): Promise<StoredUpdate[]>;
  /** Commits one update; resolves with its row id once it is durable. */
  append(groupId: string, update: Uint8Array): Promise<number>;
  count(groupId: string): Promise<number>;
  /**
   * Replaces the group's rows up to and including `throughId` with `merged`, atomically: a crash leaves
   * either the old rows or the merged one, never neither. Rows appended after `throughId` stay.
   */
  replaceThrough(groupId: string, throughId: number, merged: Uint8Array): Promise<void>;
}

export class SqliteUpdateLog implements UpdateLog {
  readonly #selectUpdates: Statement<[string], { id: number; data: Buffer }>;
  readonly #insertUpdate: Statement<[string, Uint8Array]>;
  readonly #deleteThrough: Statement<[string, number]>;
  readonly #countUpdates: Statement<[string], number>;
  readonly #replace: (groupId: string, throughId: number, merged: Uint8Array) => void;

  constructor(db: Database) {
    this.#selectUpdates = db.prepare(SELECT_UPDATES);
    this.#insertUpdate = db.prepare(INSERT_UPDATE);
    this.#deleteThrough = db.prepare(DELETE_THROUGH);
    this.#countUpdates = db.prepare<[string], number>(COUNT_UPDATES).pluck();
    this.#replace = db.transaction((groupId: string, throughId: number, merged: Uint8Array) => {
      this.#deleteThrough.run(groupId, throughId);
      this.#insertUpdate.run(groupId, merged);
    });
  }

  load(groupId: string): Promise<StoredUpdate[]> {
    return settled(() => this.#selectUpdates.all(groupId));
  }

  append(groupId: string, update: Uint8Array): Promise<number> {
    return settled(() => Number(this.#insertUpdate.run(groupId, update).lastInsertRowid));
  }

  count(groupId: string): Promise<number> {
    return settled(() => this.#countUpdates.get(groupId) ?? 0);
  }

  replaceThrough(groupId: string, throughId: number, merged: Uint8Array): Promise<void> {
    return settled(() => this.#replace(groupId, throughId, merged));
  }
}
