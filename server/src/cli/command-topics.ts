import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { defaultTaxonomy, normaliseArxivId } from '@quire/core';
import { checkedUrl, parseDatabaseUrl } from '../config.ts';
import { QuireError } from '../errors.ts';
import { openIngestOnPostgres } from '../store/ingest-on-postgres.ts';
import { openStore, type Store } from '../store/open-store.ts';
import type { TagStore } from '../store/tag-store.ts';
import { openTopics } from '../topics/open-topics.ts';
import { retag, type RetagReport } from '../topics/retag.ts';
import type { TopicService, TopicSummary } from '../topics/topic-service.ts';
import { baseConfig, writeLine, type CliContext } from './cli-context.ts';

const OPTIONS = {
  'as-of': { type: 'string' },
  weeks: { type: 'string' },
  json: { type: 'boolean' },
  full: { type: 'boolean' },
} as const;

async function withTopics<T>(
  ctx: CliContext,
  fn: (topics: TopicService, store: Store) => Promise<T>,
): Promise<T> {
  if (!existsSync(ctx.dbPath)) {
    throw new QuireError(
      'not-found',
      `There is no database at ${ctx.dbPath}. Check --db (or QUIRE_DB), or fill one with \`pnpm quire import\`.`,
    );
  }
  const store = openStore(ctx.dbPath);
  try {
    const { topics, retagged } = await openTopics(store, undefined, {
      onProgress: progressTo(ctx),
    });
    reportRetag(ctx, retagged);
    return await fn(topics, store);
  } finally {
    store.close();
  }
}

function progressTo(ctx: Pick<CliContext, 'stderr'>): (done: number, total: number) => void {
  return (done, total) => {
    if (ctx.stderr.isTTY)
      ctx.stderr.write(
        `\r  tagging ${done.toLocaleString('en-US')} / ${total.toLocaleString('en-US')} papers`,
      );
  };
}

function reportRetag(ctx: Pick<CliContext, 'stderr'>, r: RetagReport): void {
  if (r.stalePapers === 0 && r.changedTopics.length === 0 && r.removedTopics.length === 0) return;
  if (ctx.stderr.isTTY) ctx.stderr.write('\n');
  writeLine(
    ctx.stderr,
    `Tagged ${r.stalePapers.toLocaleString('en-US')} new or changed papers and re-ran ${r.changedTopics.length} changed topics over ${r.papers.toLocaleString('en-US')} papers (taxonomy ${r.taxonomyVersion}) in ${(r.durationMs / 1000).toFixed(1)} s.`,
  );
}

function weeksOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 520)
    throw new QuireError('bad-input', `--weeks must be a whole number from 1 to 520, not "${value}".`);
  return n;
}

function line(t: TopicSummary): string {
  return `${t.name} (${t.slug}): ${t.momentum.sentence} ${t.momentum.total.toLocaleString('en-US')} papers in all.`;
}

export function runTopic(ctx: CliContext): Promise<number> {
  const { values, positionals } = parseArgs({
    args: ctx.args,
    options: OPTIONS,
    allowPositionals: true,
    strict: true,
  });
  const [slug] = positionals;
  if (!slug || positionals.length > 1)
    throw new QuireError('bad-input', 'Give one topic slug, e.g. `pnpm quire topic rl-for-llm-agents`.');
  const weeks = weeksOf(values.weeks);
  return withTopics(ctx, async (topics) => {
    const topic = await topics.topic(slug, {
      ...(values['as-of'] ? { asOf: values['as-of'] } : {}),
      ...(weeks ? { weeks } : {}),
    });
    if (values.json) writeLine(ctx.stdout, JSON.stringify(topic));
    else {
      writeLine(ctx.stdout, line(topic));
      writeLine(
        ctx.stdout,
        `  as of ${topic.asOf}; weekly: ${topic.momentum.weekly.map((w) => `${w.weekStart.slice(5)} ${w.count ?? 'no data'}`).join(' · ')}`,
      );
      writeLine(ctx.stdout, `  latest: ${topic.paperIds.slice(0, 10).join(', ')}`);
    }
    return 0;
  });
}

