import type { Database, Statement } from 'better-sqlite3';
import { QuireError } from '../errors.ts';
import {
  COPIED_TABLES,
  DERIVED_TABLES,
  type CopiedRows,
  type CopiedTable,
  type DerivedTable,
  type DerivedTotals,
  type UpdateTotals,
} from './copy-rows.ts';
import { MIGRATIONS, schemaVersion } from './migrations.ts';
import { openReadOnlyDatabase } from './open-database.ts';
import { PAPER_COLUMN_LIST } from './paper-queries.ts';

// Keyset pages in key order: each page starts after the last key the previous one copied, so a resumed
// copy reads on from its recorded key and never rereads what it wrote. Composite keys compare as row values.
const PAGE_SQL: Record<CopiedTable, string> = {
  papers: `SELECT ${PAPER_COLUMN_LIST.join(', ')} FROM papers WHERE id > ? ORDER BY id LIMIT ?`,
  topic_closure: `SELECT topic, broader FROM topic_closure WHERE (topic, broader) > (?, ?)
    ORDER BY topic, broader LIMIT ?`,
  topic_state: `SELECT topic, definition_hash, tagged_at FROM topic_state WHERE topic > ? ORDER BY topic LIMIT ?`,
  paper_tags: `SELECT topic, paper_id, score, evidence FROM paper_tags WHERE (topic, paper_id) > (?, ?)
    ORDER BY topic, paper_id LIMIT ?`,
  papers_to_tag: `SELECT paper_id FROM papers_to_tag WHERE paper_id > ? ORDER BY paper_id LIMIT ?`,
  harvest_checkpoints: `SELECT key, value, updated_at FROM harvest_checkpoints WHERE key > ? ORDER BY key LIMIT ?`,
  ingest_log: `SELECT id, kind, source, started_at, finished_at, duration_ms, inserted, updated, unchanged,
    skipped, errors, status, pid, run_token FROM ingest_log WHERE id > ? ORDER BY id LIMIT ?`,
  groups: `SELECT id, name, created_at FROM groups WHERE id > ? ORDER BY id LIMIT ?`,
  group_invites: `SELECT id, group_id, role, token_hash, created_at, revoked_at, invited_by FROM group_invites
    WHERE id > ? ORDER BY id LIMIT ?`,
  calendar_feeds: `SELECT id, group_id, invite_id, token_hash, created_at, revoked_at FROM calendar_feeds
    WHERE id > ? ORDER BY id LIMIT ?`,
  group_updates: `SELECT id, group_id, data FROM group_updates WHERE id > ? ORDER BY id LIMIT ?`,
};
const NUMBERED: ReadonlySet<CopiedTable> = new Set(['group_updates', 'ingest_log']);
const COMPOSITE: ReadonlySet<CopiedTable> = new Set(['topic_closure', 'paper_tags']);
const DERIVED_SQL: Record<DerivedTable, string> = {
  paper_categories: `SELECT count(*) AS rows, count(*) AS sum FROM paper_categories`,
  paper_topics: `SELECT count(*) AS rows, count(*) AS sum FROM paper_topics`,
  day_counts: `SELECT count(*) AS rows, coalesce(sum(n), 0) AS sum FROM day_counts`,
  topic_day_counts: `SELECT count(*) AS rows, coalesce(sum(n), 0) AS sum FROM topic_day_counts`,
  search_words: `SELECT count(*) AS rows, coalesce(sum(doc), 0) AS sum FROM paper_search_vocab`,
};
/** A page's update bytes at most (past its first row), so a batch's memory stays bounded. */
const PAGE_BYTES = 16 * 1024 * 1024;
const countSql = (table: string): string => `SELECT count(*) FROM ${table}`;
const UPDATE_TOTALS = `SELECT group_id, count(*) AS rows, coalesce(sum(length(data)), 0) AS bytes
  FROM group_updates GROUP BY group_id`;

/** A SQLite installation, read for `quire migrate` over a read-only connection of its own. */
export class CopySource {
  readonly #db: Database;
  readonly #pages = new Map<CopiedTable, Statement<unknown[]>>();

  private constructor(db: Database) {
    this.#db = db;
    for (const table of COPIED_TABLES) this.#pages.set(table, db.prepare(PAGE_SQL[table]));
  }

  /** Opens `path` to read; its schema must be this Quire's, so every column copied exists. */
  static open(path: string): CopySource {
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
    return new CopySource(db);
  }

  count(table: CopiedTable): number {
    return this.#countOf(table);
  }

  #countOf(table: string): number {
    return this.#db.prepare<[], number>(countSql(table)).pluck().get() ?? 0;
  }

  /**
   * Up to `limit` rows of `table` after the row whose key is `after` ('': from the first), fewer once they
   * hold PAGE_BYTES: an offline client's whole state can be one update of several MiB. Empty at the end.
   */
  page<T extends CopiedTable>(table: T, after: string, limit: number): CopiedRows[T][] {
    const statement = this.#pages.get(table);
    if (!statement) throw new Error(`no page statement for ${table}`);
    // The key before every row: '' sorts before any text key, 0 before any row id (they start at 1).
    const from: unknown[] = COMPOSITE.has(table)
      ? after === ''
        ? ['', '']
        : after.split('\t')
      : [NUMBERED.has(table) ? Number(after || 0) : after];
    const rows: CopiedRows[T][] = [];
    let bytes = 0;
    for (const row of statement.iterate(...from, limit) as IterableIterator<CopiedRows[T]>) {
      rows.push(row);
      if ('data' in row) bytes += row.data.length;
      if (bytes >= PAGE_BYTES) break;
    }
    return rows;
  }

  /** What PostgreSQL derives itself from the copied rows, as this file holds it (see DERIVED_TABLES). */
  derivedTotals(): Map<DerivedTable, DerivedTotals> {
    return new Map(
      DERIVED_TABLES.map((t) => [
        t,
        this.#db.prepare<[], DerivedTotals>(DERIVED_SQL[t]).get() ?? { rows: 0, sum: 0 },
      ]),
    );
  }

  /** Each group's update rows and their bytes. */
  updateTotals(): Map<string, UpdateTotals> {
    const rows = this.#db.prepare<[], { group_id: string; rows: number; bytes: number }>(UPDATE_TOTALS).all();
    return new Map(rows.map((r) => [r.group_id, { rows: r.rows, bytes: r.bytes }]));
  }

  close(): void {
    this.#db.close();
  }
}
