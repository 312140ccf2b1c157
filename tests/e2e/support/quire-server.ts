import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { test as base } from '@playwright/test';
import * as Y from 'yjs';
import { openPgGroupStores } from '@quire/server/store/pg/open-pg-stores';
import { createThrowawayDatabase, type ThrowawayDatabase } from '@quire/server/store/pg/throwaway-database';
import { repoRoot } from '../../src/paths.ts';
import { storedDoc } from '../../src/harness/stored-group.ts';

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
  /** The group's document rebuilt from the rows the server stored, on whichever engine holds them. */
  storedDoc(groupId: string): Promise<Y.Doc>;
}

/**
 * Where a spec's servers keep the group side: their SQLite file, or PostgreSQL (the `postgres` project
 * of playwright.config.ts), each server in a database of its own, dropped when its test ends.
 */
export type GroupEngine = 'SQLite' | 'PostgreSQL';

const PG_URL = process.env.QUIRE_TEST_DATABASE_URL ?? '';
const PG_SKIP = PG_URL
  ? null
  : (process.env.QUIRE_TEST_POSTGRES_SKIP ??
    'QUIRE_TEST_DATABASE_URL is not set (npm test starts a throwaway PostgreSQL; by hand: bash scripts/test-services.sh pnpm test:e2e)');

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

/** Where a server keeps its groups: its SQLite file, or the PostgreSQL database it was given. */
export interface GroupStoreAt {
  dbPath: string;
  databaseUrl: string | null;
}

/** A group's document rebuilt from the rows a server stored, on whichever engine holds them. */
export async function storedGroupDoc(at: GroupStoreAt, groupId: string): Promise<Y.Doc> {
  if (!at.databaseUrl) return storedDoc(at.dbPath, groupId);
  const pg = await openPgGroupStores(at.databaseUrl);
  try {
    const doc = new Y.Doc();
    for (const row of await pg.groupUpdates.load(groupId)) Y.applyUpdate(doc, row.data);
    return doc;
  } finally {
    await pg.close();
  }
}

/**
 * Where playwright.config.ts's shared server of this project keeps its groups: the database file named
 * after its port and, on PostgreSQL, the address its start command wrote beside that file.
 */
export function sharedServerStore(baseURL: string | undefined): GroupStoreAt {
  const port = new URL(baseURL ?? 'http://127.0.0.1').port;
  const dbPath = resolve(repoRoot, '.tmp/e2e', `quire-${port}.db`);
  // Not named after the database file: the start command removes that file's siblings first.
  const urlFile = resolve(repoRoot, '.tmp/e2e', `quire-${port}.database-url`);
  return { dbPath, databaseUrl: existsSync(urlFile) ? readFileSync(urlFile, 'utf8').trim() : null };
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
export const test = base.extend<{
  groupEngine: GroupEngine;
  quire: { start(options?: ServerOptions): Promise<QuireServer> };
}>({
  groupEngine: ['SQLite', { option: true }],
  quire: async ({ groupEngine }, use, testInfo) => {
    if (groupEngine === 'PostgreSQL' && PG_SKIP) testInfo.skip(true, `PostgreSQL run skipped: ${PG_SKIP}`);
    const children: (() => ChildProcess | null)[] = [];
    const dirs: string[] = [];
    const databases: ThrowawayDatabase[] = [];
    await use({
      async start(options = {}) {
        const dir = mkdtempSync(join(tmpdir(), 'quire-e2e-'));
        dirs.push(dir);
        const dbPath = join(dir, 'quire.db');
        const port = await freePort();
        let databaseUrl: string | null = null;
        if (groupEngine === 'PostgreSQL') {
          const database = await createThrowawayDatabase(PG_URL, `e2e_${basename(testInfo.file)}`);
          databases.push(database);
          databaseUrl = database.url;
          options = { ...options, env: { ...options.env, QUIRE_DATABASE_URL: databaseUrl } };
        }
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
          storedDoc: (groupId) => storedGroupDoc({ dbPath, databaseUrl }, groupId),
        };
      },
    });
    await Promise.all(children.map((current) => stop(current())));
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    for (const database of databases) await database.drop();
  },
});

export { expect } from '@playwright/test';
