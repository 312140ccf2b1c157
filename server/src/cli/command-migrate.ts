import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { parseDatabaseUrl } from '../config.ts';
import { QuireError, errorMessage, redactedUrl } from '../errors.ts';
import { barOf, createLiveLine, formatCount, formatDuration } from '../ingest/progress-bar.ts';
import { COPIED_TABLES, DERIVED_TABLES, keyOf, type CopiedTable } from '../store/copy-rows.ts';
import { CopySource } from '../store/copy-source.ts';
import { CopyTarget, type TableProgress } from '../store/copy-target.ts';
import { writeLine, type CliContext } from './cli-context.ts';

const USAGE =
  'Usage: quire migrate --from sqlite:PATH --to postgres://user@host:port/database [--batch-size N]';
const DEFAULT_BATCH = 500;
/** Without a terminal, a plain line each time the copy passes another tenth: readable in a log. */
const PLAIN_STEP = 0.1;

interface MigrateArgs {
  from: string;
  to: string;
  batchSize: number;
}

/**
 * `quire migrate --from sqlite:PATH --to postgres://…` (issue 13): copies a whole SQLite installation
 * (papers, tags with the hierarchy and topic hashes they were made with, which papers wait to be tagged,
 * harvest checkpoints and the ingest log; groups, invites with their inviters, calendar feeds, every
 * group's update log) into PostgreSQL in batches, each committed with where the copy stands, so a killed
 * copy run again continues where it stopped. Ends by comparing each table's count, what PostgreSQL derived
 * (category rows, topic closure rows, per-day counts), and each group's rows, bytes and numbering.
 */
export async function runMigrate(ctx: CliContext): Promise<number> {
  let args: MigrateArgs;
  try {
    args = parseMigrateArgs(ctx);
  } catch (err) {
    ctx.stderr.write(`${errorMessage(err)}\n${USAGE}\n`);
    return 2;
  }
  const source = CopySource.open(args.from);
  let target: CopyTarget;
  try {
    target = await openTarget(args.to);
  } catch (err) {
    source.close();
    throw err;
  }
  try {
    return await migrate(ctx, source, target, args);
  } finally {
    source.close();
    await target.close();
  }
}

function parseMigrateArgs(ctx: CliContext): MigrateArgs {
  const { values, positionals } = parseArgs({
    args: ctx.args,
    options: {
      from: { type: 'string' },
      to: { type: 'string' },
      'batch-size': { type: 'string' },
    },
    allowPositionals: true,
  });
  if (positionals.length > 0) throw new QuireError('bad-input', `quire migrate takes no ${positionals[0]}.`);
  const batchSize = values['batch-size'] === undefined ? DEFAULT_BATCH : Number(values['batch-size']);
  if (!Number.isInteger(batchSize) || batchSize < 1) {
    throw new QuireError(
      'bad-input',
      `--batch-size must be a whole number of rows above 0, not ${values['batch-size']}.`,
    );
  }
  return {
    from: sqlitePath(values.from ?? `sqlite:${ctx.dbPath}`),
    to: postgresUrl(values.to ?? ctx.env.QUIRE_DATABASE_URL),
    batchSize,
  };
}

/** `sqlite:PATH` (or a bare path) to the absolute path of an existing file. */
function sqlitePath(from: string): string {
  if (/^postgres(ql)?:/i.test(from)) {
    throw new QuireError(
      'bad-input',
      `--from ${redactedUrl(from)}: quire migrate copies from SQLite to PostgreSQL only; give --from sqlite:PATH.`,
    );
  }
  if (!/^sqlite:/i.test(from) && /^[a-z][a-z0-9+.-]+:\/\//i.test(from)) {
    throw new QuireError(
      'bad-input',
      `--from ${redactedUrl(from)}: not a SQLite file; give --from sqlite:PATH, e.g. sqlite:./data/quire.db.`,
    );
  }
  const path = resolve(from.replace(/^sqlite:(\/\/)?/i, ''));
  if (!existsSync(path)) {
    throw new QuireError(
      'bad-input',
      `--from: there is no SQLite database at ${path}; give the file quire serve uses (--db or QUIRE_DB, data/quire.db by default) as --from sqlite:PATH.`,
    );
  }
  return path;
}

