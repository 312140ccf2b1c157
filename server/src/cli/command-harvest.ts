import { parseArgs } from 'node:util';
import { checkedUrl, parseDatabaseUrl, splitList } from '../config.ts';
import { QuireError } from '../errors.ts';
import { harvestTarget, type HarvestTarget } from '../harvest/harvest-target.ts';
import { PoliteHttpClient } from '../harvest/http-client.ts';
import { DEFAULT_OAI_PREFIX, harvestOai, type OaiMetadataPrefix } from '../harvest/oai-harvester.ts';
import { harvestRss } from '../harvest/rss-harvester.ts';
import { openIngestOnPostgres } from '../store/ingest-on-postgres.ts';
import { openStore } from '../store/open-store.ts';
import type { TagStore } from '../store/tag-store.ts';
import { baseConfig, writeLine, type CliContext } from './cli-context.ts';
import { tagAfterIngest } from './command-topics.ts';

const PREFIXES: readonly OaiMetadataPrefix[] = ['arXiv', 'arXivRaw', 'oai_dc'];
const DATE = /^\d{4}-\d{2}-\d{2}$/;

export async function runHarvest(ctx: CliContext): Promise<number> {
  const { values } = parseArgs({
    args: ctx.args,
    options: {
      oai: { type: 'string' },
      rss: { type: 'string' },
      set: { type: 'string' },
      categories: { type: 'string' },
      from: { type: 'string' },
      until: { type: 'string' },
      prefix: { type: 'string' },
      delay: { type: 'string' },
      retries: { type: 'string' },
      'database-url': { type: 'string' },
    },
    strict: true,
  });
  const config = baseConfig(ctx);
  if (values['database-url']) config.databaseUrl = checkedUrl(values['database-url'], parseDatabaseUrl);
  for (const [name, value] of [
    ['--from', values.from],
    ['--until', values.until],
  ] as const) {
    if (value !== undefined && !DATE.test(value)) {
      throw new QuireError('bad-input', `${name} must be a date like 2026-03-16, not "${value}".`);
    }
  }
  const prefix = (values.prefix ?? DEFAULT_OAI_PREFIX) as OaiMetadataPrefix;
  if (!PREFIXES.includes(prefix)) {
    throw new QuireError('bad-input', `--prefix must be one of ${PREFIXES.join(', ')}.`);
  }
  const delay = values.delay === undefined ? config.harvestDelaySeconds : Number(values.delay);
  if (!Number.isFinite(delay) || delay < 0) {
    throw new QuireError(
      'bad-input',
      `--delay must be a number of seconds (arXiv asks for 3), not "${values.delay}".`,
    );
  }
  const retries = values.retries === undefined ? 5 : Number(values.retries);
  if (!Number.isInteger(retries) || retries < 0) {
    throw new QuireError(
      'bad-input',
      `--retries must be a whole number (default 5), not "${values.retries}".`,
    );
  }
  const both = values.oai === undefined && values.rss === undefined;
  const client = new PoliteHttpClient({
    minIntervalMs: delay * 1000,
    maxRetries: retries,
    onWait: (e) => {
      if (e.reason !== 'rate-limit')
        writeLine(
          ctx.stderr,
          `  waiting ${(e.ms / 1000).toFixed(1)} s (${e.reason}${e.detail ? `: ${e.detail}` : ''})`,
        );
    },
  });
  const { target, tags, close } = await openTarget(ctx.dbPath, config.databaseUrl);
  const abort = new AbortController();
  const onSignal = () =>
    abort.abort(new Error('Interrupted; the next run resumes from the last stored page.'));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    if (values.rss !== undefined || both) {
      const categories = values.categories ? splitList(values.categories) : config.categories;
      const report = await harvestRss({
        baseUrl: values.rss ?? config.rssUrl,
        categories,
        client,
        target,
        signal: abort.signal,
      });
      writeLine(
        ctx.stdout,
        `RSS ${report.url}: feed of ${report.feedDate ?? 'unknown date'}, ${report.listed} new or cross-listed, ${report.replaced} replacements; ${report.counts.inserted} papers added, ${report.counts.updated} updated${report.skipped ? `, ${report.skipped} items skipped` : ''}.`,
      );
    }
    if (values.oai !== undefined || both) {
      const report = await harvestOai({
        baseUrl: values.oai ?? config.oaiUrl,
        set: values.set ?? config.oaiSet,
        metadataPrefix: prefix,
        ...(values.from !== undefined ? { from: values.from } : {}),
        ...(values.until !== undefined ? { until: values.until } : {}),
        client,
        target,
        signal: abort.signal,
        onPage: (p) => {
          const of = p.completeListSize ? ` of ${p.completeListSize}` : '';
          ctx.stderr.write(`\r  OAI-PMH: page ${p.pages}, ${p.records}${of} records`);
        },
      });
      ctx.stderr.write('\n');
      writeLine(
        ctx.stdout,
        report.nothingNew
          ? 'OAI-PMH: nothing new.'
          : `OAI-PMH: ${report.records} records in ${report.pages} pages${report.resumed ? ' (resumed)' : ''}${report.restarts ? `, restarted ${report.restarts}× after an expired token` : ''}; ${report.counts.inserted} papers added, ${report.counts.updated} updated${report.skipped ? `, ${report.skipped} records skipped` : ''}.`,
      );
    }
    await tagAfterIngest(ctx, tags);
    return 0;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await close();
  }
}

/** Where the harvest writes: PostgreSQL when a database address is given, else the SQLite file. */
async function openTarget(
  dbPath: string,
  databaseUrl: string | null,
): Promise<{ target: HarvestTarget; tags: TagStore; close: () => Promise<void> }> {
  if (databaseUrl) {
    const pg = await openIngestOnPostgres(databaseUrl);
    return { target: pg.harvests, tags: pg.tags, close: () => pg.close() };
  }
  const store = openStore(dbPath);
  return { target: harvestTarget(store), tags: store.tags, close: () => Promise.resolve(store.close()) };
}
