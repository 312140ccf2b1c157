import { normalisePaper, type PaperEntity, type Taxonomy } from '@quire/core';
import { QuireError, errorMessage } from '../errors.ts';
import { parseOaiResponse } from '../sources/oai-pmh.ts';
import type { IngestErrorNote } from '../store/harvest-state.ts';
import {
  sqliteImportWrites,
  type CheckpointChange,
  type ImportWrites,
  type PreparedExtras,
} from '../store/import-writes.ts';
import type { Store } from '../store/open-store.ts';
import type { KnownTerms } from '../store/search-index-schema.ts';
import type { KnownTags } from '../store/tag-store.ts';
import { threadCpuMs } from '../threads/thread-cpu.ts';
import { TagPool } from '../topics/tag-pool.ts';
import { expandPaths, unreadable, type DumpCandidate } from './dump-files.ts';
import {
  emptyFileReport,
  noteError,
  totalsOf,
  type FileReport,
  type ImportReport,
  type LineError,
} from './import-report.ts';
import {
  checkpointKey,
  identify,
  resumePoint,
  type FileIdentity,
  type ImportCheckpoint,
} from './import-checkpoint.ts';
import { ProgressTicker, type ImportProgress } from './import-progress.ts';
import {
  DEFAULT_MAX_LINE_BYTES,
  DEFAULT_MAX_XML_BYTES,
  openDump,
  readAll,
  type OpenedDump,
} from './read-dump.ts';
import type { PreparedLine } from './prepare-lines.ts';
import { PrepareThread, prepareHere, type LinePreparer } from './prepare-thread.ts';
import { planImportTagging } from './import-tagging.ts';
import { splitLines, type LinePosition } from './split-lines.ts';

export type {
  FileReport,
  ImportReport,
  ImportThreadCpu,
  ImportTaggingReport,
  ImportTotals,
  LineError,
} from './import-report.ts';
export type { ImportProgress } from './import-progress.ts';

export interface ImportOptions {
  /** Called at most about ten times a second, and once as each file ends. */
  onProgress?: (progress: ImportProgress) => void;
  /** Called as each file ends, failed or not. */
  onFileDone?: (file: FileReport) => void;
  /** Called when a file continues after the lines an earlier, interrupted import of it stored. */
  onResume?: (path: string, afterLine: number) => void;
  /** Dump lines per store transaction (default: the engine's own, else 1,000). */
  batchSize?: number;
  /** Longest JSON Lines line, in bytes; a longer one is skipped and reported. */
  maxLineBytes?: number;
  /** Largest decompressed OAI-PMH page, in bytes; a larger one fails its file. */
  maxXmlBytes?: number;
  /**
   * When the files to import are at least this big on disk together, JSON Lines are parsed in a worker
   * thread while this one writes (0: always; Infinity: never). Below it, starting the thread would cost
   * more than it saves.
   */
  prepareThreadFromBytes?: number;
  /**
   * Tag the papers with this taxonomy as they are imported, each batch's tags stored in its transaction,
   * when that gives the tags a re-tag after the import would (see planImportTagging); otherwise, and
   * without it, imported papers stay stale for the re-tag.
   */
  tagWith?: Taxonomy;
  now?: () => Date;
}

const DEFAULT_BATCH_SIZE = 1000;
// About 5,000 corpus papers compressed, whose parsing takes longer than starting the thread.
const DEFAULT_PREPARE_THREAD_FROM_BYTES = 2 * 1024 * 1024;
// Batches prepared beyond the one being written: enough that the prepare thread never waits for work.
const PREPARED_AHEAD = 2;

interface ImportContext {
  store: ImportWrites;
  batchSize: number;
  maxLineBytes: number;
  maxXmlBytes: number;
  now: () => Date;
  progress: ProgressTicker;
  onResume: ((path: string, afterLine: number) => void) | undefined;
  /** What parses JSON Lines for this run. */
  preparer: () => LinePreparer;
  /** True when the preparer tags: its tags are then stored with their papers. */
  tagging: boolean;
  tagged: number;
}

/** A JSON Lines file's checkpoint: under which key, for which file, and where this run began. */
interface Resumable {
  key: string;
  identity: FileIdentity;
  from: LinePosition | undefined;
}

/**
 * Imports dump files and folders into the store: JSON Lines (the listing corpus, the Kaggle snapshot) plain,
 * gzip or brotli, streamed with constant memory in batches of `batchSize`; and saved OAI-PMH pages, one page
 * per transaction. A malformed line (not JSON, not a paper, longer than `maxLineBytes`, not UTF-8) is skipped
 * and reported; a file that cannot be read or recognised, or a page past `maxXmlBytes`, fails alone and the
 * import carries on with the next. Each file is recorded in the ingest log.
 */
