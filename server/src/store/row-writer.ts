import type { Database, Statement } from 'better-sqlite3';

/** Rows one statement writes at most: 1,024 rows of 17 values stay well inside SQLite's 32,766. */
const MOST_ROWS = 1024;

/**
 * Writes many rows through multi-row statements (`sql(n)` is the statement for n rows, binding `params`
 * values a row). Inside a transaction each statement that fires triggers keeps a statement journal of
 * the pages it changes, so a few large statements journal each page a few times where one statement a
 * row journalled it for every row. Sizes are powers of two (1,000 rows: 512 + 256 + … + 8), so at most
 * eleven statements are ever prepared, each once.
 */
export class RowWriter {
  readonly #db: Database;
  readonly #sql: (rows: number) => string;
  readonly #most: number;
  readonly #statements = new Map<number, Statement<unknown[], unknown>>();

  constructor(db: Database, sql: (rows: number) => string, params: number) {
    this.#db = db;
    this.#sql = sql;
    let most = 1;
    while (most * 2 <= MOST_ROWS && most * 2 * params <= 32_766) most *= 2;
    this.#most = most;
  }

  /** Writes `rows` in order, each an array of the statement's values for one row. */
  write(rows: readonly (readonly unknown[])[]): void {
    for (let at = 0; at < rows.length;) {
      let n = this.#most;
      while (n > rows.length - at) n /= 2;
      this.#statement(n).run(rows.slice(at, at + n).flat());
      at += n;
    }
  }

  #statement(rows: number): Statement<unknown[], unknown> {
    let statement = this.#statements.get(rows);
    if (!statement) this.#statements.set(rows, (statement = this.#db.prepare(this.#sql(rows))));
    return statement;
  }
}
