import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { ImportProgress } from './import-progress.ts';
import { emptyFileReport } from './import-report.ts';
import { createProgressBar, formatDuration, renderProgress } from './progress-bar.ts';

function output(isTTY: boolean): { stream: Writable & { isTTY: boolean }; text: () => string } {
  let text = '';
  const stream = Object.assign(
    new Writable({
      write(chunk: Buffer | string, _encoding, done) {
        text += chunk.toString();
        done();
      },
    }),
    { isTTY },
  );
  return { stream, text: () => text };
}

const halfway: ImportProgress = {
  file: '/data/listings/2026-03-16.jsonl.br',
  fileIndex: 0,
  fileCount: 9,
  fileBytesRead: 500,
  fileBytesTotal: 1000,
  bytesRead: 2500,
  bytesTotal: 10_000,
  bytesPassedOver: 0,
  passedOverMs: 0,
  papers: 6000,
};

const done = {
  ...emptyFileReport('/data/listings/2026-03-16.jsonl.br', 1000),
  format: 'jsonl.br',
  lines: 3155,
  inserted: 3150,
  updated: 2,
  unchanged: 1,
  skipped: 2,
  durationMs: 420,
};

describe('renderProgress', () => {
  it('shows the share of bytes, papers per second and the time left', () => {
    const line = renderProgress(halfway, 2000, 8);
    expect(line).toBe('██░░░░░░  25%  6,000 papers  3,000 papers/s  ETA 6.0s  2026-03-16.jsonl.br (1/9)');
  });

  it('leaves bytes passed over to resume a file out of the rate', () => {
    // 2,000 of the 2,500 bytes read were passed over in 1 s of the 3: 500 bytes in 2 s leaves 7,500 for 30 s.
    const resumed = { ...halfway, bytesPassedOver: 2000, passedOverMs: 1000 };
    expect(renderProgress(resumed, 3000, 8)).toContain(' 25%  6,000 papers  3,000 papers/s  ETA 30s ');
    expect(renderProgress({ ...resumed, bytesPassedOver: 2500 }, 3000, 8)).toContain('ETA ?');
  });

  it('shows hours for a snapshot-sized file', () => {
    const gib = 1024 ** 3;
    const snapshot = { ...halfway, bytesRead: 0.05 * gib, bytesTotal: 4 * gib, fileCount: 1 };
    expect(renderProgress(snapshot, 120_000, 8)).toContain('ETA 2h 38m');
  });

  it('does not guess an ETA before any byte is read', () => {
    expect(renderProgress({ ...halfway, bytesRead: 0, papers: 0 }, 0, 4)).toContain('ETA ?');
  });
});

describe('createProgressBar', () => {
  it('redraws one line on a terminal and clears it at the end', () => {
    const out = output(true);
    const bar = createProgressBar(out.stream, { now: () => new Date(0) });
    bar.update(halfway);
    bar.update({ ...halfway, bytesRead: 5000 });
    bar.fileDone(done);
    bar.finish();
    const text = out.text();
    expect(text.split('\r\x1b[K██')).toHaveLength(4);
    expect(text).toContain(
      '2026-03-16.jsonl.br: 3,153 papers (3,150 new, 2 updated, 1 unchanged), 2 malformed lines',
    );
    expect(text.endsWith('\r\x1b[K')).toBe(true);
  });

  it('writes one plain line per file elsewhere', () => {
    const out = output(false);
    const bar = createProgressBar(out.stream);
    bar.update(halfway);
    bar.note('a.jsonl.gz: resuming after line 41,000');
    bar.fileDone({ ...done, resumedAfterLine: 41_000 });
    bar.fileDone(done);
    bar.fileDone({
      ...emptyFileReport('/data/notes.txt', 10),
      status: 'failed',
      failure: { code: 'unknown-format', message: '/data/notes.txt is in an unknown format.' },
    });
    bar.finish();
    expect(out.text().split('\n')).toEqual([
      'a.jsonl.gz: resuming after line 41,000',
      '2026-03-16.jsonl.br: resumed after line 41,000: 3,153 papers (3,150 new, 2 updated, 1 unchanged), 2 malformed lines skipped in 0.4s',
      '2026-03-16.jsonl.br: 3,153 papers (3,150 new, 2 updated, 1 unchanged), 2 malformed lines skipped in 0.4s',
      'notes.txt: failed: /data/notes.txt is in an unknown format.',
      '',
    ]);
  });
});

describe('formatDuration', () => {
  it('reads naturally from tenths of a second to hours', () => {
    expect(formatDuration(420)).toBe('0.4s');
    expect(formatDuration(42_000)).toBe('42s');
    expect(formatDuration(125_000)).toBe('2m 05s');
    expect(formatDuration(3_725_000)).toBe('1h 02m');
  });
});
