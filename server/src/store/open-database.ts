import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3, { type Database } from 'better-sqlite3';
import { QuireError, errorMessage } from '../errors.ts';
import { migrate } from './migrations.ts';

export type { Database } from 'better-sqlite3';

/** How long a writer waits for another connection's lock (the server and a CLI import may share a file). */
const BUSY_TIMEOUT_MS = 5000;

const MEMORY = ':memory:';

/**
 * Opens (creating if needed) the SQLite file at `path`, tuned for one writer with concurrent readers, and
 * migrates it to the current schema. `:memory:` works too, for throwaway stores.
 */
export function openDatabase(path: string): Database {
  if (path !== MEMORY) {
    try {
      mkdirSync(dirname(path), { recursive: true });
    } catch (err) {
      throw new QuireError(
        'store-error',
        `Cannot create the folder for the database ${path}: ${errorMessage(err)}`,
        { cause: err },
      );
    }
  }
  let db: Database;
  try {
    // Readable by its owner only: it holds invite hashes and every group's notes. SQLite gives the -wal
    // and -shm files the database file's permissions.
    if (path !== MEMORY && !existsSync(path)) writeFileSync(path, '', { mode: 0o600, flag: 'wx' });
    db = new BetterSqlite3(path);
  } catch (err) {
    throw new QuireError('store-error', `Cannot open the database ${path}: ${errorMessage(err)}`, {
      cause: err,
    });
  }
  try {
    // WAL lets readers (the API) run while an ingest writes; NORMAL is durable across app crashes under WAL.
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    migrate(db);
  } catch (err) {
    db.close();
    if (err instanceof QuireError) throw err;
    throw new QuireError('store-error', `Cannot prepare the database ${path}: ${errorMessage(err)}`, {
      cause: err,
    });
  }
  return db;
}

/**
 * A second, read-only connection to a database another connection has already opened and migrated (the
 * search thread reads beside the server's writer). WAL lets it read while the writer commits.
 */
export function openReadOnlyDatabase(path: string): Database {
  let db: Database;
  try {
    db = new BetterSqlite3(path, { readonly: true, fileMustExist: true });
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  } catch (err) {
    throw new QuireError('store-error', `Cannot open the database ${path} to read: ${errorMessage(err)}`, {
      cause: err,
    });
  }
  return db;
}
