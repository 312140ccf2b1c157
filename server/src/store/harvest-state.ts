import type { Database, Statement } from 'better-sqlite3';

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

const INSERT_INGEST = `
INSERT INTO ingest_log (kind, source, started_at, finished_at, duration_ms, inserted, updated, unchanged,
  skipped, errors, status)
VALUES (@kind, @source, @started_at, @finished_at, @duration_ms, @inserted, @updated, @unchanged, @skipped,
  @errors, @status)`;

const INGEST_COLUMNS = `id, kind, source, started_at, finished_at, duration_ms, inserted, updated, unchanged,
  skipped, errors, status`;

// id breaks ties between entries finished in the same millisecond: later rows were written later.
const RECENT_INGESTS = `SELECT ${INGEST_COLUMNS} FROM ingest_log ORDER BY finished_at DESC, id DESC LIMIT ?`;

const RECENT_INGESTS_OF_KIND = `
SELECT ${INGEST_COLUMNS} FROM ingest_log WHERE kind = ? ORDER BY finished_at DESC, id DESC LIMIT ?`;

export type IngestKind = 'import' | 'harvest' | 'fetch';
export type IngestStatus = 'ok' | 'failed';

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
  status: IngestStatus;
}

export interface IngestRecord {
  id: number;
  kind: IngestKind;
  source: string;
  /** ISO timestamps. */
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  inserted: number;
  updated: number;
  unchanged: number;
  skipped: number;
  errors: IngestErrorNote[];
  status: IngestStatus;
}

interface IngestRow {
  id: number;
  kind: IngestKind;
  source: string;
  started_at: string;
  finished_at: string;
  duration_ms: number;
  inserted: number;
  updated: number;
  unchanged: number;
  skipped: number;
  errors: string;
  status: IngestStatus;
}

export interface HarvestStateOptions {
  now?: () => Date;
}

export class HarvestState {
  readonly #now: () => Date;
  readonly #selectCheckpoint: Statement<[string], string>;
  readonly #upsertCheckpoint: Statement<[string, string, string], unknown>;
  readonly #deleteCheckpoint: Statement<[string], unknown>;
  readonly #insertIngest: Statement<[Omit<IngestRow, 'id'>], unknown>;
  readonly #recent: Statement<[number], IngestRow>;
  readonly #recentOfKind: Statement<[IngestKind, number], IngestRow>;

  constructor(db: Database, options: HarvestStateOptions = {}) {
    this.#now = options.now ?? (() => new Date());
    this.#selectCheckpoint = db.prepare<[string], string>(SELECT_CHECKPOINT).pluck();
    this.#upsertCheckpoint = db.prepare<[string, string, string], unknown>(UPSERT_CHECKPOINT);
    this.#deleteCheckpoint = db.prepare<[string], unknown>(DELETE_CHECKPOINT);
    this.#insertIngest = db.prepare<[Omit<IngestRow, 'id'>], unknown>(INSERT_INGEST);
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

  logIngest(entry: IngestLogEntry): IngestRecord {
    const row: Omit<IngestRow, 'id'> = {
      kind: entry.kind,
      source: entry.source,
      started_at: entry.startedAt.toISOString(),
      finished_at: entry.finishedAt.toISOString(),
      duration_ms: Math.max(0, entry.finishedAt.getTime() - entry.startedAt.getTime()),
      inserted: entry.inserted,
      updated: entry.updated,
      unchanged: entry.unchanged,
      skipped: entry.skipped,
      errors: JSON.stringify(entry.errors),
      status: entry.status,
    };
    const { lastInsertRowid } = this.#insertIngest.run(row);
    return rowToRecord({ ...row, id: Number(lastInsertRowid) });
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
}

function rowToRecord(row: IngestRow): IngestRecord {
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
