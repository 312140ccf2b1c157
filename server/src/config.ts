import { QuireError } from './errors.ts';

/**
 * Server configuration: defaults merged once with environment variables and command-line flags
 * (flags win). Base URLs are configurable so tests point them at the arXiv replay server.
 */
export interface QuireConfig {
  dbPath: string;
  /**
   * PostgreSQL for everything the server keeps (papers, tags, topic counts, search, the ingest log, groups,
   * invites, calendar feeds, update logs), shared by every node; null keeps it all in the SQLite file.
   */
  databaseUrl: string | null;
  /** Redis for fan-out of group updates and presence between nodes; null runs one node. */
  redisUrl: string | null;
  /** Seconds between two heartbeats of a node in a cluster (its presence lives three of them). */
  clusterHeartbeatSeconds: number;
  host: string;
  port: number;
  oaiUrl: string;
  rssUrl: string;
  apiUrl: string;
  /** Seconds between two requests to arXiv (its terms ask for at least 3). */
  harvestDelaySeconds: number;
  /** Distinct papers `?fetch=1` may be fetching from arXiv at once; more get 429. */
  fetchMaxPending: number;
  /** Categories whose daily RSS listings the background harvester reads. */
  categories: string[];
  /** OAI-PMH set for the background harvester's incremental mirror. */
  oaiSet: string;
  /** Whether `serve` harvests in the background. */
  harvest: boolean;
  /** Hours between two background harvests (RSS feeds are rebuilt once a day). */
  harvestEveryHours: number;
  /** First retry delay after a failed background harvest; it doubles per failure up to harvestEveryHours. */
  harvestRetrySeconds: number;
  /** Folder with the built web app. */
  webDir: string;
  /** Largest websocket frame a sync client may send (an offline client's first sync holds its whole state). */
  syncMaxFrameBytes: number;
  /** Largest request body /api/* accepts (413 beyond). */
  maxBodyBytes: number;
  /** Groups one client address may create: a sustained rate per hour and a burst. */
  groupCreatePerHour: number;
  groupCreateBurst: number;
  /** Bytes queued for one sync client above which it is dropped to resync (a reader that stopped). */
  syncMaxBufferedBytes: number;
  /** Sustained sync messages per second per connection, and the burst allowed on top (token bucket). */
  syncMessagesPerSecond: number;
  syncMessageBurst: number;
  /** The same shared by all sync connections on one invite, and by all from one client address. */
  syncInviteMessagesPerSecond: number;
  syncInviteMessageBurst: number;
  syncAddressMessagesPerSecond: number;
  syncAddressMessageBurst: number;
  /** Live sync connections one client address may hold. */
  syncConnectionsPerAddress: number;
  /** Requests for a whole group's state one client address may make: per minute, and at once. */
  syncStateRequestsPerMinute: number;
  syncStateRequestBurst: number;
  /** Largest presence (awareness) state relayed, in bytes, and client ids one connection may announce. */
  syncPresenceMaxBytes: number;
  syncPresenceIdsPerConnection: number;
  /** Seconds a group with no connections stays in memory before it is compacted and unloaded. */
  syncIdleUnloadSeconds: number;
  /** Stored update rows after which a group's log is merged into one. */
  syncCompactAfterUpdates: number;
  /** Longest dump line an import reads (longer ones are skipped and reported), in bytes. */
  importMaxLineBytes: number;
  /** Largest decompressed OAI-PMH page an import reads (larger ones fail their file), in bytes. */
  importMaxXmlBytes: number;
}

export const DEFAULT_CATEGORIES = ['cs.AI', 'cs.CL', 'cs.CV', 'cs.LG', 'cs.RO', 'cs.IR', 'cs.MA'];

