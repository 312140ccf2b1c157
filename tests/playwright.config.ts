import { spawnSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { defineConfig } from '@playwright/test';
import { listingsDir, repoRoot } from './src/paths.ts';
import type { GroupEngine } from './e2e/support/quire-server.ts';

/** A port nobody listens on now, found in a child so that the config can stay synchronous. */
function freePort(): string {
  const probe = spawnSync(
    process.execPath,
    [
      '-e',
      "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})",
    ],
    { encoding: 'utf8' },
  );
  return probe.stdout.trim();
}

// The config is evaluated again in every worker; the ports chosen by the main process travel in the env.
if (!process.env.QUIRE_E2E_PORT) process.env.QUIRE_E2E_PORT = freePort();
const port = Number(process.env.QUIRE_E2E_PORT);
const dbPath = resolve(repoRoot, '.tmp/e2e', `quire-${port}.db`);
if (!process.env.QUIRE_E2E_PG_PORT) process.env.QUIRE_E2E_PG_PORT = freePort();
const pgPort = Number(process.env.QUIRE_E2E_PG_PORT);
/** Where a shared server's PostgreSQL address is written for the specs (sharedServerStore). */
const databaseUrlFile = (p: number) => resolve(repoRoot, '.tmp/e2e', `quire-${p}.database-url`);
// With a test PostgreSQL (npm test starts one), the group specs run again against a second shared server
// whose group side lives there (issue 13); without one, only the specs that start their own servers are
// listed for it, and they skip with the reason.
const onPostgres = Boolean(process.env.QUIRE_TEST_DATABASE_URL);
const serveCommand = (p: number, db: string) =>
  `rm -f "${db}"* && pnpm --silent quire serve --port ${p} --db "${db}" --no-harvest --import "${listingsDir}"`;
// A server on PostgreSQL (QUIRE_DATABASE_URL) imports the corpus into it and serves it from there: no
// SQLite file is written or read.
const pgServeCommand = (p: number) =>
  `pnpm --silent quire serve --port ${p} --no-harvest --import "${listingsDir}"`;

export default defineConfig<{ groupEngine: GroupEngine }>({
  testDir: './e2e',
  outputDir: resolve(repoRoot, 'test-results'),
  timeout: 60_000,
  fullyParallel: false,
  workers: 1,
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  projects: [
    { name: 'sqlite' },
    // Every group spec again with the group side on PostgreSQL (issue 13): the shared server's, and each
    // server a spec starts itself in a database of its own (QUIRE_TEST_DATABASE_URL, from npm test).
    {
      name: 'postgres',
      testMatch: onPostgres
        ? /(groups(-[a-z-]+)?|group-week)\.spec\.ts$/
        : /groups-(access|durability)\.spec\.ts$/,
      use: {
        groupEngine: 'PostgreSQL',
        ...(onPostgres ? { baseURL: `http://127.0.0.1:${pgPort}` } : {}),
      },
    },
  ],
  webServer: [
    {
      // The real server on a free port, filled from the real corpus before it starts listening.
      // A stale address file from an earlier run on this port would send the specs to PostgreSQL.
      command: `rm -f "${databaseUrlFile(port)}" && ${serveCommand(port, dbPath)}`,
      cwd: repoRoot,
      // Readiness, not liveness: tests begin once the stored papers are tagged (/api/ready answers 200).
      url: `http://127.0.0.1:${port}/api/ready`,
      timeout: 180_000,
      reuseExistingServer: false,
      stdout: 'pipe',
      stderr: 'pipe',
    },
    ...(onPostgres
      ? [
          {
            // The same, everything in a database of its own on the test PostgreSQL.
            command: `mkdir -p "${dirname(databaseUrlFile(pgPort))}" && url="$(pnpm --silent exec tsx tests/e2e/support/postgres-database.ts e2e-shared "${databaseUrlFile(pgPort)}")" || exit 1; export QUIRE_DATABASE_URL="$url"; ${pgServeCommand(pgPort)}`,
            cwd: repoRoot,
            url: `http://127.0.0.1:${pgPort}/api/ready`,
            // Readiness waits for the whole corpus's PostgreSQL import: over 180 s in a CI run at a load of 20-30.
            timeout: 420_000,
            reuseExistingServer: false,
            stdout: 'pipe' as const,
            stderr: 'pipe' as const,
          },
        ]
      : []),
  ],
});
