import { basename } from 'node:path';
import { defaultTaxonomy } from '@quire/core';
import { DEFAULT_CONFIG, checkedUrl, configFromEnv, parseDatabaseUrl } from '../config.ts';
import { QuireError, errorMessage } from '../errors.ts';
import { importInto, type ImportReport } from '../ingest/import-dumps.ts';
import { papersOf } from '../ingest/import-report.ts';
import { createProgressBar, formatCount, formatDuration } from '../ingest/progress-bar.ts';
import { sqliteImportWrites, type ImportWrites } from '../store/import-writes.ts';
import { openIngestOnPostgres } from '../store/ingest-on-postgres.ts';
import { openStore } from '../store/open-store.ts';
import type { TagStore } from '../store/tag-store.ts';
import { tagAfterIngest } from './command-topics.ts';

export interface ImportCommandContext {
  dbPath: string;
  args: string[];
  /** QUIRE_IMPORT_MAX_LINE_BYTES, QUIRE_IMPORT_MAX_XML_BYTES and QUIRE_DATABASE_URL are read from here. */
  env?: NodeJS.ProcessEnv;
  /**
   * The PostgreSQL to import into, or null for the SQLite file at `dbPath`, whatever QUIRE_DATABASE_URL
   * says (`--database-url` still wins). Unset: QUIRE_DATABASE_URL decides.
   */
  databaseUrl?: string | null;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
}

const USAGE =
  'Usage: quire import [--batch-size N] [--no-tag] [--json] [--database-url postgres://…] <file or folder>…';
const SHOWN_SKIPPED_LINES = 20;

interface ImportArgs {
  paths: string[];
  batchSize: number | undefined;
  json: boolean;
  /** Leave tagging to `quire tag` or the server's start: a 2.7M-paper snapshot tags for a quarter of an hour. */
  tag: boolean;
  /** --database-url: import into this PostgreSQL rather than the SQLite file. */
  databaseUrl: string | undefined;
}

/** Where an import writes: the SQLite file, or PostgreSQL. */
interface ImportEngine {
  writes: ImportWrites;
  tags: TagStore;
  /** As the summary names it: the file's path, or the database's address without its password. */
  where: string;
  /** The command that tags what an import left untagged, in this store. */
  tagCommand: string;
  close(): Promise<void>;
}

/**
 * `quire import <path…>`: dumps, files or folders into the database. Prints a summary (or the whole report
 * with --json) on stdout and progress on stderr. Exit 1 when a file could not be read or imported. A JSON
 * Lines file whose earlier import was killed continues after the lines that import stored.
 */
export async function runImport(ctx: ImportCommandContext): Promise<number> {
  let args: ImportArgs;
  try {
    args = parseImportArgs(ctx.args);
  } catch (err) {
    ctx.stderr.write(`${errorMessage(err)}\n${USAGE}\n`);
    return 2;
  }
  let limits;
  let engine: ImportEngine;
  try {
    limits = { ...DEFAULT_CONFIG, ...configFromEnv(ctx.env ?? {}) };
    engine = await openEngine(ctx.dbPath, args.databaseUrl ?? ctx.databaseUrl ?? limits.databaseUrl);
  } catch (err) {
    ctx.stderr.write(`${errorMessage(err)}\n`);
    return 1;
  }
  const bar = createProgressBar(ctx.stderr);
  try {
    const report = await importInto(engine.writes, args.paths, {
      batchSize: args.batchSize,
      maxLineBytes: limits.importMaxLineBytes,
      maxXmlBytes: limits.importMaxXmlBytes,
      // Tagged as imported where that gives the re-tag's tags; the re-tag below does the rest.
      ...(args.tag ? { tagWith: defaultTaxonomy() } : {}),
      onProgress: (progress) => bar.update(progress),
      onFileDone: (file) => bar.fileDone(file),
      onResume: (path, afterLine) =>
        bar.note(
          `${basename(path)}: resuming after line ${formatCount(afterLine)}, which an earlier import stored before it stopped.`,
        ),
    });
    bar.finish();
    ctx.stdout.write(args.json ? `${JSON.stringify(report)}\n` : summarise(report, engine.where));
    if (args.tag) await tagAfterIngest(ctx, engine.tags);
    else {
      ctx.stderr.write(
        `Tags not updated (--no-tag): \`${engine.tagCommand}\` brings them up to date, and so does the server after it starts.\n`,
      );
    }
    return report.totals.failedFiles > 0 ? 1 : 0;
  } catch (err) {
    bar.finish();
    ctx.stderr.write(`${errorMessage(err)}\n`);
    return 1;
  } finally {
    await engine.close();
  }
}

