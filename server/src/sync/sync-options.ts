import { QuireError } from '../errors.ts';
import type { SharedConnectionCounts } from './shared-connection-cap.ts';
import type { DocCluster } from './doc-cluster.ts';
import { DEFAULT_PRESENCE_IDS_PER_CONNECTION, DEFAULT_PRESENCE_MAX_BYTES } from './group-doc.ts';
import type { SharedRateLimits } from './token-bucket.ts';

export interface SyncOptions {
  /** Largest frame a client may send; an offline client's first sync carries its whole state. */
  maxFrameBytes: number;
  /** Bytes waiting to be sent to one client above which it is dropped (it resyncs when it reconnects). */
  maxBufferedBytes: number;
  /** Sustained messages per second per connection (token bucket refill). */
  messagesPerSecond: number;
  /** Messages a connection may send at once (token bucket size). */
  messageBurst: number;
  /** Sustained messages per second and burst shared by all connections on one invite. */
  inviteMessagesPerSecond: number;
  inviteMessageBurst: number;
  /** Sustained messages per second and burst shared by all connections from one client address. */
  addressMessagesPerSecond: number;
  addressMessageBurst: number;
  /** Live connections one client address may hold. */
  connectionsPerAddress: number;
  /** Connections that may be opened with one invite: per minute and at once. */
  inviteJoinsPerMinute: number;
  inviteJoinBurst: number;
  /** Requests for the group's state (sync step 1) one client address may make: per minute and at once. */
  stateRequestsPerMinute: number;
  stateRequestBurst: number;
  /** Largest presence state relayed (bytes of its JSON); bigger ones are dropped. */
  presenceMaxBytes: number;
  /** Client ids one connection may announce presence for. */
  presenceIdsPerConnection: number;
  /** Seconds a group with no connections stays in memory before it is compacted and unloaded. */
  idleUnloadSeconds: number;
  /** Update rows after which a loaded group is compacted into one. */
  compactAfterUpdates: number;
  /** Seconds between pings; a socket that misses one pong is dropped (and its presence removed). */
  heartbeatSeconds: number;
  /** The other nodes serving the same groups, when there are any (QUIRE_REDIS_URL). */
  cluster?: DocCluster;
  /**
   * Limits every node counts against (Redis, with the cluster): joins per invite and, at join, requests
   * for the group's state per address are then counted across nodes, and so are the invites' and
   * addresses' message rates (SharedMessageCounts).
   */
  sharedLimits?: SharedRateLimits;
  /** Live connections per address counted across nodes (Redis, with the cluster), for the cap. */
  sharedConnections?: SharedConnectionCounts;
  log: (line: string) => void;
}

export const DEFAULT_SYNC_OPTIONS: SyncOptions = {
  maxFrameBytes: 8 * 1024 * 1024,
  maxBufferedBytes: 32 * 1024 * 1024,
  messagesPerSecond: 100,
  messageBurst: 500,
  inviteMessagesPerSecond: 300,
  inviteMessageBurst: 1500,
  addressMessagesPerSecond: 500,
  addressMessageBurst: 2500,
  connectionsPerAddress: 100,
  // A big group's members (each with a few tabs) all reconnecting after a deploy, with room to spare.
  inviteJoinsPerMinute: 600,
  inviteJoinBurst: 300,
  stateRequestsPerMinute: 60,
  stateRequestBurst: 30,
  presenceMaxBytes: DEFAULT_PRESENCE_MAX_BYTES,
  presenceIdsPerConnection: DEFAULT_PRESENCE_IDS_PER_CONNECTION,
  idleUnloadSeconds: 30,
  compactAfterUpdates: 500,
  heartbeatSeconds: 30,
  log: () => {},
};

/** The options with every default filled in, each checked: a bad one names its setting. */
export function syncOptions(options: Partial<SyncOptions>): SyncOptions {
  const o = { ...DEFAULT_SYNC_OPTIONS, ...options };
  for (const key of [
    'maxFrameBytes',
    'maxBufferedBytes',
    'messagesPerSecond',
    'messageBurst',
    'compactAfterUpdates',
    'inviteMessageBurst',
    'addressMessageBurst',
    'connectionsPerAddress',
    'stateRequestBurst',
    'inviteJoinBurst',
    'presenceMaxBytes',
    'presenceIdsPerConnection',
  ] as const) {
    if (!(o[key] >= 1)) throw badOption(key, o[key], 'at least 1');
  }
  for (const key of [
    'inviteMessagesPerSecond',
    'addressMessagesPerSecond',
    'stateRequestsPerMinute',
    'inviteJoinsPerMinute',
  ] as const) {
    const value = o[key];
    if (!(value > 0 && Number.isFinite(value))) throw badOption(key, value, 'a positive number');
  }
  const { idleUnloadSeconds, heartbeatSeconds } = o;
  if (!(idleUnloadSeconds >= 0 && Number.isFinite(idleUnloadSeconds))) {
    throw badOption('idleUnloadSeconds', idleUnloadSeconds, 'a number of seconds, 0 or more');
  }
  if (!(heartbeatSeconds > 0 && Number.isFinite(heartbeatSeconds))) {
    throw badOption('heartbeatSeconds', heartbeatSeconds, 'a positive number of seconds');
  }
  return o;
}

/** Where each option comes from when the server is started by `quire serve`. */
const SETTINGS: Partial<Record<keyof SyncOptions, string>> = {
  maxFrameBytes: 'QUIRE_SYNC_MAX_FRAME_BYTES',
  maxBufferedBytes: 'QUIRE_SYNC_MAX_BUFFERED_BYTES',
  messagesPerSecond: 'QUIRE_SYNC_RATE',
  messageBurst: 'QUIRE_SYNC_BURST',
  inviteMessagesPerSecond: 'QUIRE_SYNC_INVITE_RATE',
  inviteMessageBurst: 'QUIRE_SYNC_INVITE_BURST',
  addressMessagesPerSecond: 'QUIRE_SYNC_ADDRESS_RATE',
  addressMessageBurst: 'QUIRE_SYNC_ADDRESS_BURST',
  connectionsPerAddress: 'QUIRE_SYNC_CONNECTIONS_PER_ADDRESS',
  stateRequestsPerMinute: 'QUIRE_SYNC_STATE_REQUESTS_PER_MINUTE',
  stateRequestBurst: 'QUIRE_SYNC_STATE_REQUEST_BURST',
  presenceMaxBytes: 'QUIRE_SYNC_PRESENCE_BYTES',
  presenceIdsPerConnection: 'QUIRE_SYNC_PRESENCE_IDS',
  idleUnloadSeconds: 'QUIRE_SYNC_IDLE_SECONDS',
  compactAfterUpdates: 'QUIRE_SYNC_COMPACT_AFTER',
};

function badOption(name: keyof SyncOptions, value: unknown, want: string): QuireError {
  const setting = SETTINGS[name] ? ` (set by ${SETTINGS[name]})` : '';
  return new QuireError(
    'bad-input',
    `The sync option ${name}${setting} must be ${want}, not ${String(value)}.`,
  );
}
