import { hostname } from 'node:os';
import { QuireError } from '../../errors.ts';
import {
  THIS_PROCESS,
  goneRuns,
  interruptedErrors,
  processIsAlive,
  rowToRecord,
  type IngestKind,
  type IngestLogEntry,
  type IngestRecord,
  type IngestRow,
  type RunningRow,
} from '../harvest-state.ts';
import type { PgClient, PgPool } from './pg-pool.ts';

/*
 * Harvest checkpoints and the ingest log on PostgreSQL: SQLite's tables (harvest-state.ts) with one more
 * column, the host of a running row's process. Several nodes share the log, and a pid means something only
 * on its own machine, so a node judges (and marks interrupted) only the running rows of its own host.
 */
export const CREATE_HARVEST_STATE = `
CREATE TABLE harvest_checkpoints (
  key        text COLLATE "C" PRIMARY KEY,  -- e.g. "oai:cs:arXiv"
  value      text NOT NULL,                 -- JSON chosen by the harvester
  updated_at text NOT NULL
);

CREATE TABLE ingest_log (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  kind        text NOT NULL CHECK (kind IN ('import', 'harvest', 'fetch')),
  source      text NOT NULL,
  started_at  text NOT NULL,
  finished_at text,
  duration_ms integer,
  inserted    integer NOT NULL DEFAULT 0,
  updated     integer NOT NULL DEFAULT 0,
  unchanged   integer NOT NULL DEFAULT 0,
  skipped     integer NOT NULL DEFAULT 0,
  errors      text NOT NULL DEFAULT '[]',  -- JSON: IngestErrorNote[]
  status      text NOT NULL CHECK (status IN ('ok', 'failed', 'running', 'interrupted')),
  host        text,     -- the machine of a 'running' row's process
  pid         integer,  -- that process
  run_token   text      -- tells that process from a later one given the same pid
);
CREATE INDEX ingest_log_kind_finished ON ingest_log (kind, finished_at);
CREATE INDEX ingest_log_running ON ingest_log (id) WHERE status = 'running';
`;

const SELECT_CHECKPOINT = `SELECT value FROM harvest_checkpoints WHERE key = $1`;
const UPSERT_CHECKPOINT = `
INSERT INTO harvest_checkpoints (key, value, updated_at) VALUES ($1, $2, $3)
ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`;
const DELETE_CHECKPOINT = `DELETE FROM harvest_checkpoints WHERE key = $1`;
const START_INGEST = `
INSERT INTO ingest_log (kind, source, started_at, status, host, pid, run_token)
VALUES ($1, $2, $3, 'running', $4, $5, $6) RETURNING id::integer AS id`;
const FINISH_INGEST = `
UPDATE ingest_log SET finished_at = $2, duration_ms = $3, inserted = $4, updated = $5, unchanged = $6,
  skipped = $7, errors = $8, status = $9, host = NULL, pid = NULL, run_token = NULL
WHERE id = $1`;
const RUNNING_INGESTS = `
SELECT id::integer AS id, kind, pid, run_token FROM ingest_log WHERE status = 'running' AND host = $1`;
const MARK_INTERRUPTED = `
UPDATE ingest_log SET status = 'interrupted', errors = $1, host = NULL, pid = NULL, run_token = NULL
WHERE id = $2 AND status = 'running'`;
const INGEST_COLUMNS = `id::integer AS id, kind, source, started_at, finished_at, duration_ms, inserted, updated,
  unchanged, skipped, errors, status`;
const INGEST_BY_ID = `SELECT ${INGEST_COLUMNS} FROM ingest_log WHERE id = $1`;
const RECENT_INGESTS = `
SELECT ${INGEST_COLUMNS} FROM ingest_log ORDER BY coalesce(finished_at, started_at) DESC, id DESC LIMIT $1`;
const RECENT_INGESTS_OF_KIND = `
SELECT ${INGEST_COLUMNS} FROM ingest_log WHERE kind = $1
ORDER BY coalesce(finished_at, started_at) DESC, id DESC LIMIT $2`;

