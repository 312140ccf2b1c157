import { randomUUID } from 'node:crypto';
import type { Database, Statement } from 'better-sqlite3';
import { QuireError } from '../errors.ts';

/**
 * Harvest checkpoints and the ingest log. Both share the papers' database, so a harvester stores a page and
 * its checkpoint atomically by wrapping both writes in `PaperStore.transaction`:
 *
 *   store.transaction(() => {
 *     papers.upsertBatch(page, { countsAsListing: true });
 *     state.setCheckpoint('oai:cs:arXiv', { resumptionToken, from });
 *   });
 */

const SELECT_CHECKPOINT = `SELECT value FROM harvest_checkpoints WHERE key = ?`;

const UPSERT_CHECKPOINT = `
INSERT INTO harvest_checkpoints (key, value, updated_at) VALUES (?, ?, ?)
ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`;

const DELETE_CHECKPOINT = `DELETE FROM harvest_checkpoints WHERE key = ?`;

const START_INGEST = `
INSERT INTO ingest_log (kind, source, started_at, status, pid, run_token)
VALUES (@kind, @source, @started_at, 'running', @pid, @run_token)`;

const FINISH_INGEST = `
UPDATE ingest_log SET finished_at = @finished_at, duration_ms = @duration_ms, inserted = @inserted,
  updated = @updated, unchanged = @unchanged, skipped = @skipped, errors = @errors, status = @status,
  pid = NULL, run_token = NULL
WHERE id = @id`;

const RUNNING_INGESTS = `SELECT id, kind, pid, run_token FROM ingest_log WHERE status = 'running'`;

const MARK_INTERRUPTED = `
UPDATE ingest_log SET status = 'interrupted', errors = ?, pid = NULL, run_token = NULL
WHERE id = ? AND status = 'running'`;

const INGEST_COLUMNS = `id, kind, source, started_at, finished_at, duration_ms, inserted, updated, unchanged,
  skipped, errors, status`;

const INGEST_BY_ID = `SELECT ${INGEST_COLUMNS} FROM ingest_log WHERE id = ?`;

// A run still going (or cut short) sorts by its start. id breaks ties between entries finished in the same
// millisecond: later rows were written later.
const RECENT_INGESTS = `
SELECT ${INGEST_COLUMNS} FROM ingest_log ORDER BY coalesce(finished_at, started_at) DESC, id DESC LIMIT ?`;

const RECENT_INGESTS_OF_KIND = `
SELECT ${INGEST_COLUMNS} FROM ingest_log WHERE kind = ?
ORDER BY coalesce(finished_at, started_at) DESC, id DESC LIMIT ?`;

export type IngestKind = 'import' | 'harvest' | 'fetch';
/** How a run ended. */
export type FinishedStatus = 'ok' | 'failed';
/** 'running' until it ends; 'interrupted' when its process was found gone before it could say how it ended. */
export type IngestStatus = FinishedStatus | 'running' | 'interrupted';

/** One problem met during an ingest; `line` for dump lines, `file` when the source spans several files. */
export interface IngestErrorNote {
  message: string;
  file?: string;
  line?: number;
}

export interface IngestLogEntry {
  kind: IngestKind;
  /** What was read: a file path, an OAI-PMH base URL with its set, an RSS feed URL. */
  source: string;
  startedAt: Date;
  finishedAt: Date;
  inserted: number;
  updated: number;
  unchanged: number;
  skipped: number;
  errors: readonly IngestErrorNote[];
  status: FinishedStatus;
}

export interface IngestRecord {
  id: number;
  kind: IngestKind;
  source: string;
  /** ISO timestamps; finishedAt and durationMs are null for a run that is running or never finished. */
  startedAt: string;
  finishedAt: string | null;
  durationMs: number | null;
  inserted: number;
  updated: number;
  unchanged: number;
  skipped: number;
  errors: IngestErrorNote[];
  status: IngestStatus;
}

/** An ingest_log row as both engines return it. */
export interface IngestRow {
  id: number;
  kind: IngestKind;
  source: string;
  started_at: string;
  finished_at: string | null;
  duration_ms: number | null;
  inserted: number;
  updated: number;
  unchanged: number;
  skipped: number;
  errors: string;
  status: IngestStatus;
}

export interface RunningRow {
  id: number;
  kind: IngestKind;
  pid: number | null;
  run_token: string | null;
}

export interface HarvestStateOptions {
  now?: () => Date;
}

/**
 * This process, as a running row names it. The token tells it from an earlier process that had the same
 * pid (pids are reused, in containers almost at once).
 */
export const THIS_PROCESS = { pid: process.pid, token: randomUUID() };

