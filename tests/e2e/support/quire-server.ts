import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test as base } from '@playwright/test';
import { repoRoot } from '../../src/paths.ts';

const CLI = resolve(repoRoot, 'server/src/cli/main.ts');

/** A `quire serve` process of a spec's own, on its own port and database, for specs that kill it. */
export interface QuireServer {
  /** `http://127.0.0.1:<port>`: the same across restarts. */
  readonly url: string;
  readonly port: number;
  readonly dbPath: string;
  /** SIGKILL: no shutdown code runs. Resolves once the process is gone. */
  kill9(): Promise<void>;
  /** Starts the server again on the same port and database file. */
  restart(): Promise<void>;
}

export interface ServerOptions {
  /** QUIRE_* variables for the process, e.g. QUIRE_SYNC_MAX_FRAME_BYTES. */
  env?: Record<string, string>;
  /** Dumps or folders to import before serving (none by default: notes need no papers). */
  importPaths?: string[];
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => done(port));
    });
  });
}

/** Every child still running, so even a crashed worker takes them down with it. */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/**
 * One run of the server, as `pnpm quire serve` runs it but without pnpm in between, so a signal reaches
 * the server itself. Resolves once it prints that it is serving.
 */
function launch(dbPath: string, port: number, options: ServerOptions): Promise<ChildProcess> {
  const imports = options.importPaths?.length ? ['--import', ...options.importPaths] : [];
  const args = [CLI, '--db', dbPath, 'serve', '--no-harvest', '--port', String(port), ...imports];
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let output = '';
  return new Promise((done, fail) => {
    child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
    child.stdout?.on('data', (d: Buffer) => {
      output += d.toString();
      if (/serving \d+ papers at http:\/\/\S+ /.test(output)) done(child);
    });
    child.once('exit', () => fail(new Error(`quire serve exited before listening:\n${output}`)));
  });
}

function stop(child: ChildProcess | null): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    child.once('exit', () => done());
    child.kill('SIGKILL');
  });
}

/**
 * `quire.start()` starts a server for this test; every server a test started is killed and its folder
 * removed when the test ends, pass or fail.
 */
export const test = base.extend<{ quire: { start(options?: ServerOptions): Promise<QuireServer> } }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a fixture uses from this pattern.
  quire: async ({}, use) => {
    const children: (() => ChildProcess | null)[] = [];
    const dirs: string[] = [];
    await use({
      async start(options = {}) {
        const dir = mkdtempSync(join(tmpdir(), 'quire-e2e-'));
        dirs.push(dir);
        const dbPath = join(dir, 'quire.db');
        const port = await freePort();
        let child: ChildProcess | null = await launch(dbPath, port, options);
        children.push(() => child);
        return {
          url: `http://127.0.0.1:${port}`,
          port,
          dbPath,
          async kill9() {
            await stop(child);
            child = null;
          },
          async restart() {
            await stop(child);
            // Same file, same port, nothing imported again: only what the first run stored.
            child = await launch(dbPath, port, { env: options.env });
          },
        };
      },
    });
    await Promise.all(children.map((current) => stop(current())));
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  },
});

export { expect } from '@playwright/test';