/** SQLite's HarvestState on PostgreSQL, every call a promise; checkpoint writes may join a caller's transaction. */
export class PgHarvestState {
  readonly #pool: PgPool;
  readonly #now: () => Date;
  readonly #host: string;

  constructor(pool: PgPool, options: { now?: () => Date; host?: string } = {}) {
    this.#pool = pool;
    this.#now = options.now ?? (() => new Date());
    this.#host = options.host ?? hostname();
  }

  async getCheckpoint<T>(key: string): Promise<T | undefined> {
    const { rows } = await this.#pool.query<{ value: string }>(SELECT_CHECKPOINT, [key]);
    return rows[0] ? (JSON.parse(rows[0].value) as T) : undefined;
  }

  /** On `client` when given, so the checkpoint commits with what the caller stores beside it. */
  async setCheckpoint(key: string, value: unknown, client?: PgClient): Promise<void> {
    await (client ?? this.#pool).query(UPSERT_CHECKPOINT, [
      key,
      JSON.stringify(value),
      this.#now().toISOString(),
    ]);
  }

  /** On `client` when given, as setCheckpoint. */
  async clearCheckpoint(key: string, client?: PgClient): Promise<void> {
    await (client ?? this.#pool).query(DELETE_CHECKPOINT, [key]);
  }

  async logIngest(entry: IngestLogEntry): Promise<IngestRecord> {
    return this.finishIngest(await this.startIngest(entry.kind, entry.source, entry.startedAt), entry);
  }

  async startIngest(kind: IngestKind, source: string, startedAt: Date): Promise<number> {
    const { rows } = await this.#pool.query<{ id: number }>(START_INGEST, [
      kind,
      source,
      startedAt.toISOString(),
      this.#host,
      THIS_PROCESS.pid,
      THIS_PROCESS.token,
    ]);
    const id = rows[0]?.id;
    if (id === undefined) throw new QuireError('store-error', 'The ingest log did not return the new row.');
    return id;
  }

  async finishIngest(
    id: number,
    entry: Omit<IngestLogEntry, 'kind' | 'source' | 'startedAt'>,
  ): Promise<IngestRecord> {
    const started = Date.parse((await this.#record(id)).startedAt);
    await this.#pool.query(FINISH_INGEST, [
      id,
      entry.finishedAt.toISOString(),
      Math.max(0, entry.finishedAt.getTime() - started),
      entry.inserted,
      entry.updated,
      entry.unchanged,
      entry.skipped,
      JSON.stringify(entry.errors),
      entry.status,
    ]);
    return this.#record(id);
  }

  /** Marks this host's running rows whose process is gone as interrupted (see HarvestState). */
  async markInterruptedIngests(isAlive: (pid: number) => boolean = processIsAlive): Promise<IngestRecord[]> {
    const { rows } = await this.#pool.query<RunningRow>(RUNNING_INGESTS, [this.#host]);
    const gone = goneRuns(rows, isAlive);
    for (const row of gone) await this.#pool.query(MARK_INTERRUPTED, [interruptedErrors(row), row.id]);
    return Promise.all(gone.map((row) => this.#record(row.id)));
  }

  async lastIngest(kind?: IngestKind): Promise<IngestRecord | undefined> {
    return (await this.recentIngests(1, kind))[0];
  }

  async recentIngests(n: number, kind?: IngestKind): Promise<IngestRecord[]> {
    const { rows } =
      kind === undefined
        ? await this.#pool.query<IngestRow>(RECENT_INGESTS, [n])
        : await this.#pool.query<IngestRow>(RECENT_INGESTS_OF_KIND, [kind, n]);
    return rows.map(rowToRecord);
  }

  async #record(id: number): Promise<IngestRecord> {
    const { rows } = await this.#pool.query<IngestRow>(INGEST_BY_ID, [id]);
    const row = rows[0];
    if (!row) throw new QuireError('store-error', `The ingest log has no row ${id}.`);
    return rowToRecord(row);
  }
}