async function openEngine(dbPath: string, databaseUrl: string | null): Promise<ImportEngine> {
  if (databaseUrl) {
    const pg = await openIngestOnPostgres(databaseUrl);
    return {
      writes: pg.imports,
      tags: pg.tags,
      where: pg.where,
      tagCommand: 'pnpm quire tag --database-url <the same address>',
      close: () => pg.close(),
    };
  }
  const store = openStore(dbPath);
  return {
    writes: sqliteImportWrites(store),
    tags: store.tags,
    where: dbPath,
    tagCommand: 'pnpm quire tag',
    close: () => Promise.resolve(store.close()),
  };
}

export function parseImportArgs(argv: readonly string[]): ImportArgs {
  const out: ImportArgs = {
    paths: [],
    batchSize: undefined,
    json: false,
    tag: true,
    databaseUrl: undefined,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--json') {
      out.json = true;
    } else if (arg === '--no-tag') {
      out.tag = false;
    } else if (arg === '--batch-size' || arg.startsWith('--batch-size=')) {
      const value = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[++i];
      const n = Number(value);
      if (!Number.isInteger(n) || n < 1) {
        throw new QuireError(
          'bad-input',
          `--batch-size needs a whole number of at least 1, not "${value ?? ''}".`,
        );
      }
      out.batchSize = n;
    } else if (arg === '--database-url' || arg.startsWith('--database-url=')) {
      const value = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[++i];
      out.databaseUrl = checkedUrl(value ?? '', parseDatabaseUrl);
    } else if (arg === '--') {
      out.paths.push(...argv.slice(i + 1));
      break;
    } else if (arg.startsWith('--')) {
      throw new QuireError('bad-input', `Unknown option ${arg} for import.`);
    } else {
      out.paths.push(arg);
    }
  }
  if (out.paths.length === 0)
    throw new QuireError('bad-input', 'Name at least one dump file or folder to import.');
  return out;
}

export function summarise(report: ImportReport, where: string): string {
  const { totals } = report;
  const papers = papersOf(totals);
  const rate = report.durationMs > 0 ? (papers * 1000) / report.durationMs : 0;
  const lines = [
    `Imported ${plural(totals.files - totals.failedFiles, 'file')} into ${where} in ${formatDuration(report.durationMs)}` +
      (totals.failedFiles > 0 ? `; ${plural(totals.failedFiles, 'file')} failed.` : '.'),
    `  papers:  ${formatCount(totals.inserted)} new, ${formatCount(totals.updated)} updated, ` +
      `${formatCount(totals.unchanged)} unchanged (${formatCount(papers)} read, ${formatCount(rate)} papers/s)`,
  ];
  if (totals.skipped > 0) {
    lines.push(`  skipped: ${plural(totals.skipped, 'malformed line')}`);
    let shown = 0;
    for (const file of report.files) {
      for (const error of file.errors) {
        if (shown++ >= SHOWN_SKIPPED_LINES) break;
        lines.push(`    ${file.path} line ${error.line}: ${error.message}`);
      }
    }
    if (totals.skipped > SHOWN_SKIPPED_LINES) {
      lines.push(`    …and ${formatCount(totals.skipped - SHOWN_SKIPPED_LINES)} more (see the ingest log).`);
    }
  }
  const failed = report.files.filter((file) => file.status === 'failed');
  if (failed.length > 0) {
    lines.push('  failed:');
    for (const file of failed) lines.push(`    ${file.failure?.message ?? file.path}`);
  }
  for (const file of report.files) {
    if (file.resumedAfterLine > 0) {
      lines.push(
        `  resumed: ${file.path} after line ${formatCount(file.resumedAfterLine)} (stored by an earlier import that stopped)`,
      );
    }
  }
  if (report.tagging) {
    const { tagged, leftToRetag } = report.tagging;
    lines.push(
      leftToRetag === null
        ? `  tagged:  ${formatCount(tagged)} papers as they were stored`
        : `  tagged:  none as they were stored (${leftToRetag}): the re-tag tags them`,
    );
  }
  for (const note of report.notes) lines.push(`  note: ${note}`);
  return lines.join('\n') + '\n';
}

function plural(n: number, noun: string): string {
  return `${formatCount(n)} ${noun}${n === 1 ? '' : 's'}`;
}
