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
import { HarvestElection } from './cluster/harvest-election.ts';
import { PoliteHttpClient } from './harvest/http-client.ts';
import { SearchThread } from './search/search-thread.ts';
import { QuireError, errorMessage, redactedUrl } from './errors.ts';
import { openStoresAt, type Stores } from './store/stores.ts';
import type { NodeCluster } from './cluster/node-cluster.ts';
import { groupServiceOver } from './sync/group-service.ts';
import { SyncServer } from './sync/sync-server.ts';
import { SharedLimit } from './sync/token-bucket.ts';
import { defaultTaxonomy } from '@quire/core';
import { TagThread } from './topics/tag-thread.ts';
import { topicServiceOver } from './topics/open-topics.ts';

export interface RunningServer {
  url: string;
  port: number;
  /** Everything this server keeps: papers, tags, counts, search's source and groups, on one engine. */
  store: Stores;
  /** The running harvest: null when harvesting is off, or while another node holds the harvest lock. */
  readonly scheduler: HarvestScheduler | null;
  /** Group sync on the same port: ws://host:port/yjs/<groupId>, the token offered as a subprotocol. */
  sync: SyncServer;
  /** The cluster this node is part of (null: one node). */
  cluster: NodeCluster | null;
  /** Settles once start-up work (tagging what is stale) is done; /api/ready says the same. */
  ready: Promise<void>;
  close(): Promise<void>;
}

/** The built web app, found from this file so the server can start from any working directory. */
export const DEFAULT_WEB_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../web/build');

export interface ServerDeps {
  log?: (line: string) => void;
  /** The HTTP client for arXiv; by default a polite one spaced by config.harvestDelaySeconds. */
  client?: PoliteHttpClient;
  /** How often a node on PostgreSQL that does not harvest tries for the harvest lock (30 s). */
  harvestElectionMs?: number;
}

/**
 * Opens the store (the SQLite file, or everything on PostgreSQL with `config.databaseUrl`: then no SQLite
 * file is opened), starts the HTTP server (port 0 picks a free one) and, if enabled, the background harvest.
 */