/** Whether a process with this pid exists (EPERM: it does, but belongs to another user). */
export function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export class HarvestState {
  readonly #now: () => Date;
  readonly #selectCheckpoint: Statement<[string], string>;
  readonly #upsertCheckpoint: Statement<[string, string, string], unknown>;
  readonly #deleteCheckpoint: Statement<[string], unknown>;
  readonly #startIngest: Statement<[StartRow], unknown>;
  readonly #finishIngest: Statement<[Omit<IngestRow, 'kind' | 'source' | 'started_at'>], unknown>;
  readonly #running: Statement<[], RunningRow>;
  readonly #markInterrupted: Statement<[string, number], unknown>;
  readonly #byId: Statement<[number], IngestRow>;
  readonly #recent: Statement<[number], IngestRow>;
  readonly #recentOfKind: Statement<[IngestKind, number], IngestRow>;

  constructor(db: Database, options: HarvestStateOptions = {}) {
    this.#now = options.now ?? (() => new Date());
    this.#selectCheckpoint = db.prepare<[string], string>(SELECT_CHECKPOINT).pluck();
    this.#upsertCheckpoint = db.prepare<[string, string, string], unknown>(UPSERT_CHECKPOINT);
    this.#deleteCheckpoint = db.prepare<[string], unknown>(DELETE_CHECKPOINT);
    this.#startIngest = db.prepare<[StartRow], unknown>(START_INGEST);
    this.#finishIngest = db.prepare<[Omit<IngestRow, 'kind' | 'source' | 'started_at'>], unknown>(
      FINISH_INGEST,
    );
    this.#running = db.prepare<[], RunningRow>(RUNNING_INGESTS);
    this.#markInterrupted = db.prepare<[string, number], unknown>(MARK_INTERRUPTED);
    this.#byId = db.prepare<[number], IngestRow>(INGEST_BY_ID);
    this.#recent = db.prepare<[number], IngestRow>(RECENT_INGESTS);
    this.#recentOfKind = db.prepare<[IngestKind, number], IngestRow>(RECENT_INGESTS_OF_KIND);
  }

  /** The value last saved under `key`, or undefined. The caller owns the shape; it is stored as JSON. */
  getCheckpoint<T>(key: string): T | undefined {
    const value = this.#selectCheckpoint.get(key);
    return value === undefined ? undefined : (JSON.parse(value) as T);
  }

  setCheckpoint(key: string, value: unknown): void {
    this.#upsertCheckpoint.run(key, JSON.stringify(value), this.#now().toISOString());
  }

  clearCheckpoint(key: string): void {
    this.#deleteCheckpoint.run(key);
  }

  /** Records a whole run at once (a harvest, a fetch): started and completed in one go. */
  logIngest(entry: IngestLogEntry): IngestRecord {
    return this.finishIngest(this.startIngest(entry.kind, entry.source, entry.startedAt), entry);
  }

  /**
   * Records a run as it starts, as 'running' under this process, so that a run killed outright still leaves
   * its row. `finishIngest` completes it. Returns the row's id.
   */
  startIngest(kind: IngestKind, source: string, startedAt: Date): number {
    const { lastInsertRowid } = this.#startIngest.run({
      kind,
      source,
      started_at: startedAt.toISOString(),
      pid: THIS_PROCESS.pid,
      run_token: THIS_PROCESS.token,
    });
    return Number(lastInsertRowid);
  }

  /** Completes the row `startIngest` made with how the run ended. */
  finishIngest(id: number, entry: Omit<IngestLogEntry, 'kind' | 'source' | 'startedAt'>): IngestRecord {
    this.#finishIngest.run({
      id,
      finished_at: entry.finishedAt.toISOString(),
      duration_ms: Math.max(0, entry.finishedAt.getTime() - this.#startedAt(id)),
      inserted: entry.inserted,
      updated: entry.updated,
      unchanged: entry.unchanged,
      skipped: entry.skipped,
      errors: JSON.stringify(entry.errors),
      status: entry.status,
    });
    return this.#record(id);
  }

  /**
   * Marks 'running' rows whose process is gone (killed, crashed, the machine restarted) as 'interrupted',
   * with a note saying what to do. Rows of live processes, this one included, are left alone. Run when the
   * server or a CLI command opens the store, before it starts any run of its own.
   */
  markInterruptedIngests(isAlive: (pid: number) => boolean = processIsAlive): IngestRecord[] {
    const gone = goneRuns(this.#running.all(), isAlive);
    for (const row of gone) this.#markInterrupted.run(interruptedErrors(row), row.id);
    return gone.map((row) => this.#record(row.id));
  }

  /** The latest entry, of one kind if given. */
  lastIngest(kind?: IngestKind): IngestRecord | undefined {
    return this.recentIngests(1, kind)[0];
  }

  /** The `n` latest entries, newest first. */
  recentIngests(n: number, kind?: IngestKind): IngestRecord[] {
    const rows = kind === undefined ? this.#recent.all(n) : this.#recentOfKind.all(kind, n);
    return rows.map(rowToRecord);
  }

  #record(id: number): IngestRecord {
    const row = this.#byId.get(id);
    if (!row) throw new QuireError('store-error', `The ingest log has no row ${id}.`);
    return rowToRecord(row);
  }

  #startedAt(id: number): number {
    return Date.parse(this.#record(id).startedAt);
  }
}

interface StartRow {
  kind: IngestKind;
  source: string;
  started_at: string;
  pid: number;
  run_token: string;
}

/** The running rows whose process is gone: not this process, and not a live pid. */
export function goneRuns(rows: readonly RunningRow[], isAlive: (pid: number) => boolean): RunningRow[] {
  return rows.filter((row) => {
    if (row.pid === null) return true;
    if (row.pid === THIS_PROCESS.pid) return row.run_token !== THIS_PROCESS.token;
    return !isAlive(row.pid);
  });
}

/** The `errors` of a run found cut short: what happened and what to do. */
export function interruptedErrors(row: RunningRow): string {
  const note: IngestErrorNote = {
    message: `This ${row.kind} stopped before it finished: its process${row.pid === null ? '' : ` (pid ${row.pid})`} ended without recording how it went (killed or crashed). Papers it stored are kept; run the ${row.kind} again to finish it.`,
  };
  return JSON.stringify([note]);
}

export function rowToRecord(row: IngestRow): IngestRecord {
  return {
    id: row.id,
    kind: row.kind,
    source: row.source,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    durationMs: row.duration_ms,
    inserted: row.inserted,
    updated: row.updated,
    unchanged: row.unchanged,
    skipped: row.skipped,
    errors: JSON.parse(row.errors) as IngestErrorNote[],
    status: row.status,
  };
}
