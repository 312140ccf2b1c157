import type { QuireErrorCode } from '../errors.ts';

/** A dump line (or OAI page) that was skipped, with where it was. */
export interface LineError {
  /** 1-based line number in the decompressed file; 0 for an XML page as a whole. */
  line: number;
  message: string;
}

export interface FileReport {
  path: string;
  /** "jsonl", "jsonl.br", "oai-xml", …; null when the file could not be opened. */
  format: string | null;
  /** Compressed size on disk. */
  bytes: number;
  /** Lines read (JSON Lines) or records on the page (OAI-PMH); a resumed file counts its lines from the top. */
  lines: number;
  /** Lines an earlier import of this file had stored before it stopped, passed over this time; 0 if none. */
  resumedAfterLine: number;
  inserted: number;
  updated: number;
  unchanged: number;
  /** Lines that were malformed and left out; the rest of the file was still stored. */
  skipped: number;
  /** The first MAX_ERRORS_PER_FILE problems; `errorCount` counts them all. */
  errors: LineError[];
  errorCount: number;
  status: 'ok' | 'failed';
  /** Why a failed file was not (fully) imported. Batches committed before the failure stay stored. */
  failure: { code: QuireErrorCode; message: string } | null;
  durationMs: number;
}

export interface ImportTotals {
  files: number;
  failedFiles: number;
  lines: number;
  inserted: number;
  updated: number;
  unchanged: number;
  skipped: number;
}

export interface ImportReport {
  files: FileReport[];
  /** Files left out of folders (a manifest, a README), one sentence each. */
  notes: string[];
  totals: ImportTotals;
  durationMs: number;
  /** Only when the import was asked to tag (ImportOptions.tagWith). */
  tagging?: ImportTaggingReport;
  /** When the import's end rebuilt the search index's segments as one (see ImportWrites.afterBulkLoad): ms. */
  indexCompactMs?: number;
  /** CPU time by thread, where the system says (Linux): where an import's time goes. */
  threadCpuMs?: ImportThreadCpu;
}

/** CPU time (ms) of each thread of an import. */
export interface ImportThreadCpu {
  /** The calling thread: reads and splits the files, writes every batch. */
  main: number;
  /** The parse thread (null: none ran); the tagging thread (null: none ran). */
  parse: number | null;
  tag: number | null;
}

/** What an import did about tags. */
export interface ImportTaggingReport {
  /** Papers tagged as they were stored; the re-tag after the import tags the rest that are stale. */
  tagged: number;
  /** Why the import tagged nothing itself, when it was asked to (null when it tagged). */
  leftToRetag: string | null;
}

export const MAX_ERRORS_PER_FILE = 100;

export function emptyFileReport(path: string, bytes: number): FileReport {
  return {
    path,
    format: null,
    bytes,
    lines: 0,
    resumedAfterLine: 0,
    inserted: 0,
    updated: 0,
    unchanged: 0,
    skipped: 0,
    errors: [],
    errorCount: 0,
    status: 'ok',
    failure: null,
    durationMs: 0,
  };
}

export function noteError(report: FileReport, line: number, message: string): void {
  report.errorCount++;
  if (report.errors.length < MAX_ERRORS_PER_FILE) report.errors.push({ line, message });
}

export function totalsOf(files: readonly FileReport[]): ImportTotals {
  const totals: ImportTotals = {
    files: files.length,
    failedFiles: 0,
    lines: 0,
    inserted: 0,
    updated: 0,
    unchanged: 0,
    skipped: 0,
  };
  for (const file of files) {
    if (file.status === 'failed') totals.failedFiles++;
    totals.lines += file.lines;
    totals.inserted += file.inserted;
    totals.updated += file.updated;
    totals.unchanged += file.unchanged;
    totals.skipped += file.skipped;
  }
  return totals;
}

/** Papers the store took in (whether new, changed or already as given). */
export function papersOf(report: Pick<FileReport, 'inserted' | 'updated' | 'unchanged'>): number {
  return report.inserted + report.updated + report.unchanged;
}
