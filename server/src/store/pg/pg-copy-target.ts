import { QuireError } from '../../errors.ts';
import {
  DERIVED_TABLES,
  type CopiedRows,
  type CopiedTable,
  type DerivedTable,
  type DerivedTotals,
  type UpdateTotals,
} from '../copy-rows.ts';
import { PAPER_COLUMN_LIST } from '../paper-queries.ts';
import { searchAuthors, searchText } from '../search-index-schema.ts';
import { openMigratedPool } from './pg-migrations.ts';
import { inTransaction, type PgClient, type PgPool } from './pg-pool.ts';
import { UPSERT_PAPER_TERMS } from './pg-search-schema.ts';

// Each batch is one multi-row INSERT over arrays (unnest), whatever its size: one round trip a batch.
// A paper's row goes in as SQLite stored it; its category rows are written from its categories beside it,
// as the paper store writes them.
const INSERT_PAPERS = `INSERT INTO papers (${PAPER_COLUMN_LIST.join(', ')})
  SELECT * FROM unnest(${PAPER_COLUMN_LIST.map((c, i) => `$${i + 1}::${c === 'listing_date_estimated' ? 'smallint' : 'text'}[]`).join(', ')})`;
const INSERT_PAPER_CATEGORIES = `INSERT INTO paper_categories (paper_id, category)
  SELECT p.id, c.category FROM unnest($1::text[], $2::text[]) AS p (id, categories),
    LATERAL jsonb_array_elements_text(p.categories::jsonb) AS c (category)
  ON CONFLICT DO NOTHING`;
const INSERT_CLOSURE = `INSERT INTO topic_closure (topic, broader) SELECT * FROM unnest($1::text[], $2::text[])`;
const INSERT_TOPIC_STATE = `INSERT INTO topic_state (topic, definition_hash, tagged_at)
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[])`;
const INSERT_TAGS = `INSERT INTO paper_tags (topic, paper_id, score, evidence)
  SELECT * FROM unnest($1::text[], $2::text[], $3::double precision[], $4::text[])`;
// Copied papers are marked to tag by PostgreSQL's insert trigger: the source's own marks replace those with
// the first batch of this table (in that batch's transaction, so a resumed copy never clears twice).
const CLEAR_PAPERS_TO_TAG = `DELETE FROM papers_to_tag`;
const INSERT_PAPERS_TO_TAG = `INSERT INTO papers_to_tag (paper_id) SELECT * FROM unnest($1::text[])
  ON CONFLICT DO NOTHING`;
const INSERT_CHECKPOINTS = `INSERT INTO harvest_checkpoints (key, value, updated_at)
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[])`;
// The log keeps its ids (OVERRIDING SYSTEM VALUE), and its id sequence then continues after them. A running
// row's host is unknown: NULL, so no node marks it interrupted by a pid of another machine.
const INSERT_INGEST_LOG = `INSERT INTO ingest_log (id, kind, source, started_at, finished_at, duration_ms,
    inserted, updated, unchanged, skipped, errors, status, pid, run_token) OVERRIDING SYSTEM VALUE
  SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::integer[],
    $7::integer[], $8::integer[], $9::integer[], $10::integer[], $11::text[], $12::text[], $13::integer[],
    $14::text[])`;
const CONTINUE_INGEST_IDS = `SELECT setval(pg_get_serial_sequence('ingest_log', 'id'),
  coalesce((SELECT max(id) FROM ingest_log), 0) + 1, false)`;
const DERIVED_SQL: Record<DerivedTable, string> = {
  paper_categories: `SELECT count(*)::integer AS rows, count(*)::integer AS sum FROM paper_categories`,
  paper_topics: `SELECT count(*)::integer AS rows, count(*)::integer AS sum FROM paper_topics`,
  day_counts: `SELECT count(*)::integer AS rows, coalesce(sum(n), 0)::integer AS sum FROM day_counts`,
  topic_day_counts: `SELECT count(*)::integer AS rows, coalesce(sum(n), 0)::integer AS sum FROM topic_day_counts`,
  search_words: `SELECT count(*)::integer AS rows, coalesce(sum(papers), 0)::integer AS sum FROM search_words`,
};
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
const ANY_ROW = `SELECT EXISTS (SELECT 1 FROM groups) OR EXISTS (SELECT 1 FROM papers) AS any`;
const countSql = (table: CopiedTable): string => `SELECT count(*)::integer AS n FROM ${table}`;
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
export class PgCopyTarget {
  private constructor(private readonly pool: PgPool) {}

