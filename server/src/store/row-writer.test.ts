import BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RowWriter } from './row-writer.ts';

let db: BetterSqlite3.Database;

beforeEach(() => {
  db = new BetterSqlite3(':memory:');
  db.exec('CREATE TABLE t (n INTEGER NOT NULL, s TEXT NOT NULL)');
});
afterEach(() => db.close());

const INSERT = (rows: number) =>
  `INSERT INTO t (n, s) VALUES ${Array.from({ length: rows }, () => '(?, ?)').join(', ')}`;

function rows(count: number): [number, string][] {
  return Array.from({ length: count }, (_, i) => [i, `row ${i}`]);
}

describe('RowWriter', () => {
  for (const whole of [false, true]) {
    it(`writes every row once, in order, whatever their number (whole: ${whole})`, () => {
      const writer = new RowWriter(db, INSERT, 2, { whole });
      // 20,000 rows pass what one statement of two values a row can bind (16,383) in whole mode.
      for (const count of [0, 1, 7, 1000, 1000, 999, 3, 20_000]) {
        db.exec('DELETE FROM t');
        writer.write(rows(count));
        expect(db.prepare('SELECT n, s FROM t ORDER BY rowid').raw().all()).toEqual(rows(count));
      }
    });
  }

  it('fails with the statement, leaving the rows of that statement unwritten', () => {
    const writer = new RowWriter(db, INSERT, 2, { whole: true });
    const broken = [...rows(3), [3, null]] as unknown as [number, string][];
    expect(() => db.transaction(() => writer.write(broken))()).toThrow(/NOT NULL/);
    expect(db.prepare('SELECT count(*) FROM t').pluck().get()).toBe(0);
  });
});