function postgresUrl(to: string | undefined): string {
  if (!to)
    throw new QuireError(
      'bad-input',
      '--to is missing: give the PostgreSQL to copy into, --to postgres://user@host:port/database.',
    );
  try {
    parseDatabaseUrl(to);
  } catch (err) {
    throw new QuireError('bad-input', `--to: ${errorMessage(err).replace(/^QUIRE_DATABASE_URL /, '')}`);
  }
  return to;
}

async function openTarget(url: string): Promise<CopyTarget> {
  try {
    return await CopyTarget.open(url);
  } catch (err) {
    throw new QuireError(
      'store-error',
      `${errorMessage(err).replace('(QUIRE_DATABASE_URL)', '(--to)')} The database must exist already (createdb, or CREATE DATABASE as its owner).`,
      { cause: err },
    );
  }
}

async function migrate(
  ctx: CliContext,
  source: CopySource,
  target: CopyTarget,
  args: MigrateArgs,
): Promise<number> {
  const where = redactedUrl(args.to);
  const run = await target.run();
  if (run && run.source !== args.from) {
    throw new QuireError(
      'bad-input',
      `${where} holds a migration from ${run.source}, not ${args.from}: migrate into an empty database, or run again with --from sqlite:${run.source} to finish that one.`,
    );
  }
  if (!run && !(await target.isEmpty())) {
    throw new QuireError(
      'bad-input',
      `${where} already holds groups or papers that no quire migrate wrote: copying into it could mix two installations. Give an empty database as --to.`,
    );
  }
  const progress = await target.progress();
  if (run?.finishedAt) {
    writeLine(
      ctx.stderr,
      `${where} holds a finished migration from ${args.from} (${run.finishedAt}): checking it.`,
    );
  } else if (run) {
    const copied = [...progress.values()].reduce((n, p) => n + p.copied, 0);
    writeLine(
      ctx.stderr,
      `Resuming the migration from ${args.from} started ${run.startedAt}: ${formatCount(copied)} rows were copied before it stopped.`,
    );
  } else {
    await target.begin(args.from, new Date().toISOString());
  }

  const totals = new Map(COPIED_TABLES.map((t) => [t, source.count(t)]));
  const total = [...totals.values()].reduce((a, b) => a + b, 0);
  const meter = progressMeter(
    ctx,
    total,
    [...progress.values()].reduce((n, p) => n + p.copied, 0),
  );
  for (const table of COPIED_TABLES) {
    const state: TableProgress = progress.get(table) ?? { lastKey: '', copied: 0, done: false };
    if (state.done) continue;
    await copyTable(source, target, table, state, args.batchSize, (n) => meter.advance(n, table));
    meter.tableDone(table, state.copied);
  }
  meter.finish();
  if (!run?.finishedAt) await target.finish(new Date().toISOString());

  const problems = await verify(source, target, totals);
  if (problems.length > 0) {
    for (const problem of problems) writeLine(ctx.stderr, `migrate: ${problem}`);
    writeLine(
      ctx.stderr,
      `The copy in ${where} does not match ${args.from}. Was a server writing to either meanwhile? Stop it, empty the database and migrate again.`,
    );
    return 1;
  }
  const n = (table: CopiedTable) => formatCount(totals.get(table) ?? 0);
  writeLine(
    ctx.stdout,
    `Copied from ${args.from} to ${where}: ${n('papers')} papers, ${n('paper_tags')} tags, ${n('ingest_log')} ingest log entries; ` +
      `${n('groups')} groups, ${n('group_invites')} invites, ${n('calendar_feeds')} calendar feeds, ${n('group_updates')} updates; ` +
      `counts, per-day topic counts and every group's updates (rows, bytes, numbering) verified.`,
  );
  return 0;
}