export function runTopics(ctx: CliContext): Promise<number> {
  const { values } = parseArgs({
    args: ctx.args,
    options: { ...OPTIONS, sort: { type: 'string' } },
    strict: true,
  });
  const weeks = weeksOf(values.weeks);
  return withTopics(ctx, async (topics) => {
    const all = await topics.topics({
      ...(values['as-of'] ? { asOf: values['as-of'] } : {}),
      ...(weeks ? { weeks } : {}),
    });
    if (values.sort === 'rising')
      all.sort((a, b) => b.rising.score - a.rising.score || b.rising.z - a.rising.z);
    else if (values.sort === 'largest') all.sort((a, b) => b.momentum.last28 - a.momentum.last28);
    if (values.json) writeLine(ctx.stdout, JSON.stringify(all));
    else for (const t of all) writeLine(ctx.stdout, line(t));
    return 0;
  });
}

export function runTags(ctx: CliContext): Promise<number> {
  const { values, positionals } = parseArgs({
    args: ctx.args,
    options: OPTIONS,
    allowPositionals: true,
    strict: true,
  });
  const [raw] = positionals;
  if (!raw || positionals.length > 1)
    throw new QuireError('bad-input', 'Give one arXiv id, e.g. `pnpm quire tags 2604.12345`.');
  const id = normaliseArxivId(raw);
  return withTopics(ctx, async (topics, store) => {
    if (!store.papers.has(id))
      throw new QuireError(
        'not-found',
        `No paper ${id} is stored. Fetch it first: \`pnpm quire fetch ${id}\`.`,
      );
    const tags = (await topics.paperTags(id)).map((t) => ({
      slug: t.slug,
      name: t.name,
      score: t.score,
      direct: t.direct,
      evidence: t.evidence,
    }));
    if (values.json) writeLine(ctx.stdout, JSON.stringify({ id, tags }));
    else {
      for (const t of tags) {
        const why = t.evidence
          .map((e) => `${e.rule} "${e.detail}"${e.field ? ` in ${e.field}` : ''} +${e.points}`)
          .join('; ');
        writeLine(ctx.stdout, `${t.name} (${t.score}): ${why}`);
      }
    }
    return 0;
  });
}

/**
 * After an import or harvest: tag what arrived, so topics are current when the command ends. `tags` are
 * either engine's (a SQLite store's, or PostgreSQL's).
 */
export async function tagAfterIngest(ctx: Pick<CliContext, 'stderr'>, tags: TagStore): Promise<void> {
  reportRetag(ctx, await retag(tags, defaultTaxonomy(), { onProgress: progressTo(ctx) }));
}

/**
 * `quire tag [--full] [--database-url URL]`: bring tags up to date now (they are also updated after every
 * import and harvest), in the SQLite file or, with a database address (or QUIRE_DATABASE_URL), in PostgreSQL.
 */
export async function runTag(ctx: CliContext): Promise<number> {
  const { values } = parseArgs({
    args: ctx.args,
    options: { ...OPTIONS, 'database-url': { type: 'string' } },
    strict: true,
  });
  const config = baseConfig(ctx);
  const url = values['database-url']
    ? checkedUrl(values['database-url'], parseDatabaseUrl)
    : config.databaseUrl;
  const { tags, close } = await openTags(ctx.dbPath, url);
  try {
    const retagged = await retag(tags, defaultTaxonomy(), {
      full: values.full ?? false,
      onProgress: progressTo(ctx),
    });
    reportRetag(ctx, retagged);
    if (values.json) writeLine(ctx.stdout, JSON.stringify(retagged));
    return 0;
  } finally {
    await close();
  }
}

/** The tags of the SQLite file, or of PostgreSQL at `url`. */
async function openTags(
  dbPath: string,
  url: string | null,
): Promise<{ tags: TagStore; close: () => Promise<void> }> {
  if (url) {
    const pg = await openIngestOnPostgres(url);
    return { tags: pg.tags, close: () => pg.close() };
  }
  const store = openStore(dbPath);
  return { tags: store.tags, close: () => Promise.resolve(store.close()) };
}
