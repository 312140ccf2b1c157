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

/** A line redrawn in place on a terminal, with lines written above it; import's bar and migrate's use it. */
export interface LiveLine {
  /** Whether `out` is a terminal: when it is not, `show` writes nothing and callers print plain lines. */
  readonly live: boolean;
  show(line: string): void;
  /** A line of its own above the live one (or in the log). */
  above(line: string): void;
  /** Leaves the terminal on a fresh line. */
  finish(): void;
}

export function createLiveLine(out: Output): LiveLine {
  const live = out.isTTY === true;
  let current: string | null = null;
  const draw = (): void => {
    if (current === null) return;
    const line = out.columns && current.length >= out.columns ? current.slice(0, out.columns - 1) : current;
    out.write(CLEAR_LINE + line);
  };
  return {
    live,
    show(line) {
      current = line;
      if (live) draw();
    },
    above(line) {
      // The line goes above the live one, which is then redrawn beneath it.
      if (live && current !== null) out.write(CLEAR_LINE);
      out.write(line + '\n');
      if (live) draw();
    },
    finish() {
      if (live && current !== null) out.write(CLEAR_LINE);
      current = null;
    },
  };
}

/** `fraction` (0 to 1) as a bar `width` characters wide. */
export function barOf(fraction: number, width: number): string {
  const filled = Math.round(Math.min(1, Math.max(0, fraction)) * width);
  return FILLED.repeat(filled) + EMPTY.repeat(width - filled);
}

/**
 * Import progress on stderr: a live bar (percent of bytes across all files, papers/s, ETA) when it is a
 * terminal, and one plain line per finished file otherwise, so logs and CI output stay readable.
 */
export function createProgressBar(out: Output, options: ProgressBarOptions = {}): ProgressBar {
  const now = options.now ?? (() => new Date());
  const barWidth = options.barWidth ?? 24;
  const startedAt = now().getTime();
  const line = createLiveLine(out);

  return {
    update(progress) {
      if (line.live) line.show(renderProgress(progress, now().getTime() - startedAt, barWidth));
    },
    fileDone(file) {
      line.above(describeFile(file));
    },
    note(text) {
      line.above(text);
    },
    finish() {
      line.finish();
    },
  };
}

export function renderProgress(progress: ImportProgress, elapsedMs: number, barWidth: number): string {
  const fraction = progress.bytesTotal > 0 ? Math.min(1, progress.bytesRead / progress.bytesTotal) : 1;
  const bar = barOf(fraction, barWidth);
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
