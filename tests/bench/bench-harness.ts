import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { DEFAULT_CONFIG } from '@quire/server/config';
import { importPaths } from '@quire/server/ingest/import-dumps';
import { startServer, type RunningServer } from '@quire/server/server';
import { openStore, type Store } from '@quire/server/store/open-store';
import { listingsDir } from '../src/paths.ts';

/** Debian's chromium, headless, with the flags this machine's closed network needs. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
}

export interface CorpusServer {
  server: RunningServer;
  /** Time from opening the filled, untagged store to listening. */
  listenMs: number;
  /** A connection of the bench's own to the server's SQLite file, to sample queries and ids from. */
  file: Store;
  close(): Promise<void>;
}

/** The real server on a free port over a fresh SQLite file filled with the whole corpus. */
export async function startCorpusServer(): Promise<CorpusServer> {
  const dir = mkdtempSync(join(tmpdir(), 'quire-bench-'));
  const dbPath = join(dir, 'quire.db');
  const store = openStore(dbPath);
  await importPaths(store, [listingsDir]);
  store.close();
  const t0 = performance.now();
  const server = await startServer({ ...DEFAULT_CONFIG, dbPath, port: 0, harvest: false });
  const listenMs = performance.now() - t0;
  const file = openStore(dbPath);
  // Not waiting for `server.ready`: a bench may measure the server while it tags the corpus at start.
  return {
    server,
    listenMs,
    file,
    async close() {
      file.close();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
