/**
 * The group as the server stored it, read straight from the SQLite file: shared by the integration tests
 * (sync-harness) and the e2e specs (free of vitest, so Playwright can load it).
 */
import BetterSqlite3 from 'better-sqlite3';
import * as Y from 'yjs';

/** Update rows of a group, counted from the SQLite file through a connection of the test's own. */
export function storedRows(dbPath: string, groupId: string): number {
  const db = new BetterSqlite3(dbPath, { readonly: true, fileMustExist: true });
  try {
    return (
      db
        .prepare<[string], number>('SELECT count(*) FROM group_updates WHERE group_id = ?')
        .pluck()
        .get(groupId) ?? 0
    );
  } finally {
    db.close();
  }
}

/** The group's document as the server stored it, rebuilt from its rows alone. */
export function storedDoc(dbPath: string, groupId: string): Y.Doc {
  const db = new BetterSqlite3(dbPath, { readonly: true, fileMustExist: true });
  try {
    const rows = db
      .prepare<[string], Buffer>('SELECT data FROM group_updates WHERE group_id = ? ORDER BY id')
      .pluck()
      .all(groupId);
    const doc = new Y.Doc();
    for (const row of rows) Y.applyUpdate(doc, row);
    return doc;
  } finally {
    db.close();
  }
}