async function copyTable(
  source: CopySource,
  target: CopyTarget,
  table: CopiedTable,
  state: TableProgress,
  batchSize: number,
  advanced: (rows: number) => void,
): Promise<void> {
  for (;;) {
    const rows = source.page(table, state.lastKey, batchSize);
    const last = rows.at(-1);
    state.copied += rows.length;
    if (last) state.lastKey = keyOf(table, last);
    // A page may be cut short by its bytes, so only an empty one says the table is done.
    state.done = rows.length === 0;
    await target.writeBatch(table, rows, state);
    advanced(rows.length);
    if (state.done) return;
  }
}

interface Meter {
  advance(rows: number, table: CopiedTable): void;
  tableDone(table: CopiedTable, rows: number): void;
  finish(): void;
}

/** The bar with ETA on a terminal (import's live line); a plain line each tenth otherwise. */
function progressMeter(ctx: CliContext, total: number, already: number): Meter {
  const line = createLiveLine(ctx.stderr);
  const startedAt = Date.now();
  let copied = already;
  let plainShown = Math.floor(fractionOf(copied, total) / PLAIN_STEP);
  return {
    advance(rows, table) {
      copied += rows;
      const fraction = fractionOf(copied, total);
      const percent = `${Math.floor(fraction * 100)}%`;
      if (line.live) {
        const elapsed = Date.now() - startedAt;
        const thisRun = copied - already;
        const rate = elapsed > 0 ? (thisRun * 1000) / elapsed : 0;
        const eta = fraction >= 1 ? '0s' : rate > 0 ? formatDuration(((total - copied) / rate) * 1000) : '?';
        line.show(
          `${barOf(fraction, 24)} ${percent.padStart(4)}  ${formatCount(copied)} of ${formatCount(total)} rows  ${formatCount(rate)} rows/s  ETA ${eta}  ${table}`,
        );
      } else if (Math.floor(fraction / PLAIN_STEP) > plainShown) {
        plainShown = Math.floor(fraction / PLAIN_STEP);
        writeLine(
          ctx.stderr,
          `migrate: ${percent} (${formatCount(copied)} of ${formatCount(total)} rows), copying ${table}`,
        );
      }
    },
    tableDone(table, rows) {
      line.above(`${table}: ${formatCount(rows)} rows copied`);
    },
    finish() {
      line.finish();
    },
  };
}

const fractionOf = (done: number, total: number): number => (total > 0 ? Math.min(1, done / total) : 1);

/** What differs between the two: empty when the copy is whole. */
async function verify(
  source: CopySource,
  target: CopyTarget,
  totals: Map<CopiedTable, number>,
): Promise<string[]> {
  const problems: string[] = [];
  for (const table of COPIED_TABLES) {
    const want = totals.get(table) ?? 0;
    const have = await target.count(table);
    if (have !== want)
      problems.push(`${table}: ${formatCount(want)} rows in SQLite, ${formatCount(have)} in PostgreSQL`);
  }
  const sourceDerived = source.derivedTotals();
  const targetDerived = await target.derivedTotals();
  for (const table of DERIVED_TABLES) {
    const want = sourceDerived.get(table) ?? { rows: 0, sum: 0 };
    const have = targetDerived.get(table) ?? { rows: 0, sum: 0 };
    if (want.rows !== have.rows || want.sum !== have.sum)
      problems.push(
        `${table} (derived): ${formatCount(want.rows)} rows adding up to ${formatCount(want.sum)} in SQLite, ${formatCount(have.rows)} adding up to ${formatCount(have.sum)} in PostgreSQL`,
      );
  }
  const sourceUpdates = source.updateTotals();
  const targetUpdates = await target.updateTotals();
  for (const [groupId, t] of targetUpdates) {
    const s = sourceUpdates.get(groupId) ?? { rows: 0, bytes: 0 };
    // Copied into an empty database, a group's rows are numbered 1…n, and its counter stands at n.
    if (t.rows !== s.rows || t.bytes !== s.bytes || t.maxSeq !== s.rows || t.updateSeq !== s.rows) {
      problems.push(
        `group ${groupId}: ${s.rows} updates (${s.bytes} bytes) in SQLite, ${t.rows} (${t.bytes} bytes, last number ${t.maxSeq}, counter ${t.updateSeq}) in PostgreSQL`,
      );
    }
  }
  return problems;
}
