import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { defineConfig } from '@playwright/test';
import { listingsDir, repoRoot } from './src/paths.ts';
import type { GroupEngine } from './e2e/support/quire-server.ts';

// The config is evaluated again in every worker; the port chosen by the main process travels in the env.
if (!process.env.QUIRE_E2E_PORT) {
  const probe = spawnSync(
    process.execPath,
    [
      '-e',
      "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})",
    ],
    { encoding: 'utf8' },
  );
  process.env.QUIRE_E2E_PORT = probe.stdout.trim();
}
const port = Number(process.env.QUIRE_E2E_PORT);
const dbPath = resolve(repoRoot, '.tmp/e2e', `quire-${port}.db`);

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
    // The access and durability specs again with each server's group side on PostgreSQL (issue 13), in a
    // database of its own per server (QUIRE_TEST_DATABASE_URL, which npm test provides; skipped without it).
    {
      name: 'postgres',
      testMatch: /groups-(access|durability)\.spec\.ts$/,
      use: { groupEngine: 'PostgreSQL' },
    },
  ],
  webServer: {
    // The real server on a free port, filled from the real corpus before it starts listening.
    command: `rm -f "${dbPath}"* && pnpm --silent quire serve --port ${port} --db "${dbPath}" --no-harvest --import "${listingsDir}"`,
    cwd: repoRoot,
    // Readiness, not liveness: tests begin once the search index is built (/api/ready answers 200).
    url: `http://127.0.0.1:${port}/api/ready`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    stderr: 'pipe',
  },
});