export function importPaths(
  store: Store,
  paths: readonly string[],
  opts: ImportOptions = {},
): Promise<ImportReport> {
  return importInto(sqliteImportWrites(store), paths, opts);
}

/**
 * `importPaths` into either engine's writes (PostgreSQL's: store/pg/pg-import-writes.ts). An engine whose
 * batches cannot carry tags leaves every imported paper stale for the re-tag, and says why in the report.
 */
export async function importInto(
  store: ImportWrites,
  paths: readonly string[],
  opts: ImportOptions = {},
): Promise<ImportReport> {
  const batchSize = wholeNumber('The batch size', opts.batchSize ?? store.batchSize ?? DEFAULT_BATCH_SIZE);
  const maxLineBytes = wholeNumber(
    'The longest line to import (QUIRE_IMPORT_MAX_LINE_BYTES)',
    opts.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
  );
  const maxXmlBytes = wholeNumber(
    'The largest XML page to import (QUIRE_IMPORT_MAX_XML_BYTES)',
    opts.maxXmlBytes ?? DEFAULT_MAX_XML_BYTES,
  );
  const now = opts.now ?? (() => new Date());
  const started = now();
  const mainCpuFrom = threadCpuMs();
  const { files: candidates, notes } = await expandPaths(paths);
  const bytesTotal = candidates.reduce((sum, file) => sum + file.bytes, 0);
  const inThread = bytesTotal >= (opts.prepareThreadFromBytes ?? DEFAULT_PREPARE_THREAD_FROM_BYTES);
  const plan = !opts.tagWith
    ? null
    : store.noPreparedTags !== null
      ? { tagging: null, leftToRetag: store.noPreparedTags }
      : await planImportTagging(store.tags, opts.tagWith, now());
  const tagging = plan?.tagging ?? null;
  const here = prepareHere(tagging);
  // One parse thread and one tagging thread for the whole run, started by its first JSON Lines file.
  const preparing: { thread: PrepareThread | null; tagger: TagPool | null } = {
    thread: null,
    tagger: null,
  };
  const ctx: ImportContext = {
    store,
    batchSize,
    maxLineBytes,
    maxXmlBytes,
    now,
    progress: new ProgressTicker(opts.onProgress, now, candidates.length, bytesTotal),
    onResume: opts.onResume,
    preparer: () => {
      if (!inThread) return here;
      preparing.thread ??= new PrepareThread();
      if (tagging) preparing.tagger ??= new TagPool(1, tagging.taxonomy, tagging.stats);
      return taggedAfter(preparing.thread, preparing.tagger);
    },
    tagging: tagging !== null,
    tagged: 0,
  };
  const files: FileReport[] = [];
  const endBulkLoad = store.beginBulkLoad?.();
  let indexCompactMs: number | undefined;
  try {
    for (const candidate of candidates) {
      const report = await importFile(ctx, candidate);
      files.push(report);
      opts.onFileDone?.(report);
    }
    const written = files.reduce((n, f) => n + f.inserted + f.updated, 0);
    // Every paper is stored by now: a merge that fails (a full disk) leaves the index as it was, so it is
    // a note, not a failed import.
    try {
      indexCompactMs = (await store.afterBulkLoad?.(written)) ?? undefined;
    } catch (err) {
      notes.push(
        `the search index was not merged after the import (${errorMessage(err)}); searches still work`,
      );
    }
  } finally {
    endBulkLoad?.();
    await preparing.thread?.close();
    await preparing.tagger?.close();
  }
  const mainCpuTo = threadCpuMs();
  return {
    files,
    notes,
    totals: totalsOf(files),
    durationMs: now().getTime() - started.getTime(),
    ...(plan ? { tagging: { tagged: ctx.tagged, leftToRetag: plan.leftToRetag } } : {}),
    ...(indexCompactMs === undefined ? {} : { indexCompactMs }),
    ...(mainCpuFrom !== null && mainCpuTo !== null
      ? {
          threadCpuMs: {
            main: mainCpuTo - mainCpuFrom,
            parse: preparing.thread?.cpuMs ?? null,
            tag: preparing.tagger?.cpuMs ?? null,
          },
        }
      : {}),
  };
}

