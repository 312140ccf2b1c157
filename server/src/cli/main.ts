#!/usr/bin/env node
import { CoreError } from '@quire/core';
import { DEFAULT_CONFIG } from '../config.ts';
import { QuireError, errorMessage } from '../errors.ts';
import { writeLine, type CliContext } from './cli-context.ts';
import { runFetch } from './command-fetch.ts';
import { runHarvest } from './command-harvest.ts';
import { runImport } from './command-import.ts';
import { runMigrate } from './command-migrate.ts';
import { runServe } from './command-serve.ts';
import { runStats } from './command-stats.ts';
import { runTag, runTags, runTopic, runTopics } from './command-topics.ts';

const COMMANDS: Record<string, (ctx: CliContext) => Promise<number>> = {
  import: runImport,
  harvest: runHarvest,
  fetch: runFetch,
  stats: runStats,
  serve: runServe,
  topic: runTopic,
  topics: runTopics,
  tags: runTags,
  tag: runTag,
  migrate: runMigrate,
};

const USAGE = `Usage: pnpm quire <command> [options]   (--db PATH or QUIRE_DB selects the database; default ${DEFAULT_CONFIG.dbPath})

Commands:
  import <path…> [--no-tag] [--database-url URL]
                            import dumps, files or folders (listing JSON Lines, Kaggle snapshot, OAI-PMH XML; plain, .gz or .br);
                            a killed import resumes where it stopped; --no-tag leaves tagging to quire tag or the server;
                            --database-url (or QUIRE_DATABASE_URL) imports into PostgreSQL instead of the SQLite file
  harvest [--oai URL | --rss URL] [--set cs] [--categories cs.AI,cs.LG] [--from DATE] [--until DATE]
          [--prefix arXivRaw|arXiv|oai_dc] [--delay SECONDS] [--retries N] [--database-url URL]
                            harvest arXiv (default: RSS listings, then OAI-PMH, 3 seconds between requests);
                            --database-url (or QUIRE_DATABASE_URL) harvests into PostgreSQL
  fetch <arxiv id or URL> [--api URL]
                            fetch one paper through arXiv's query API
  stats [--json] [--database-url URL]
                            what the store holds (the SQLite file, or PostgreSQL)
  topic <slug> [--as-of DATE] [--weeks N] [--json]
                            a topic's momentum and its papers, newest first
  topics [--as-of DATE] [--sort rising|largest] [--json]
                            every topic's momentum
  tags <arxiv id> [--json]  a paper's topics with the evidence
  tag [--full] [--database-url URL]
                            bring stored tags up to date (done after every import and harvest), in PostgreSQL
                            with --database-url (or QUIRE_DATABASE_URL)
  serve [--port N] [--host H] [--import <path…>] [--no-harvest] [--database-url URL] [--redis-url URL]
                            run the server (API, web app, background harvest)
  migrate --from sqlite:PATH --to postgres://… [--batch-size N]
                            copy the groups, invites, calendar feeds and update logs into PostgreSQL (resumable,
                            verified at the end); papers, tags and counts are not copied yet
`;

/** One command's lines of USAGE: its own line and the indented lines that continue it. */
function commandUsage(command: string): string {
  const lines = USAGE.split('\n');
  const start = lines.findIndex((line) => line.startsWith(`  ${command} `) || line === `  ${command}`);
  const out = [`Usage: pnpm quire ${command} [options]   (--db PATH or QUIRE_DB selects the database)`, ''];
  for (let i = start; i >= 0 && i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (i > start && !line.startsWith('    ')) break;
    out.push(line);
  }
  return `${out.join('\n')}\n`;
}

/** Pulls the global --db option out of the arguments, wherever it appears. */
function splitGlobal(argv: string[]): { dbPath: string | null; rest: string[] } {
  const rest: string[] = [];
  let dbPath: string | null = null;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--db') {
      dbPath = argv[++i] ?? null;
      if (!dbPath) throw new QuireError('bad-input', '--db needs a path, e.g. --db data/quire.db.');
    } else if (arg.startsWith('--db=')) dbPath = arg.slice(5);
    else rest.push(arg);
  }
  return { dbPath, rest };
}

export async function main(argv: string[], env = process.env): Promise<number> {
  const { dbPath, rest } = splitGlobal(argv);
  const [command, ...args] = rest;
  if (!command || command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(USAGE);
    return command ? 0 : 1;
  }
  const run = COMMANDS[command];
  if (run && (args.includes('--help') || args.includes('-h'))) {
    process.stdout.write(commandUsage(command));
    return 0;
  }
  if (!run) {
    process.stderr.write(`quire: unknown command "${command}".\n\n${USAGE}`);
    return 2;
  }
  const ctx: CliContext = {
    dbPath: dbPath ?? env.QUIRE_DB ?? DEFAULT_CONFIG.dbPath,
    args,
    env,
    stdout: process.stdout,
    stderr: process.stderr,
  };
  return run(ctx);
}

const isEntry =
  process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/').split('/').pop() ?? '');
if (isEntry) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      const known = err instanceof QuireError || err instanceof CoreError;
      writeLine(process.stderr, `quire: ${errorMessage(err)}`);
      if (!known && err instanceof Error && err.stack) writeLine(process.stderr, err.stack);
      process.exitCode = 1;
    },
  );
}