export async function startServer(config: QuireConfig, deps: ServerDeps = {}): Promise<RunningServer> {
  const log = deps.log ?? (() => {});
  if (config.redisUrl && !config.databaseUrl) {
    throw new QuireError(
      'bad-input',
      'QUIRE_REDIS_URL joins this node to others, which share their papers and groups through one PostgreSQL: set QUIRE_DATABASE_URL (or --database-url) too, or unset QUIRE_REDIS_URL to run one node.',
    );
  }
  if (!config.databaseUrl && config.dbPath === ':memory:') {
    throw new QuireError(
      'bad-input',
      'The server needs a database file, not :memory: (its search and tag threads open the file again).',
    );
  }
  const { store, sharedUpdates } = await openStoresAt(
    config.databaseUrl
      ? { engine: 'postgres', databaseUrl: config.databaseUrl }
      : { engine: 'sqlite', dbPath: config.dbPath },
  );
  let cluster: NodeCluster | null = null;
  try {
    if (config.redisUrl && config.databaseUrl && sharedUpdates) {
      // Loaded only for a node that joins others: merely importing ioredis makes V8 run the tagging
      // engine's loops 2.5 times slower in the importing thread (measured: 12.7k → 4.7k papers/s).
      const { NodeCluster } = await import('./cluster/node-cluster.ts');
      cluster = await NodeCluster.open(config.redisUrl, sharedUpdates, {
        heartbeatSeconds: config.clusterHeartbeatSeconds,
        limitsNamespace: redactedUrl(config.databaseUrl),
        log,
      });
    }
  } catch (err) {
    await store.close().catch(() => {});
    throw err;
  }
  // One polite client for every arXiv request this process makes (harvest and on-demand fetches).
  const client = deps.client ?? new PoliteHttpClient({ minIntervalMs: config.harvestDelaySeconds * 1000 });
  const target = store.harvest;
  const fetcher = new PaperFetcher({
    apiUrl: config.apiUrl,
    client,
    target,
    maxPending: config.fetchMaxPending,
  });
  const topics = topicServiceOver(store, defaultTaxonomy());
  // Tagging runs in a worker thread: after a taxonomy or engine change the whole store is tagged again
  // there, the server answering meanwhile from the tags committed so far (a paper keeps its old tags
  // until its new ones are written).
  const tags = new TagThread(store.source, { log, onTagged: () => topics.invalidate() });
  // Search in a worker thread too, over the index the papers are written with: nothing to build or
  // refresh, and its topic: filters read the tags as they are committed.
  const search = new SearchThread(store.source, { log });
  /** After papers were written (a harvest, a fetch): tags them. */
  const refreshTags = async (): Promise<void> => {
    const run = tags.retag().then(
      () => {},
      (err: unknown) => log(`tags: ${errorMessage(err)}`),
    );
    // While the start-up run tags the whole store, a fetched paper would wait for all of it: answer with
    // the paper now; its tags follow when that run and this one are done.
    if (tags.state !== 'warming') await run;
  };
  const newScheduler = (): HarvestScheduler =>
    new HarvestScheduler({
      oaiUrl: config.oaiUrl,
      rssUrl: config.rssUrl,
      oaiSet: config.oaiSet,
      categories: config.categories,
      everyMs: config.harvestEveryHours * 3_600_000,
      retryBaseMs: config.harvestRetrySeconds * 1000,
      client,
      target,
      log,
      afterRun: () => void refreshTags(),
    });
  // Nodes sharing one PostgreSQL harvest once between them into the papers they share: the holder of its
  // harvest lock does (issue 13).
  const election =
    config.harvest && config.databaseUrl
      ? new HarvestElection({
          databaseUrl: config.databaseUrl,
          newScheduler,
          everyMs: deps.harvestElectionMs ?? 30_000,
          log,
        })
      : null;
  const scheduler = config.harvest && !election ? newScheduler() : null;
  const groups = groupServiceOver(store);
  const sync = new SyncServer(groups, store.groupUpdates, {
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
    ...(cluster
      ? { cluster, sharedLimits: cluster.rateLimits, sharedConnections: cluster.connectionCounts }
      : {}),
    log,
  });
  const webDir = existsSync(resolve(config.webDir)) ? resolve(config.webDir) : DEFAULT_WEB_DIR;
  const app = createApp({
    store,
    harvestState: () => (election?.scheduler ?? scheduler)?.state ?? null,
    fetchPaper: (id) => fetcher.fetch(id),
    onPapersChanged: refreshTags,
    topics,
    search,
    webDir,
    maxBodyBytes: config.maxBodyBytes,
    warming: () => (tags.state === 'warming' ? ['tags'] : []),
    tagProgress: () => tags.progress,
    tagError: () => tags.lastError,
    groups: {
      groups,
      onInviteRevoked: (invite) => sync.closeInvite(invite.id),
      createLimit: {
        perHour: config.groupCreatePerHour,
        burst: config.groupCreateBurst,
        // Counted in Redis with several nodes, so N nodes do not allow N times the groups.
        ...(cluster
          ? {
              shared: new SharedLimit(cluster.rateLimits, (why) =>
                log(
                  `limits: Redis cannot count group creations across nodes (${why}); this node counts its own until it answers`,
                ),
              ),
            }
          : {}),
      },
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
  await election?.start();

  let closing: Promise<void> | null = null;
  return {
    url: `http://${config.host}:${port}`,
    port,
    store,
    get scheduler() {
      return election ? election.scheduler : scheduler;
    },
    sync,
    cluster,
    ready: tags.ready.then(
      () => {},
      () => {},
    ),
    close() {
      // Once: a second call (a test's teardown after the test stopped it) waits for the first.
      closing ??= closeAll();
      return closing;
    },
  };

  async function closeAll(): Promise<void> {
    await election?.stop();
    await scheduler?.stop();
    await tags.close();
    // Before the HTTP server: its close waits for every socket, upgraded ones included.
    await sync.close();
    await cluster?.close();
    await search.close();
    await new Promise<void>((done) => server.close(() => done()));
    await store.close();
  }
}