async function importFile(ctx: ImportContext, candidate: DumpCandidate): Promise<FileReport> {
  const report = emptyFileReport(candidate.path, candidate.bytes);
  const startedAt = ctx.now();
  // Logged before the first batch, so an import killed outright still shows on the status page.
  const logId = await ctx.store.startIngest('import', candidate.path, startedAt);
  ctx.progress.startFile(candidate.path, candidate.bytes);
  try {
    if (candidate.error) throw candidate.error;
    const resumable = await checkpointOf(ctx, candidate.path);
    const from = resumable.from;
    const dump = await openDump(
      candidate.path,
      (n, passedOver) => ctx.progress.addBytes(n, passedOver),
      from?.offset,
    );
    report.format = dump.format;
    if (from) {
      report.resumedAfterLine = from.line;
      ctx.onResume?.(candidate.path, from.line);
    }
    if (dump.kind === 'jsonl') await importLines(ctx, dump, report, resumable, ctx.preparer());
    else if (dump.kind === 'oai-xml') await importPage(ctx, dump, report);
  } catch (err) {
    report.status = 'failed';
    report.failure =
      err instanceof QuireError
        ? { code: err.code, message: err.message }
        : { code: 'store-error', message: `Importing ${candidate.path} failed: ${errorMessage(err)}` };
  }
  ctx.progress.finishFile();
  const finishedAt = ctx.now();
  report.durationMs = finishedAt.getTime() - startedAt.getTime();
  await ctx.store.finishIngest(logId, {
    finishedAt,
    inserted: report.inserted,
    updated: report.updated,
    unchanged: report.unchanged,
    skipped: report.skipped,
    errors: logNotes(report),
    status: report.status,
  });
  return report;
}

/** The file's identity and, when an earlier import of this very file stopped part way, where to go on. */
async function checkpointOf(ctx: ImportContext, path: string): Promise<Resumable> {
  const key = checkpointKey(path);
  let identity: FileIdentity;
  try {
    identity = await identify(path);
  } catch (err) {
    throw unreadable(path, err);
  }
  return {
    key,
    identity,
    from: resumePoint(await ctx.store.getCheckpoint<ImportCheckpoint>(key), identity),
  };
}

/** Lines read for one batch, sent to be prepared; written in the order they were read. */
interface LineBatch {
  texts: string[];
  /** The line number of each of `texts`. */
  lines: number[];
  /** Lines the splitter left out (too long, not UTF-8). */
  skipped: LineError[];
  /** Just past the batch's last line: where the file goes on once it is stored. */
  position: LinePosition;
  prepared: Promise<PreparedLine[]>;
}

/**
 * Each batch commits with the checkpoint that says how far the file is stored, and the last one clears it,
 * so a run killed at any moment leaves a checkpoint that is exactly true. Batches are prepared (parsed,
 * normalised, their search terms computed) up to PREPARED_AHEAD ahead of the one being written, so a
 * prepare thread works while this thread writes.
 */
async function importLines(
  ctx: ImportContext,
  dump: OpenedDump,
  report: FileReport,
  resumable: Resumable,
  preparer: LinePreparer,
): Promise<void> {
  const { key, identity } = resumable;
  let position: LinePosition = resumable.from ?? { line: 0, offset: 0 };
  report.lines = position.line;
  const ahead: LineBatch[] = [];
  let open: Omit<LineBatch, 'position' | 'prepared'> = { texts: [], lines: [], skipped: [] };
  const send = (): void => {
    const prepared = open.texts.length > 0 ? preparer.prepare(open.texts) : Promise.resolve([]);
    // Awaited when its turn to be written comes; until then a failure must not count as unhandled.
    prepared.catch(() => undefined);
    ahead.push({ ...open, position, prepared });
    open = { texts: [], lines: [], skipped: [] };
  };
  const write = async (batch: LineBatch, done: boolean): Promise<void> => {
    const prepared = await batch.prepared;
    const papers: PaperEntity[] = [];
    const known: KnownTerms = new Map();
    const knownTags: KnownTags | undefined = ctx.tagging ? new Map() : undefined;
    const errors = [...batch.skipped];
    for (const [i, result] of prepared.entries()) {
      if ('error' in result) {
        errors.push({ line: batch.lines[i] ?? 0, message: result.error });
        continue;
      }
      papers.push(result.paper);
      if (result.terms) known.set(result.paper.id, { from: result.paper, terms: result.terms });
      if (result.tags) knownTags?.set(result.paper.id, { from: result.paper, tags: result.tags });
    }
    for (const error of errors.sort((a, b) => a.line - b.line)) {
      report.skipped++;
      noteError(report, error.line, error.message);
    }
    const checkpoint: ImportCheckpoint = { path: report.path, ...identity, ...batch.position };
    await store(ctx, papers, report, done ? { key, clear: true } : { key, value: checkpoint }, {
      knownTerms: known,
      knownTags,
    });
  };
  for await (const run of splitLines(dump.bytes, ctx.maxLineBytes, position)) {
    for (const [i, line] of run.lines.entries()) {
      const current = run.first + i;
      position = { line: current, offset: run.ends[i] ?? position.offset };
      if (typeof line !== 'string') open.skipped.push({ line: current, message: line.skipped });
      else if (!isBlank(line)) {
        open.texts.push(line);
        open.lines.push(current);
      }
      if (open.texts.length < ctx.batchSize) continue;
      send();
      const next = ahead.length > PREPARED_AHEAD ? ahead.shift() : undefined;
      if (next) await write(next, false);
    }
    report.lines = position.line;
  }
  send();
  for (let next = ahead.shift(); next; next = ahead.shift()) await write(next, ahead.length === 0);
}

