import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from './open-database.ts';

const dir = mkdtempSync(join(tmpdir(), 'quire-db-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const mode = (path: string) => statSync(path).mode & 0o777;

describe('openDatabase', () => {
  it('creates the database, its -wal and its -shm readable by their owner only', () => {
    const path = join(dir, 'quire.db');
    const db = openDatabase(path);
    db.prepare('CREATE TABLE t (x)').run();
    db.prepare('INSERT INTO t VALUES (1)').run();
    expect(mode(path)).toBe(0o600);
    expect(mode(`${path}-wal`)).toBe(0o600);
    expect(mode(`${path}-shm`)).toBe(0o600);
    db.close();
    // Opening it again leaves an existing file as it is.
    openDatabase(path).close();
    expect(mode(path)).toBe(0o600);
  });
});
