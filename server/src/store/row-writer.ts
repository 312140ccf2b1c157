import type { Database, Statement } from 'better-sqlite3';

/** Rows one statement writes at most: 1,024 rows of 17 values stay well inside SQLite's 32,766. */
const MOST_ROWS = 1024;
/** Values one statement may bind (SQLite's SQLITE_MAX_VARIABLE_NUMBER as better-sqlite3 builds it). */
const MOST_VALUES = 32_766;
/** Exact-size statements kept prepared by a writer in `whole` mode (an import's batches are one size). */
const KEPT_SIZES = 4;

export interface RowWriterOptions {
  /**
   * All rows in one statement of exactly their number (up to what SQLite can bind): for the FTS5 table,
   * which flushes its pending terms to a new segment at every statement that follows a write to it in
   * the transaction, so rows split over statements cost a segment, and later merges, each.
   */
  whole?: boolean;
}

/**
 * Writes many rows through multi-row statements (`sql(n)` is the statement for n rows, binding `params`
 * values a row). Inside a transaction each statement that fires triggers keeps a statement journal of
 * the pages it changes, so a few large statements journal each page a few times where one statement a
 * row journalled it for every row. Sizes are powers of two (1,000 rows: 512 + 256 + … + 8), so at most
 * eleven statements are ever prepared, each once; or, `whole`, one statement of the exact size.
 */
export class RowWriter {
  readonly #db: Database;
  readonly #sql: (rows: number) => string;
  readonly #most: number;
  readonly #whole: boolean;
  readonly #statements = new Map<number, Statement<unknown[], unknown>>();

  constructor(db: Database, sql: (rows: number) => string, params: number, options: RowWriterOptions = {}) {
    this.#db = db;
    this.#sql = sql;
    this.#whole = options.whole ?? false;
    let most = 1;
    while (most * 2 <= MOST_ROWS && most * 2 * params <= MOST_VALUES) most *= 2;
    this.#most = this.#whole ? Math.floor(MOST_VALUES / params) : most;
  }

  /** Writes `rows` in order, each an array of the statement's values for one row. */
  write(rows: readonly (readonly unknown[])[]): void {
    for (let at = 0; at < rows.length;) {
      let n = Math.min(this.#most, rows.length - at);
      if (!this.#whole) n = 2 ** Math.floor(Math.log2(n));
      this.#statement(n).run(rows.slice(at, at + n).flat());
      at += n;
    }
  }

  #statement(rows: number): Statement<unknown[], unknown> {
    let statement = this.#statements.get(rows);
    if (statement) {
      // Most recently used last, so the first is the one to let go.
      this.#statements.delete(rows);
    } else {
      statement = this.#db.prepare(this.#sql(rows));
      const oldest = this.#statements.keys().next();
      if (this.#whole && this.#statements.size >= KEPT_SIZES && !oldest.done) {
        this.#statements.delete(oldest.value);
      }
    }
    this.#statements.set(rows, statement);
    return statement;
  }
}