/**
 * Parsing in one thread and tagging in another (`tagger`, when the import tags): on two cores the writing thread, the parse thread and the
 * engine then share both, where tagging in the parse thread made that thread the import's pace while the
 * writing one waited. Each batch goes to the tagger as soon as it is parsed, so batches overlap.
 */
function taggedAfter(parse: LinePreparer, tagger: TagPool | null): LinePreparer {
  if (!tagger) return parse;
  return {
    prepare: async (lines) => {
      const prepared = await parse.prepare(lines);
      const papers = prepared.flatMap((line) => ('paper' in line ? [line.paper] : []));
      // A batch the engine fails on is stored untagged: its papers stay stale and the re-tag meets them.
      const tags = await tagger.tag(papers).catch(() => null);
      if (!tags) return prepared;
      let i = 0;
      return prepared.map((line) => ('paper' in line ? { ...line, tags: tags[i++] ?? [] } : line));
    },
    close: () => parse.close(),
  };
}

/** An OAI-PMH page is one unit: parsed and normalised whole before anything of it is stored. */
async function importPage(ctx: ImportContext, dump: OpenedDump, report: FileReport): Promise<void> {
  const page = parseOaiResponse(await readAll(dump.bytes, report.path, ctx.maxXmlBytes), report.path);
  // An empty list is normal flow for a harvest; any other OAI error means the saved page holds no records.
  if (page.error && page.error.code !== 'noRecordsMatch') {
    throw new QuireError(
      'oai-error',
      `${report.path} is an OAI-PMH error response (${page.error.code}: ${page.error.message}), with no records to import.`,
    );
  }
  report.lines = page.records.length;
  const papers: PaperEntity[] = [];
  for (const record of page.records) {
    try {
      papers.push(normalisePaper(record.paper));
    } catch (err) {
      throw new QuireError(
        'malformed-xml',
        `${report.path}: record ${record.identifier} is not a usable paper (${errorMessage(err)}), so nothing of this page was stored.`,
        { cause: err },
      );
    }
  }
  await store(ctx, papers, report);
}

/**
 * Stores `papers` and the file's `checkpoint` change in one transaction; progress is told once it
 * committed. `extras`: search terms and tags the prepare thread computed for these papers.
 */
async function store(
  ctx: ImportContext,
  papers: readonly PaperEntity[],
  report: FileReport,
  checkpoint: CheckpointChange | null = null,
  extras: PreparedExtras = {},
): Promise<void> {
  const counts = await ctx.store.storeBatch(papers, extras, checkpoint);
  report.inserted += counts.inserted;
  report.updated += counts.updated;
  report.unchanged += counts.unchanged;
  ctx.tagged += counts.tagged ?? 0;
  ctx.progress.addPapers(papers.length);
}

function wholeNumber(what: string, n: number): number {
  if (!Number.isInteger(n) || n < 1) {
    throw new QuireError('bad-input', `${what} must be a whole number of at least 1, not ${n}.`);
  }
  return n;
}

function isBlank(line: string): boolean {
  return line.length === 0 || line.trim().length === 0;
}

function logNotes(report: FileReport): IngestErrorNote[] {
  const notes: IngestErrorNote[] = report.errors.map(({ line, message }) => ({ line, message }));
  if (report.errorCount > report.errors.length) {
    notes.push({ message: `…and ${report.errorCount - report.errors.length} more malformed lines.` });
  }
  if (report.failure) notes.push({ message: report.failure.message });
  return notes;
}
