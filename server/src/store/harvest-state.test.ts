import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IngestLogEntry } from './harvest-state.ts';
import { openStore, type Store } from './open-store.ts';

let dir: string;
let store: Store;
let clock: Date;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quire-state-'));
  clock = new Date('2026-05-01T12:00:00Z');
  store = openStore(join(dir, 'quire.db'), { now: () => clock });
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

function entry(overrides: Partial<IngestLogEntry> = {}): IngestLogEntry {
  return {
    kind: 'harvest',
    source: 'oai https://export.arxiv.org/oai2 cs',
    startedAt: new Date('2026-05-01T10:00:00Z'),
    finishedAt: new Date('2026-05-01T10:00:04.250Z'),
    inserted: 10,
    updated: 2,
    unchanged: 1,
    skipped: 0,
    errors: [],
    status: 'ok',
    ...overrides,
  };
}

describe('checkpoints', () => {
  it('round-trips a JSON value under a key and overwrites it', () => {
    expect(store.state.getCheckpoint('oai:cs:arXiv')).toBeUndefined();
    store.state.setCheckpoint('oai:cs:arXiv', { token: 'a|1', from: '2026-03-16', pages: 1 });
    expect(store.state.getCheckpoint<{ token: string }>('oai:cs:arXiv')).toEqual({
      token: 'a|1',
      from: '2026-03-16',
      pages: 1,
    });
    clock = new Date('2026-05-01T12:05:00Z');
    store.state.setCheckpoint('oai:cs:arXiv', { token: null });
    expect(store.state.getCheckpoint('oai:cs:arXiv')).toEqual({ token: null });
    const stamped = store.db.prepare('SELECT updated_at FROM harvest_checkpoints').pluck().get();
    expect(stamped).toBe('2026-05-01T12:05:00.000Z');
  });

  it('keeps keys apart and clears one', () => {
    store.state.setCheckpoint('oai:cs:arXiv', 1);
    store.state.setCheckpoint('rss:cs.AI+cs.LG', 2);
    store.state.clearCheckpoint('oai:cs:arXiv');
    expect(store.state.getCheckpoint('oai:cs:arXiv')).toBeUndefined();
    expect(store.state.getCheckpoint('rss:cs.AI+cs.LG')).toBe(2);
  });

  it('survives reopening the database', () => {
    store.state.setCheckpoint('oai:cs:arXiv', { token: 'keep' });
    store.close();
    store = openStore(join(dir, 'quire.db'));
    expect(store.state.getCheckpoint('oai:cs:arXiv')).toEqual({ token: 'keep' });
  });
});

describe('ingest log', () => {
  it('records an entry with its duration and errors', () => {
    const record = store.state.logIngest(
      entry({ status: 'failed', errors: [{ message: 'HTTP 503', line: 3, file: 'page.xml' }] }),
    );
    expect(record).toMatchObject({
      kind: 'harvest',
      startedAt: '2026-05-01T10:00:00.000Z',
      finishedAt: '2026-05-01T10:00:04.250Z',
      durationMs: 4250,
      status: 'failed',
      errors: [{ message: 'HTTP 503', line: 3, file: 'page.xml' }],
    });
    expect(store.state.lastIngest()).toEqual(record);
  });

  it('answers the latest entry overall and of one kind, newest first', () => {
    expect(store.state.lastIngest()).toBeUndefined();
    store.state.logIngest(entry({ source: 'first harvest' }));
    store.state.logIngest(
      entry({
        kind: 'import',
        source: 'week.jsonl.br',
        startedAt: new Date('2026-05-01T11:00:00Z'),
        finishedAt: new Date('2026-05-01T11:00:01Z'),
      }),
    );
    store.state.logIngest(
      entry({
        source: 'second harvest',
        startedAt: new Date('2026-05-01T10:30:00Z'),
        finishedAt: new Date('2026-05-01T10:30:02Z'),
      }),
    );
    expect(store.state.lastIngest()?.source).toBe('week.jsonl.br');
    expect(store.state.lastIngest('harvest')?.source).toBe('second harvest');
    expect(store.state.lastIngest('fetch')).toBeUndefined();
    expect(store.state.recentIngests(10).map((r) => r.source)).toEqual([
      'week.jsonl.br',
      'second harvest',
      'first harvest',
    ]);
    expect(store.state.recentIngests(1, 'harvest').map((r) => r.source)).toEqual(['second harvest']);
  });

  it('records a run as running when it starts and completes the same row when it ends', () => {
    const id = store.state.startIngest('import', 'week.jsonl.br', new Date('2026-05-01T10:00:00Z'));
    expect(store.state.lastIngest()).toMatchObject({ id, status: 'running', finishedAt: null });
    const done = store.state.finishIngest(id, {
      finishedAt: new Date('2026-05-01T10:00:02Z'),
      inserted: 5,
      updated: 0,
      unchanged: 0,
      skipped: 1,
      errors: [],
      status: 'ok',
    });
    expect(done).toMatchObject({ id, status: 'ok', durationMs: 2000, inserted: 5, skipped: 1 });
    expect(store.state.recentIngests(10)).toHaveLength(1);
  });

  it("marks a running row interrupted once its process is gone, and leaves a live one's alone", () => {
    const started = new Date('2026-05-01T10:00:00Z');
    const insert = store.db.prepare<[string, number, string], unknown>(
      `INSERT INTO ingest_log (kind, source, started_at, status, pid, run_token)
       VALUES ('import', ?, '2026-05-01T09:00:00.000Z', 'running', ?, ?)`,
    );
    insert.run('dead.jsonl', 999_999, 'other');
    insert.run('alive.jsonl', 4242, 'other');
    // An earlier process that had this process's pid: the pid alone would say it is still going.
    insert.run('reused-pid.jsonl', process.pid, 'an earlier process');
    const mine = store.state.startIngest('import', 'mine.jsonl', started);

    const marked = store.state.markInterruptedIngests((pid) => pid === 4242);
    expect(marked.map((r) => r.source).sort()).toEqual(['dead.jsonl', 'reused-pid.jsonl']);
    expect(marked[0]?.status).toBe('interrupted');
    expect(marked[0]?.errors[0]?.message).toContain('run the import again');
    const bySource = new Map(store.state.recentIngests(10).map((r) => [r.source, r.status]));
    expect(bySource.get('alive.jsonl')).toBe('running');
    expect(bySource.get('mine.jsonl')).toBe('running');
    expect(store.state.markInterruptedIngests(() => false).map((r) => r.source)).toEqual(['alive.jsonl']);
    expect(store.state.recentIngests(10).find((r) => r.id === mine)?.status).toBe('running');
  });
});