  /** Connects (a wrong address fails here, named) and brings the schema up to date. */
  static async open(url: string): Promise<PgCopyTarget> {
    return new PgCopyTarget(await openMigratedPool(url));
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

  async progress(): Promise<Map<CopiedTable, TableProgress>> {
    const { rows } = await this.pool.query<{
      table_name: CopiedTable;
      last_key: string;
      copied: number;
      done: boolean;
    }>(SELECT_PROGRESS);
    return new Map(rows.map((r) => [r.table_name, { lastKey: r.last_key, copied: r.copied, done: r.done }]));
  }

  /** True when the database holds no group and no paper yet (nothing a copy could collide with). */
  async isEmpty(): Promise<boolean> {
    const { rows } = await this.pool.query<{ any: boolean }>(ANY_ROW);
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
  async writeBatch<T extends CopiedTable>(
    table: T,
    rows: readonly CopiedRows[T][],
    progress: TableProgress,
  ): Promise<void> {
    await inTransaction(this.pool, async (client) => {
      if (table === 'papers_to_tag' && progress.copied === rows.length)
        await client.query(CLEAR_PAPERS_TO_TAG);
      if (rows.length > 0) await insertRows(client, table, rows);
      if (table === 'ingest_log' && progress.done) await client.query(CONTINUE_INGEST_IDS);
      await client.query(UPSERT_PROGRESS, [table, progress.lastKey, progress.copied, progress.done]);
    });
  }

  async count(table: CopiedTable): Promise<number> {
    const { rows } = await this.pool.query<{ n: number }>(countSql(table));
    return rows[0]?.n ?? 0;
  }

  /** What PostgreSQL derived from the copied rows (see DERIVED_TABLES). */
  async derivedTotals(): Promise<Map<DerivedTable, DerivedTotals>> {
    const totals = new Map<DerivedTable, DerivedTotals>();
    for (const table of DERIVED_TABLES) {
      const { rows } = await this.pool.query<DerivedTotals>(DERIVED_SQL[table]);
      totals.set(table, rows[0] ?? { rows: 0, sum: 0 });
    }
    return totals;
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

async function insertRows<T extends CopiedTable>(
  client: PgClient,
  table: T,
  rows: readonly CopiedRows[T][],
): Promise<unknown> {
  const column = <R, V>(list: readonly R[], pick: (row: R) => V): V[] => list.map(pick);
  switch (table) {
    case 'papers': {
      const r = rows as readonly CopiedRows['papers'][];
      await client.query(
        INSERT_PAPERS,
        PAPER_COLUMN_LIST.map((c) => column(r, (x) => x[c])),
      );
      await client.query(INSERT_PAPER_CATEGORIES, [column(r, (x) => x.id), column(r, (x) => x.categories)]);
      return client.query(UPSERT_PAPER_TERMS, [
        column(r, (x) => x.id),
        column(r, (x) => searchText(x.title)),
        column(r, (x) => searchAuthors(x.authors)),
        column(r, (x) => searchText(x.abstract)),
      ]);
    }
    case 'topic_closure': {
      const r = rows as readonly CopiedRows['topic_closure'][];
      return client.query(INSERT_CLOSURE, [column(r, (x) => x.topic), column(r, (x) => x.broader)]);
    }
    case 'topic_state': {
      const r = rows as readonly CopiedRows['topic_state'][];
      return client.query(INSERT_TOPIC_STATE, [
        column(r, (x) => x.topic),
        column(r, (x) => x.definition_hash),
        column(r, (x) => x.tagged_at),
      ]);
    }
    case 'paper_tags': {
      const r = rows as readonly CopiedRows['paper_tags'][];
      return client.query(INSERT_TAGS, [
        column(r, (x) => x.topic),
        column(r, (x) => x.paper_id),
        column(r, (x) => x.score),
        column(r, (x) => x.evidence),
      ]);
    }
    case 'papers_to_tag': {
      const r = rows as readonly CopiedRows['papers_to_tag'][];
      return client.query(INSERT_PAPERS_TO_TAG, [column(r, (x) => x.paper_id)]);
    }
    case 'harvest_checkpoints': {
      const r = rows as readonly CopiedRows['harvest_checkpoints'][];
      return client.query(INSERT_CHECKPOINTS, [
        column(r, (x) => x.key),
        column(r, (x) => x.value),
        column(r, (x) => x.updated_at),
      ]);
    }
    case 'ingest_log': {
      const r = rows as readonly CopiedRows['ingest_log'][];
      const names = [
        'id',
        'kind',
        'source',
        'started_at',
        'finished_at',
        'duration_ms',
        'inserted',
        'updated',
        'unchanged',
        'skipped',
        'errors',
        'status',
        'pid',
        'run_token',
      ] as const;
      return client.query(
        INSERT_INGEST_LOG,
        names.map((n) => column(r, (x) => x[n])),
      );
    }
    case 'groups': {
      const r = rows as readonly CopiedRows['groups'][];
      return client.query(INSERT_GROUPS, [
        column(r, (x) => x.id),
        column(r, (x) => x.name),
        column(r, (x) => x.created_at),
      ]);
    }
    case 'group_invites': {
      const r = rows as readonly CopiedRows['group_invites'][];
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
      const r = rows as readonly CopiedRows['calendar_feeds'][];
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
      return insertUpdates(client, rows as readonly CopiedRows['group_updates'][]);
    default:
      throw new QuireError('store-error', `quire migrate does not know the table ${String(table)}.`);
  }
}

async function insertUpdates(client: PgClient, rows: readonly CopiedRows['group_updates'][]): Promise<void> {
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
