import { parseArgs } from 'node:util';
import { QuireError, redactedUrl } from '../errors.ts';
import { startServer } from '../server.ts';
import { checkedUrl, parseDatabaseUrl, parseRedisUrl } from '../config.ts';
import { baseConfig, writeLine, type CliContext } from './cli-context.ts';
import { runImport } from './command-import.ts';

export async function runServe(ctx: CliContext): Promise<number> {
  const { values, positionals } = parseArgs({
    args: ctx.args,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      import: { type: 'string', multiple: true },
      'no-harvest': { type: 'boolean' },
      'database-url': { type: 'string' },
      'redis-url': { type: 'string' },
    },
    allowPositionals: true,
    strict: true,
  });
  const config = baseConfig(ctx);
  if (values.port !== undefined) config.port = Number(values.port);
  if (!Number.isInteger(config.port) || config.port < 0 || config.port > 65535) {
    throw new QuireError('bad-input', `--port must be a port number such as 8787, not "${values.port}".`);
  }
  if (values.host) config.host = values.host;
  if (values['no-harvest']) config.harvest = false;
  if (values['database-url']) config.databaseUrl = checkedUrl(values['database-url'], parseDatabaseUrl);
  if (values['redis-url']) config.redisUrl = checkedUrl(values['redis-url'], parseRedisUrl);

  // `--import a b` and `--import a --import b` both work: loose paths after --import are import paths too.
  const importPaths = [...(values.import ?? []), ...(values.import ? positionals : [])];
  if (!values.import && positionals.length > 0) {
    throw new QuireError(
      'bad-input',
      `Unexpected argument "${positionals[0]}". To import files first, use --import <path…>.`,
    );
  }
  if (importPaths.length > 0) {
    // Where this server reads its papers: the SQLite file, or PostgreSQL with QUIRE_DATABASE_URL.
    const code = await runImport({ ...ctx, args: importPaths, databaseUrl: config.databaseUrl ?? null });
    if (code !== 0)
      writeLine(ctx.stderr, 'quire: some files could not be imported (see above); serving what is stored.');
  }

  const server = await startServer(config, { log: (line) => writeLine(ctx.stderr, line) });
  writeLine(
    ctx.stdout,
    `Quire is serving ${await server.store.papers.count()} papers at ${server.url} (database ${config.databaseUrl ? redactedUrl(config.databaseUrl) : config.dbPath}).`,
  );
  writeLine(
    ctx.stdout,
    `Group sync at ${server.url.replace(/^http/, 'ws')}/yjs/<groupId>, offering subprotocols quire.v1 and token.<invite token> (POST /api/groups creates a group).`,
  );
  if (config.databaseUrl) {
    writeLine(
      ctx.stdout,
      `Papers, tags, topic counts, search, the ingest log, groups, invites, calendar feeds and group updates are all on ${server.store.where}; no SQLite file is used (${config.dbPath} is not read).`,
    );
  }
  if (server.cluster) {
    writeLine(
      ctx.stdout,
      `Sync across nodes through Redis as node ${server.cluster.nodeId} (heartbeat every ${config.clusterHeartbeatSeconds} s).`,
    );
  } else if (config.databaseUrl) {
    writeLine(ctx.stdout, 'One node: set QUIRE_REDIS_URL (or --redis-url) to sync groups across nodes.');
  }
  writeLine(
    ctx.stdout,
    !config.harvest
      ? 'Background harvest is off.'
      : config.databaseUrl && !server.scheduler
        ? 'Not harvesting: another node on this PostgreSQL holds the harvest lock; this node takes over if it stops.'
        : `Harvesting arXiv in the background every ${config.harvestEveryHours} h (${config.categories.join(', ')}).`,
  );

  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  writeLine(ctx.stderr, 'quire: shutting down…');
  await server.close();
  return 0;
}