export const DEFAULT_CONFIG: QuireConfig = {
  dbPath: 'data/quire.db',
  databaseUrl: null,
  redisUrl: null,
  clusterHeartbeatSeconds: 2,
  host: '127.0.0.1',
  port: 8787,
  oaiUrl: 'https://oaipmh.arxiv.org/oai',
  rssUrl: 'https://rss.arxiv.org/rss',
  apiUrl: 'https://export.arxiv.org/api/query',
  harvestDelaySeconds: 3,
  fetchMaxPending: 20,
  categories: DEFAULT_CATEGORIES,
  oaiSet: 'cs',
  harvest: true,
  harvestEveryHours: 6,
  harvestRetrySeconds: 300,
  webDir: 'web/build',
  syncMaxFrameBytes: 8 * 1024 * 1024,
  maxBodyBytes: 64 * 1024,
  groupCreatePerHour: 120,
  groupCreateBurst: 30,
  syncMaxBufferedBytes: 32 * 1024 * 1024,
  syncMessagesPerSecond: 100,
  syncMessageBurst: 500,
  syncInviteMessagesPerSecond: 300,
  syncInviteMessageBurst: 1500,
  syncAddressMessagesPerSecond: 500,
  syncAddressMessageBurst: 2500,
  syncConnectionsPerAddress: 100,
  syncStateRequestsPerMinute: 60,
  syncStateRequestBurst: 30,
  syncPresenceMaxBytes: 4096,
  syncPresenceIdsPerConnection: 4,
  syncIdleUnloadSeconds: 30,
  syncCompactAfterUpdates: 500,
  importMaxLineBytes: 1024 * 1024,
  importMaxXmlBytes: 32 * 1024 * 1024,
};

/** Reads QUIRE_* variables; unknown or empty ones are ignored. */
export function configFromEnv(env: NodeJS.ProcessEnv): Partial<QuireConfig> {
  const out: Partial<QuireConfig> = {};
  if (env.QUIRE_DB) out.dbPath = env.QUIRE_DB;
  if (env.QUIRE_DATABASE_URL) out.databaseUrl = checkedUrl(env.QUIRE_DATABASE_URL, parseDatabaseUrl);
  if (env.QUIRE_REDIS_URL) out.redisUrl = checkedUrl(env.QUIRE_REDIS_URL, parseRedisUrl);
  if (env.QUIRE_CLUSTER_HEARTBEAT_SECONDS)
    out.clusterHeartbeatSeconds = Number(env.QUIRE_CLUSTER_HEARTBEAT_SECONDS);
  if (env.QUIRE_HOST) out.host = env.QUIRE_HOST;
  if (env.QUIRE_PORT) out.port = Number(env.QUIRE_PORT);
  if (env.QUIRE_OAI_URL) out.oaiUrl = env.QUIRE_OAI_URL;
  if (env.QUIRE_RSS_URL) out.rssUrl = env.QUIRE_RSS_URL;
  if (env.QUIRE_API_URL) out.apiUrl = env.QUIRE_API_URL;
  if (env.QUIRE_HARVEST_DELAY) out.harvestDelaySeconds = Number(env.QUIRE_HARVEST_DELAY);
  if (env.QUIRE_FETCH_MAX_PENDING) out.fetchMaxPending = Number(env.QUIRE_FETCH_MAX_PENDING);
  if (env.QUIRE_CATEGORIES) out.categories = splitList(env.QUIRE_CATEGORIES);
  if (env.QUIRE_HARVEST) out.harvest = !['0', 'false', 'off', 'no'].includes(env.QUIRE_HARVEST.toLowerCase());
  if (env.QUIRE_WEB_DIR) out.webDir = env.QUIRE_WEB_DIR;
  if (env.QUIRE_SYNC_MAX_FRAME_BYTES) out.syncMaxFrameBytes = Number(env.QUIRE_SYNC_MAX_FRAME_BYTES);
  if (env.QUIRE_MAX_BODY_BYTES) out.maxBodyBytes = Number(env.QUIRE_MAX_BODY_BYTES);
  if (env.QUIRE_GROUP_CREATE_PER_HOUR) out.groupCreatePerHour = Number(env.QUIRE_GROUP_CREATE_PER_HOUR);
  if (env.QUIRE_GROUP_CREATE_BURST) out.groupCreateBurst = Number(env.QUIRE_GROUP_CREATE_BURST);
  if (env.QUIRE_SYNC_MAX_BUFFERED_BYTES) out.syncMaxBufferedBytes = Number(env.QUIRE_SYNC_MAX_BUFFERED_BYTES);
  if (env.QUIRE_SYNC_RATE) out.syncMessagesPerSecond = Number(env.QUIRE_SYNC_RATE);
  if (env.QUIRE_SYNC_BURST) out.syncMessageBurst = Number(env.QUIRE_SYNC_BURST);
  if (env.QUIRE_SYNC_INVITE_RATE) out.syncInviteMessagesPerSecond = Number(env.QUIRE_SYNC_INVITE_RATE);
  if (env.QUIRE_SYNC_INVITE_BURST) out.syncInviteMessageBurst = Number(env.QUIRE_SYNC_INVITE_BURST);
  if (env.QUIRE_SYNC_ADDRESS_RATE) out.syncAddressMessagesPerSecond = Number(env.QUIRE_SYNC_ADDRESS_RATE);
  if (env.QUIRE_SYNC_ADDRESS_BURST) out.syncAddressMessageBurst = Number(env.QUIRE_SYNC_ADDRESS_BURST);
  if (env.QUIRE_SYNC_CONNECTIONS_PER_ADDRESS)
    out.syncConnectionsPerAddress = Number(env.QUIRE_SYNC_CONNECTIONS_PER_ADDRESS);
  if (env.QUIRE_SYNC_STATE_REQUESTS_PER_MINUTE)
    out.syncStateRequestsPerMinute = Number(env.QUIRE_SYNC_STATE_REQUESTS_PER_MINUTE);
  if (env.QUIRE_SYNC_STATE_REQUEST_BURST)
    out.syncStateRequestBurst = Number(env.QUIRE_SYNC_STATE_REQUEST_BURST);
  if (env.QUIRE_SYNC_PRESENCE_BYTES) out.syncPresenceMaxBytes = Number(env.QUIRE_SYNC_PRESENCE_BYTES);
  if (env.QUIRE_SYNC_PRESENCE_IDS) out.syncPresenceIdsPerConnection = Number(env.QUIRE_SYNC_PRESENCE_IDS);
  if (env.QUIRE_SYNC_IDLE_SECONDS) out.syncIdleUnloadSeconds = Number(env.QUIRE_SYNC_IDLE_SECONDS);
  if (env.QUIRE_SYNC_COMPACT_AFTER) out.syncCompactAfterUpdates = Number(env.QUIRE_SYNC_COMPACT_AFTER);
  if (env.QUIRE_IMPORT_MAX_LINE_BYTES) out.importMaxLineBytes = Number(env.QUIRE_IMPORT_MAX_LINE_BYTES);
  if (env.QUIRE_IMPORT_MAX_XML_BYTES) out.importMaxXmlBytes = Number(env.QUIRE_IMPORT_MAX_XML_BYTES);
  return out;
}

