import type { Database, Statement } from 'better-sqlite3';

/*
 * Durability: every update is one autocommitted INSERT. The database runs in WAL mode with
 * synchronous=NORMAL (open-database.ts), so a commit has been written to the WAL file (in the OS page
 * cache) before `append` returns. That survives the process dying in any way, `kill -9` included; only a
 * power loss or OS crash can drop the last commits (NORMAL skips the fsync per commit, which is what keeps
 * an append at tens of microseconds). The caller appends before it applies or broadcasts an update, so a
 * peer can only ever have seen updates that are already in this log.
 */

const SELECT_UPDATES = `SELECT id, data FROM group_updates WHERE group_id = ? ORDER BY id`;
const INSERT_UPDATE = `INSERT INTO group_updates (group_id, data) VALUES (?, ?)`;
const SELECT_LAST_ID = `SELECT max(id) FROM group_updates WHERE group_id = ?`;
const DELETE_UP_TO = `DELETE FROM group_updates WHERE group_id = ? AND id <= ?`;
const COUNT_UPDATES = `SELECT count(*) FROM group_updates WHERE group_id = ?`;

export interface StoredUpdate {
  id: number;
  data: Uint8Array;
}

/** The per-group log of Yjs updates: the only place a group document is stored. */
export class UpdateLog {
  private readonly selectUpdates: Statement<[string], { id: number; data: Buffer }>;
  private readonly insertUpdate: Statement<[string, Uint8Array]>;
  private readonly selectLastId: Statement<[string], number | null>;
  private readonly deleteUpTo: Statement<[string, number]>;
  private readonly countUpdates: Statement<[string], number>;

  constructor(private readonly db: Database) {
    this.selectUpdates = db.prepare(SELECT_UPDATES);
    this.insertUpdate = db.prepare(INSERT_UPDATE);
    this.selectLastId = db.prepare<[string], number | null>(SELECT_LAST_ID).pluck();
    this.deleteUpTo = db.prepare(DELETE_UP_TO);
    this.countUpdates = db.prepare<[string], number>(COUNT_UPDATES).pluck();
  }

  load(groupId: string): StoredUpdate[] {
    return this.selectUpdates.all(groupId);
  }

  append(groupId: string, update: Uint8Array): void {
    this.insertUpdate.run(groupId, update);
  }

  count(groupId: string): number {
    return this.countUpdates.get(groupId) ?? 0;
  }

  /**
   * Replaces every row of the group up to the newest with `merged`, in one transaction: a crash leaves
   * either the old rows or the merged one, never neither. The caller builds `merged` in the same tick,
   * so no append can fall between reading the newest id and deleting.
   */
  replaceAll(groupId: string, merged: Uint8Array): void {
    this.db.transaction(() => {
      const lastId = this.selectLastId.get(groupId);
      if (lastId === null || lastId === undefined) return;
      this.deleteUpTo.run(groupId, lastId);
      this.insertUpdate.run(groupId, merged);
    })();
  }
}
