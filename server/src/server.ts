import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve, type ServerType } from '@hono/node-server';
import { createApp } from './api/app.ts';
import type { QuireConfig } from './config.ts';
import { PaperFetcher } from './harvest/fetch-paper.ts';
import { HarvestScheduler } from './harvest/harvest-scheduler.ts';
import { harvestTarget } from './harvest/harvest-target.ts';
import { PoliteHttpClient } from './harvest/http-client.ts';
import { SearchThread } from './search/search-thread.ts';
import { QuireError } from './errors.ts';
import { openStore, type Store } from './store/open-store.ts';
import { SyncServer } from './sync/sync-server.ts';
import { openTopics } from './topics/open-topics.ts';
import { retag } from './topics/retag.ts';

export interface RunningServer {
  url: string;
  port: number;
  store: Store;
  scheduler: HarvestScheduler | null;
  /** Group sync on the same port: ws://host:port/yjs/<groupId>, the token offered as a subprotocol. */
  sync: SyncServer;
  close(): Promise<void>;
}

/** The built web app, found from this file so the server can start from any working directory. */
export const DEFAULT_WEB_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../web/build');

export interface ServerDeps {
  log?: (line: string) => void;
  /** The HTTP client for arXiv; by default a polite one spaced by config.harvestDelaySeconds. */
  client?: PoliteHttpClient;
}

/** Opens the store, starts the HTTP server (port 0 picks a free one) and, if enabled, the background harvest. */
export async function startServer(config: QuireConfig, deps: ServerDeps = {}): Promise<RunningServer> {
  const log = deps.log ?? (() => {});
  if (config.dbPath === ':memory:') {
    throw new QuireError(
      'bad-input',
      'The server needs a database file, not :memory: (its search thread opens the file a second time).',
      400,
    );
  }
  const store = openStore(config.dbPath);
  // One polite client for every arXiv request this process makes (harvest and on-demand fetches).
  const client = deps.client ?? new PoliteHttpClient({ minIntervalMs: config.harvestDelaySeconds * 1000 });
  const target = harvestTarget(store);
  const fetcher = new PaperFetcher({
    apiUrl: config.apiUrl,
    client,
    target,
    maxPending: config.fetchMaxPending,
  });
  // Tags must match the papers and the taxonomy before the first topic is served.
  const { topics } = openTopics(store);
  // Built and queried in a worker thread: the server answers while it builds; the first searches wait.
  const search = new SearchThread(config.dbPath, { log });
  const refreshTags = () => {
    const report = retag(store.db, topics.taxonomy);
    topics.invalidate();
    // New and changed papers are re-indexed; tags changed under unchanged papers need a rebuild.
    search.refresh({ full: report.changedTopics.length > 0 || report.removedTopics.length > 0 });
  };
  const scheduler = config.harvest
    ? new HarvestScheduler({
        oaiUrl: config.oaiUrl,
        rssUrl: config.rssUrl,
        oaiSet: config.oaiSet,
        categories: config.categories,
        everyMs: config.harvestEveryHours * 3_600_000,
        retryBaseMs: config.harvestRetrySeconds * 1000,
        client,
        target,
        log,
        afterRun: refreshTags,
      })
    : null;
  const sync = new SyncServer(store.groups, store.groupUpdates, {
    maxFrameBytes: config.syncMaxFrameBytes,
    maxBufferedBytes: config.syncMaxBufferedBytes,
    messagesPerSecond: config.syncMessagesPerSecond,
    messageBurst: config.syncMessageBurst,
    inviteMessagesPerSecond: config.syncInviteMessagesPerSecond,
    inviteMessageBurst: config.syncInviteMessageBurst,
    addressMessagesPerSecond: config.syncAddressMessagesPerSecond,
    addressMessageBurst: config.syncAddressMessageBurst,
    connectionsPerAddress: config.syncConnectionsPerAddress,
    stateRequestsPerMinute: config.syncStateRequestsPerMinute,
    stateRequestBurst: config.syncStateRequestBurst,
    presenceMaxBytes: config.syncPresenceMaxBytes,
    presenceIdsPerConnection: config.syncPresenceIdsPerConnection,
    idleUnloadSeconds: config.syncIdleUnloadSeconds,
    compactAfterUpdates: config.syncCompactAfterUpdates,
    log,
  });
  const webDir = existsSync(resolve(config.webDir)) ? resolve(config.webDir) : DEFAULT_WEB_DIR;
  const app = createApp({
    store,
    harvestState: () => scheduler?.state ?? null,
    fetchPaper: (id) => fetcher.fetch(id),
    onPapersChanged: refreshTags,
    topics,
    search,
    webDir,
    maxBodyBytes: config.maxBodyBytes,
    warming: () => (search.state === 'warming' ? ['search'] : []),
    groups: {
      groups: store.groups,
      onInviteRevoked: (invite) => sync.closeInvite(invite.id),
      createLimit: { perHour: config.groupCreatePerHour, burst: config.groupCreateBurst },
    },
  });

  const server = await new Promise<ServerType>((resolveListen, reject) => {
    const s = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, () => resolveListen(s));
    s.once('error', reject);
  });
  // serve() gives a plain http.Server here (no TLS or HTTP/2 options are passed).
  sync.attach(server as Server);
  const port = (server.address() as AddressInfo).port;
  scheduler?.start();

  return {
    url: `http://${config.host}:${port}`,
    port,
    store,
    scheduler,
    sync,
    async close() {
      await scheduler?.stop();
      // Before the HTTP server: its close waits for every socket, upgraded ones included.
      await sync.close();
      await search.close();
      await new Promise<void>((done) => server.close(() => done()));
      store.close();
    },
  };
}
