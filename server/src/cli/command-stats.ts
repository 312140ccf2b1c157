import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { checkedUrl, configFromEnv, parseDatabaseUrl } from '../config.ts';
import { QuireError, errorMessage } from '../errors.ts';
import { formatCount } from '../ingest/progress-bar.ts';
import type { IngestRecord, IngestStatus } from '../store/harvest-state.ts';
import type { PaperStats } from '../store/paper-store.ts';
import { openStoresAt, type StoreSource } from '../store/stores.ts';

export interface StatsCommandContext {
  dbPath: string;
  args: string[];
  /** QUIRE_DATABASE_URL is read from here (the process's environment when run from the CLI). */
  env?: NodeJS.ProcessEnv;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

export interface HarvestSummary {
  source: string;
  startedAt: string;
  finishedAt: string | null;
  durationMs: number | null;
  status: IngestStatus;
  inserted: number;
  updated: number;
  unchanged: number;
  skipped: number;
  errors: number;
}

export interface StatsOutput extends PaperStats {
  lastHarvest: HarvestSummary | null;
}

const USAGE = 'Usage: quire stats [--json] [--database-url URL]';
// The corpus has over a hundred primary categories; a terminal table needs only the head of the list.
const SHOWN_CATEGORIES = 25;

/**
 * `quire stats [--json] [--database-url URL]`: what the database holds (the SQLite file, or PostgreSQL with
 * a database address or QUIRE_DATABASE_URL). --json prints exactly one JSON object.
 */
export async function runStats(ctx: StatsCommandContext): Promise<number> {
  let json: boolean;
  let source: StoreSource;
  try {
    const { values } = parseArgs({
      args: ctx.args,
      options: { json: { type: 'boolean' }, 'database-url': { type: 'string' } },
      strict: true,
    });
    json = values.json ?? false;
    const url = values['database-url']
      ? checkedUrl(values['database-url'], parseDatabaseUrl)
      : configFromEnv(ctx.env ?? {}).databaseUrl;
    source = url ? { engine: 'postgres', databaseUrl: url } : { engine: 'sqlite', dbPath: ctx.dbPath };
  } catch (err) {
    ctx.stderr.write(`${errorMessage(err)}\n${USAGE}\n`);
    return 2;
  }
  let output: StatsOutput;
  try {
    output = await readStats(source);
  } catch (err) {
    ctx.stderr.write(`${errorMessage(err)}\n`);
    return 1;
  }
  ctx.stdout.write(json ? `${JSON.stringify(output)}\n` : renderStats(output));
  return 0;
}

export async function readStats(source: StoreSource): Promise<StatsOutput> {
  // Reading stats must not leave an empty database behind a mistyped --db path.
  if (source.engine === 'sqlite' && source.dbPath !== ':memory:' && !existsSync(source.dbPath)) {
    throw new QuireError(
      'not-found',
      `There is no database at ${source.dbPath}. Check --db (or QUIRE_DB), or fill one with \`pnpm quire import\` or \`pnpm quire harvest\`.`,
    );
  }
  const { store } = await openStoresAt(source);
  try {
    const [stats, [harvest]] = await Promise.all([
      store.papers.stats(),
      store.ingests.recentIngests(1, 'harvest'),
    ]);
    return { ...stats, lastHarvest: harvest ? summariseHarvest(harvest) : null };
  } finally {
    await store.close();
  }
}

function summariseHarvest(record: IngestRecord): HarvestSummary {
  return {
    source: record.source,
    startedAt: record.startedAt,
    finishedAt: record.finishedAt,
    durationMs: record.durationMs,
    status: record.status,
    inserted: record.inserted,
    updated: record.updated,
    unchanged: record.unchanged,
    skipped: record.skipped,
    errors: record.errors.length,
  };
}

export function renderStats(stats: StatsOutput): string {
  const lines = [
    `Papers         ${formatCount(stats.papers)}`,
    `First listing  ${stats.firstListing ?? '—'}`,
    `Last listing   ${stats.lastListing ?? '—'}`,
    `Last harvest   ${stats.lastHarvest ? describeHarvest(stats.lastHarvest) : 'never'}`,
  ];
  const all = Object.entries(stats.byPrimaryCategory);
  const categories = all.slice(0, SHOWN_CATEGORIES);
  if (categories.length > 0) {
    const nameWidth = Math.max(...categories.map(([name]) => name.length));
    const countWidth = Math.max(...categories.map(([, n]) => formatCount(n).length));
    lines.push('', 'By primary category');
    for (const [name, n] of categories) {
      const share = stats.papers > 0 ? ((n * 100) / stats.papers).toFixed(1) : '0.0';
      lines.push(
        `  ${name.padEnd(nameWidth)}  ${formatCount(n).padStart(countWidth)}  ${share.padStart(5)}%`,
      );
    }
    const rest = all.slice(SHOWN_CATEGORIES);
    if (rest.length > 0) {
      const papers = rest.reduce((sum, [, n]) => sum + n, 0);
      lines.push(
        `  …and ${rest.length} more categories with ${formatCount(papers)} papers (--json lists all)`,
      );
    }
  }
  return lines.join('\n') + '\n';
}

function describeHarvest(h: HarvestSummary): string {
  return (
    `${h.status} at ${h.finishedAt ?? h.startedAt} from ${h.source}: ${formatCount(h.inserted)} new, ` +
    `${formatCount(h.updated)} updated, ${formatCount(h.unchanged)} unchanged` +
    (h.errors > 0 ? `, ${formatCount(h.errors)} errors` : '')
  );
}
