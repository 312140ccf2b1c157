import { basename } from 'node:path';
import type { ImportProgress } from './import-progress.ts';
import { papersOf, type FileReport } from './import-report.ts';

export interface ProgressBarOptions {
  now?: () => Date;
  /** Width of the bar itself in characters. */
  barWidth?: number;
}

export interface ProgressBar {
  update(progress: ImportProgress): void;
  fileDone(file: FileReport): void;
  /** A line of its own above the bar (or in the log), e.g. that a file resumes where it stopped. */
  note(line: string): void;
  /** Leaves the terminal on a fresh line. */
  finish(): void;
}

type Output = NodeJS.WritableStream & { isTTY?: boolean; columns?: number };

const CLEAR_LINE = '\r\x1b[K';
const FILLED = '█';
const EMPTY = '░';

/**
 * Import progress on stderr: a live bar (percent of bytes across all files, papers/s, ETA) when it is a
 * terminal, and one plain line per finished file otherwise, so logs and CI output stay readable.
 */
export function createProgressBar(out: Output, options: ProgressBarOptions = {}): ProgressBar {
  const now = options.now ?? (() => new Date());
  const barWidth = options.barWidth ?? 24;
  const startedAt = now().getTime();
  const live = out.isTTY === true;
  let shown = false;
  let last: ImportProgress | undefined;

  const draw = (): void => {
    if (!last) return;
    let line = renderProgress(last, now().getTime() - startedAt, barWidth);
    if (out.columns && line.length >= out.columns) line = line.slice(0, out.columns - 1);
    out.write(CLEAR_LINE + line);
    shown = true;
  };

  const writeAbove = (line: string): void => {
    if (live) {
      // The line goes above the bar, which is then redrawn beneath it.
      if (shown) out.write(CLEAR_LINE);
      out.write(line + '\n');
      draw();
    } else {
      out.write(line + '\n');
    }
  };

  return {
    update(progress) {
      last = progress;
      if (live) draw();
    },
    fileDone(file) {
      writeAbove(describeFile(file));
    },
    note(line) {
      writeAbove(line);
    },
    finish() {
      if (live && shown) out.write(CLEAR_LINE);
      shown = false;
    },
  };
}

export function renderProgress(progress: ImportProgress, elapsedMs: number, barWidth: number): string {
  const fraction = progress.bytesTotal > 0 ? Math.min(1, progress.bytesRead / progress.bytesTotal) : 1;
  const filled = Math.round(fraction * barWidth);
  const bar = FILLED.repeat(filled) + EMPTY.repeat(barWidth - filled);
  const percent = `${Math.floor(fraction * 100)}%`.padStart(4);
  // The rate is of the bytes this run imported, over the time that took: passing over what an earlier run
  // stored (to resume a file) is quicker, so it would make the rest look quicker than it will be.
  const worked = progress.bytesRead - progress.bytesPassedOver;
  const workedMs = elapsedMs - progress.passedOverMs;
  const rate = workedMs > 0 ? (progress.papers * 1000) / workedMs : 0;
  const eta =
    fraction >= 1
      ? '0s'
      : worked > 0 && workedMs > 0
        ? formatDuration(((progress.bytesTotal - progress.bytesRead) * workedMs) / worked)
        : '?';
  const file = `${basename(progress.file)} (${progress.fileIndex + 1}/${progress.fileCount})`;
  return `${bar} ${percent}  ${formatCount(progress.papers)} papers  ${formatCount(rate)} papers/s  ETA ${eta}  ${file}`;
}

export function describeFile(file: FileReport): string {
  const name = basename(file.path);
  if (file.status === 'failed' && file.failure) {
    const stored =
      papersOf(file) > 0 ? ` (${formatCount(papersOf(file))} papers stored before it stopped)` : '';
    return `${name}: failed: ${file.failure.message}${stored}`;
  }
  const skipped =
    file.skipped > 0
      ? `, ${formatCount(file.skipped)} malformed line${file.skipped === 1 ? '' : 's'} skipped`
      : '';
  const resumed =
    file.resumedAfterLine > 0 ? ` resumed after line ${formatCount(file.resumedAfterLine)}:` : '';
  return (
    `${name}:${resumed} ${formatCount(papersOf(file))} ${papersOf(file) === 1 ? 'paper' : 'papers'} (${formatCount(file.inserted)} new, ` +
    `${formatCount(file.updated)} updated, ${formatCount(file.unchanged)} unchanged)${skipped} ` +
    `in ${formatDuration(file.durationMs)}`
  );
}

export function formatCount(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) return '?';
  if (ms < 10_000) return `${(ms / 1000).toFixed(1)}s`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${String(seconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, '0')}m`;
}
