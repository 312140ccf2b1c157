import type { Database, Statement } from 'better-sqlite3';
import { QuireError } from '../errors.ts';
import {
  GROUP_SIDE_TABLES,
  NOT_COPIED_YET,
  type GroupSideRows,
  type GroupSideTable,
  type UpdateTotals,
} from './group-side-rows.ts';
import { MIGRATIONS, schemaVersion } from './migrations.ts';
import { openReadOnlyDatabase } from './open-database.ts';

// Keyset pages in row-id order: each page starts after the last id the previous one copied, so a resumed
// copy reads on from its recorded key and never rereads what it wrote.
const PAGE_SQL: Record<GroupSideTable, string> = {
  groups: `SELECT id, name, created_at FROM groups WHERE id > ? ORDER BY id LIMIT ?`,
  group_invites: `SELECT id, group_id, role, token_hash, created_at, revoked_at, invited_by FROM group_invites
    WHERE id > ? ORDER BY id LIMIT ?`,
  calendar_feeds: `SELECT id, group_id, invite_id, token_hash, created_at, revoked_at FROM calendar_feeds
    WHERE id > ? ORDER BY id LIMIT ?`,
  group_updates: `SELECT id, group_id, data FROM group_updates WHERE id > ? ORDER BY id LIMIT ?`,
};
// The key before every row: '' sorts before any text id, 0 before any row id (they start at 1).
const FIRST_KEY: Record<GroupSideTable, string | number> = {
  groups: '',
  group_invites: '',
  calendar_feeds: '',
  group_updates: 0,
};
/** A page's update bytes at most (past its first row), so a batch's memory stays bounded. */
const PAGE_BYTES = 16 * 1024 * 1024;
const countSql = (table: string): string => `SELECT count(*) FROM ${table}`;
const UPDATE_TOTALS = `SELECT group_id, count(*) AS rows, coalesce(sum(length(data)), 0) AS bytes
  FROM group_updates GROUP BY group_id`;
const TABLE_EXISTS = `SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`;

/** The group side of a SQLite file, read for `quire migrate` over a read-only connection of its own. */
export class GroupSideSource {
  readonly #db: Database;
  readonly #pages = new Map<GroupSideTable, Statement<[string | number, number]>>();

  private constructor(db: Database) {
    this.#db = db;
    for (const table of GROUP_SIDE_TABLES) this.#pages.set(table, db.prepare(PAGE_SQL[table]));
  }

  /** Opens `path` to read; its schema must be this Quire's, so every column copied exists. */
  static open(path: string): GroupSideSource {
    const db = openReadOnlyDatabase(path);
    const version = schemaVersion(db);
    if (version !== MIGRATIONS.length) {
      db.close();
      throw new QuireError(
        'bad-input',
        version < MIGRATIONS.length
          ? `The SQLite database ${path} has schema version ${version}, older than this Quire's (${MIGRATIONS.length}): open it once with this Quire (pnpm quire stats --db ${path}) to bring it up to date, then migrate again.`
          : `The SQLite database ${path} has schema version ${version}, newer than this Quire knows (${MIGRATIONS.length}): migrate with the Quire that wrote it.`,
      );
    }
    return new GroupSideSource(db);
  }

  count(table: GroupSideTable): number {
    return this.#countOf(table);
  }

  #countOf(table: string): number {
    return this.#db.prepare<[], number>(countSql(table)).pluck().get() ?? 0;
  }

  /**
   * Up to `limit` rows of `table` after the row whose key is `after` ('': from the first), fewer once they
   * hold PAGE_BYTES: an offline client's whole state can be one update of several MiB. Empty at the end.
   */
  page<T extends GroupSideTable>(table: T, after: string, limit: number): GroupSideRows[T][] {
    const statement = this.#pages.get(table);
    if (!statement) throw new Error(`no page statement for ${table}`);
    const from = after === '' ? FIRST_KEY[table] : table === 'group_updates' ? Number(after) : after;
    const rows: GroupSideRows[T][] = [];
    let bytes = 0;
    for (const row of statement.iterate(from, limit) as IterableIterator<GroupSideRows[T]>) {
      rows.push(row);
      if ('data' in row) bytes += row.data.length;
      if (bytes >= PAGE_BYTES) break;
    }
    return rows;
  }

  /** Each group's update rows and their bytes. */
  updateTotals(): Map<string, UpdateTotals> {
    const rows = this.#db.prepare<[], { group_id: string; rows: number; bytes: number }>(UPDATE_TOTALS).all();
    return new Map(rows.map((r) => [r.group_id, { rows: r.rows, bytes: r.bytes }]));
  }

  /** Rows in the tables that are not copied yet (papers and what hangs off them). */
  notCopiedCounts(): { table: string; rows: number }[] {
    return NOT_COPIED_YET.tables
      .filter((table) => this.#db.prepare(TABLE_EXISTS).get(table) !== undefined)
      .map((table) => ({ table, rows: this.#countOf(table) }));
  }

  close(): void {
    this.#db.close();
  }
}