interface ServiceAddress {
  variable: string;
  protocols: readonly [string, string];
  /** What a right address looks like. */
  example: string;
  /** What leaving the variable unset does. */
  unset: string;
}

/** An address of `kind`, checked for form only: the service is not asked. */
function parseServiceUrl(value: string, kind: ServiceAddress): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new QuireError(
      'bad-input',
      `${kind.variable} is not an address; give ${kind.example} (or leave it unset ${kind.unset}).`,
    );
  }
  if (!kind.protocols.includes(url.protocol.slice(0, -1))) {
    const [a, b] = kind.protocols;
    throw new QuireError(
      'bad-input',
      `${kind.variable} must be a ${a}:// or ${b}:// address, not ${url.protocol}//…; leave it unset ${kind.unset}.`,
    );
  }
  return url;
}

/** A PostgreSQL address (postgres:// or postgresql://). */
export function parseDatabaseUrl(value: string): URL {
  return parseServiceUrl(value, {
    variable: 'QUIRE_DATABASE_URL',
    protocols: ['postgres', 'postgresql'],
    example: 'postgres://user@host:port/database',
    unset: 'for the SQLite file QUIRE_DB names',
  });
}

/** `value` as given, once `parse` accepted it. */
export function checkedUrl(value: string, parse: (value: string) => URL): string {
  parse(value);
  return value;
}

/** A Redis address (redis:// or rediss://). */
export function parseRedisUrl(value: string): URL {
  return parseServiceUrl(value, {
    variable: 'QUIRE_REDIS_URL',
    protocols: ['redis', 'rediss'],
    example: 'redis://host:port',
    unset: 'to run one node',
  });
}

export function splitList(value: string): string[] {
  return value
    .split(/[,+\s]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}
