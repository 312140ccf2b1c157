import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { QuireError, errorMessage } from '../errors.ts';
import type { UpdateLog } from '../store/update-log-store.ts';
import { CLOSE_CODES, SYNC_SUBPROTOCOL, tokenFromProtocols, type CloseCode } from '@quire/core';
import { addressKey } from './client-address.ts';
import { DEFAULT_PRESENCE_IDS_PER_CONNECTION, DEFAULT_PRESENCE_MAX_BYTES, GroupDoc } from './group-doc.ts';
import type { AccessRefusal, GroupAccess, GroupService } from './group-service.ts';
import type { DocCluster } from './doc-cluster.ts';
import { SyncConnection, type EarlyFrame } from './sync-connection.ts';
import { SharedMessageCounts } from './shared-message-counts.ts';
import {
  KeyedBuckets,
  SharedLimit,
  type MessageLimit,
  type SharedRateLimits,
  type TokenBucket,
} from './token-bucket.ts';

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
   * for the group's state per address are then counted across nodes. Messages stay counted per node.
   */
  sharedLimits?: SharedRateLimits;
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

/** The websocket path: `/yjs/<groupId>`, as y-websocket's provider builds it from `<serverUrl>/yjs`. */
const SYNC_PATH = /^\/yjs\/([^/]+)$/;
/** How long `close()` waits for clients to answer the close handshake before cutting them off. */
const CLOSE_GRACE_MS = 2000;

const REFUSALS: Record<AccessRefusal, CloseCode> = {
  unauthorized: CLOSE_CODES.unauthorized,
  'unknown-group': CLOSE_CODES.unknownGroup,
  revoked: CLOSE_CODES.revoked,
};

/**
 * The server side of the y-websocket protocol, sharing the HTTP server's port: one document per group,
 * reached with an invite token offered as a `token.<token>` subprotocol (or, deprecated, `?token=`), stored
 * in the update log before anything is applied.
 */
export class SyncServer {
  private readonly options: SyncOptions;
  private readonly wss: WebSocketServer;
  private readonly docs = new Map<string, GroupDoc>();
  private readonly connections = new Set<SyncConnection>();
  private readonly connectionsByAddress = new Map<string, number>();
  private readonly inviteBuckets: KeyedBuckets;
  private readonly addressBuckets: KeyedBuckets;
  private readonly stateRequestBuckets: KeyedBuckets;
  private readonly inviteJoinBuckets: KeyedBuckets;
  /** This node's count of joins per address, used only while the shared count cannot answer. */
  private readonly addressJoinBuckets: KeyedBuckets;
  private readonly joinLimit: SharedLimit;
  /** The invites' and addresses' message allowances counted across nodes (null on one node). */
  private readonly messageCounts: SharedMessageCounts | null;
  private readonly heartbeat: NodeJS.Timeout;
  private closing = false;

  constructor(
    private readonly groups: GroupService,
    private readonly updates: UpdateLog,
    options: Partial<SyncOptions> = {},
  ) {
    this.options = { ...DEFAULT_SYNC_OPTIONS, ...options };
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
      if (!(this.options[key] >= 1)) throw badOption(key, this.options[key], 'at least 1');
    }
    for (const key of [
      'inviteMessagesPerSecond',
      'addressMessagesPerSecond',
      'stateRequestsPerMinute',
      'inviteJoinsPerMinute',
    ] as const) {
      const value = this.options[key];
      if (!(value > 0 && Number.isFinite(value))) throw badOption(key, value, 'a positive number');
    }
    const o = this.options;
    this.inviteBuckets = new KeyedBuckets(o.inviteMessagesPerSecond, o.inviteMessageBurst);
    this.addressBuckets = new KeyedBuckets(o.addressMessagesPerSecond, o.addressMessageBurst);
    this.stateRequestBuckets = new KeyedBuckets(o.stateRequestsPerMinute / 60, o.stateRequestBurst);
    this.inviteJoinBuckets = new KeyedBuckets(o.inviteJoinsPerMinute / 60, o.inviteJoinBurst);
    this.addressJoinBuckets = new KeyedBuckets(o.stateRequestsPerMinute / 60, o.stateRequestBurst);
    this.joinLimit = new SharedLimit(o.sharedLimits ?? null, (why) =>
      o.log(
        `sync: Redis cannot count joins across nodes (${why}); this node counts its own until it answers`,
      ),
    );
    this.messageCounts = o.sharedLimits
      ? new SharedMessageCounts(o.sharedLimits, (why) =>
          o.log(
            `sync: Redis cannot count messages across nodes (${why}); this node counts its own until it answers`,
          ),
        )
      : null;
    const { idleUnloadSeconds, heartbeatSeconds } = this.options;
    if (!(idleUnloadSeconds >= 0 && Number.isFinite(idleUnloadSeconds))) {
      throw badOption('idleUnloadSeconds', idleUnloadSeconds, 'a number of seconds, 0 or more');
    }
    if (!(heartbeatSeconds > 0 && Number.isFinite(heartbeatSeconds))) {
      throw badOption('heartbeatSeconds', heartbeatSeconds, 'a positive number of seconds');
    }
    // ws refuses frames above its cap from the header alone (close 1009, no buffering); frames between
    // our limit and that cap get our own close code and reason.
    this.wss = new WebSocketServer({
      noServer: true,
      maxPayload: 2 * this.options.maxFrameBytes,
      // Never echo the token entry (ws would answer with the first offered): the answer must be one the
      // client offered, and only quire.v1 is safe to send back.
      handleProtocols: (offered) => (offered.has(SYNC_SUBPROTOCOL) ? SYNC_SUBPROTOCOL : false),
    });
    this.heartbeat = setInterval(() => this.beat(), this.options.heartbeatSeconds * 1000);
    this.heartbeat.unref();
  }

  /** Takes the HTTP server's upgrade requests; paths other than `/yjs/<groupId>` get a 404. */
  attach(server: Server): void {
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) =>
      this.handleUpgrade(req, socket, head),
    );
  }

  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => socket.destroy());
    const url = new URL(req.url ?? '/', 'http://sync.invalid');
    const groupId = decodedGroupId(url.pathname);
    if (groupId === null) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      socket.destroy();
      return;
    }
    const address = addressKey(req.socket.remoteAddress);
    this.wss.handleUpgrade(req, socket, head, (ws) =>
      this.accept(ws, groupId, offeredToken(req) ?? url.searchParams.get('token'), address),
    );
  }

  /** Closes the live connections opened with this invite (after it was revoked); returns how many. */
  closeInvite(inviteId: string): number {
    let closed = 0;
    for (const connection of [...this.connections]) {
      if (connection.invite.id !== inviteId) continue;
      connection.close(CLOSE_CODES.revoked);
      closed++;
    }
    return closed;
  }

  /** Compacts a loaded group now; false when it is not in memory. */
  compact(groupId: string): Promise<boolean> {
    return this.docs.get(groupId)?.compact() ?? Promise.resolve(false);
  }

  /** Ids of the groups whose documents are in memory. */
  loadedGroups(): string[] {
    return [...this.docs.keys()];
  }

  /** Tells every client the server is going away (4503, they reconnect), compacts and unloads every group. */
  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    clearInterval(this.heartbeat);
    this.messageCounts?.close();
    const sockets = [...this.wss.clients];
    const allClosed = Promise.all(sockets.map((ws) => closedPromise(ws)));
    for (const connection of [...this.connections]) connection.close(CLOSE_CODES.shuttingDown);
    let grace: NodeJS.Timeout | undefined;
    await Promise.race([allClosed, new Promise((resolve) => (grace = setTimeout(resolve, CLOSE_GRACE_MS)))]);
    clearTimeout(grace);
    for (const ws of this.wss.clients) ws.terminate();
    await Promise.all([...this.docs.values()].map((doc) => doc.unload()));
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }

  private accept(ws: WebSocket, groupId: string, token: string | null, address: string): void {
    ws.on('error', () => {}); // protocol errors close the socket themselves; 'close' cleans up
    if (this.closing) return refuse(ws, CLOSE_CODES.shuttingDown);
    const live = this.connectionsByAddress.get(address) ?? 0;
    if (live >= this.options.connectionsPerAddress) return refuse(ws, CLOSE_CODES.tooManyConnections);
    // The socket counts for its address from now on, while its invite is looked up too.
    this.connectionsByAddress.set(address, live + 1);
    ws.on('close', () => {
      const left = (this.connectionsByAddress.get(address) ?? 1) - 1;
      if (left > 0) this.connectionsByAddress.set(address, left);
      else this.connectionsByAddress.delete(address);
    });
    // A client speaks as soon as the socket opens; ws drops frames nobody listens for, so what arrives
    // while the invite is looked up is kept for the connection (a burst's worth at most).
    const early: EarlyFrame[] = [];
    const keep = (data: RawData, isBinary: boolean) => {
      early.push([data, isBinary]);
      if (early.length > this.options.messageBurst) refuse(ws, CLOSE_CODES.rateLimited);
    };
    ws.on('message', keep);
    this.groups
      .authorize(groupId, token)
      .then(async (access) => {
        const refusal = access.ok ? await this.joinRefusal(access.invite.id, address) : null;
        ws.off('message', keep);
        if (refusal) return refuse(ws, refusal);
        this.open(ws, groupId, access, address, early);
      })
      .catch((err: unknown) => {
        ws.off('message', keep);
        this.options.log(`sync: looking up an invite of group ${groupId} failed: ${errorMessage(err)}`);
        refuse(ws, CLOSE_CODES.serverError);
      });
  }

  /**
   * Whether this join is past its invite's allowance, or (with shared limits) its address's allowance of
   * state requests, which every join makes: counted across nodes, so N nodes do not give N times either.
   * One node alone charges the address at its sync step 1 as before.
   */
  private async joinRefusal(inviteId: string, address: string): Promise<CloseCode | null> {
    const o = this.options;
    const invite = this.inviteJoinBuckets.get(inviteId);
    if (
      !(await this.joinLimit.take(
        `sync-join:invite:${inviteId}`,
        o.inviteJoinsPerMinute / 60,
        o.inviteJoinBurst,
        invite,
      ))
    )
      return CLOSE_CODES.inviteRateLimited;
    if (!o.sharedLimits) return null;
    const local = this.addressJoinBuckets.get(address);
    const key = `sync-join:address:${address}`;
    if (!(await this.joinLimit.take(key, o.stateRequestsPerMinute / 60, o.stateRequestBurst, local)))
      return CLOSE_CODES.stateRequestsLimited;
    return null;
  }

  private open(
    ws: WebSocket,
    groupId: string,
    access: GroupAccess,
    address: string,
    early: readonly EarlyFrame[],
  ): void {
    if (ws.readyState !== ws.OPEN) return; // gone while its invite was looked up
    if (this.closing) return refuse(ws, CLOSE_CODES.shuttingDown);
    if (!access.ok) return refuse(ws, REFUSALS[access.refusal]);
    let doc = this.docs.get(groupId);
    if (!doc || doc.isUnloaded) {
      doc = new GroupDoc(
        groupId,
        this.updates,
        {
          compactAfterUpdates: this.options.compactAfterUpdates,
          idleUnloadMs: this.options.idleUnloadSeconds * 1000,
          presenceMaxBytes: this.options.presenceMaxBytes,
          presenceIdsPerConnection: this.options.presenceIdsPerConnection,
          ...(this.options.cluster ? { cluster: this.options.cluster } : {}),
          log: this.options.log,
        },
        (gone) => {
          if (this.docs.get(gone.groupId) === gone) this.docs.delete(gone.groupId);
        },
      );
      this.docs.set(groupId, doc);
    }
    const o = this.options;
    const inviteKey = `sync-messages:invite:${access.invite.id}`;
    const addressKey = `sync-messages:address:${address}`;
    const shared = {
      messages: [
        {
          bucket: this.counted(
            this.inviteBuckets.get(access.invite.id),
            inviteKey,
            o.inviteMessagesPerSecond,
            o.inviteMessageBurst,
          ),
          code: CLOSE_CODES.inviteRateLimited,
        },
        {
          bucket: this.counted(
            this.addressBuckets.get(address),
            addressKey,
            o.addressMessagesPerSecond,
            o.addressMessageBurst,
          ),
          code: CLOSE_CODES.addressRateLimited,
        },
      ],
      stateRequests: {
        bucket: this.stateRequestBuckets.get(address),
        code: CLOSE_CODES.stateRequestsLimited,
      },
    };
    const connection = new SyncConnection(
      ws,
      access.invite,
      doc,
      this.options,
      shared,
      this.options.log,
      early,
    );
    this.connections.add(connection);
    ws.on('close', () => this.connections.delete(connection));
  }

  /**
   * Reports the messages counted since the last report to the other nodes' shared count now, and reads
   * back what is left (it happens by itself every 50 ms while messages arrive). Resolves at once on one node.
   */
  reportSharedCounts(): Promise<void> {
    return this.messageCounts?.report() ?? Promise.resolve();
  }

  /** This node's bucket for a key and, with other nodes, the allowance they all count against. */
  private counted(local: TokenBucket, key: string, perSecond: number, burst: number): MessageLimit {
    const counts = this.messageCounts;
    if (!counts) return local;
    return { take: () => local.take() && counts.take(key, perSecond, burst) };
  }

  private beat(): void {
    for (const connection of this.connections) {
      if (!connection.alive) {
        connection.ws.terminate();
        continue;
      }
      connection.alive = false;
      connection.ws.ping();
    }
  }
}

function refuse(ws: WebSocket, code: CloseCode): void {
  ws.close(code.code, code.reason);
}

/** The token from the `Sec-WebSocket-Protocol` header, which keeps it out of URLs and their logs. */
function offeredToken(req: IncomingMessage): string | null {
  const header = req.headers['sec-websocket-protocol'];
  return header === undefined ? null : tokenFromProtocols(header.split(',').map((p) => p.trim()));
}

function decodedGroupId(pathname: string): string | null {
  const match = SYNC_PATH.exec(pathname);
  if (!match?.[1]) return null;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return null;
  }
}

function closedPromise(ws: WebSocket): Promise<void> {
  if (ws.readyState === ws.CLOSED) return Promise.resolve();
  return new Promise((resolve) => ws.once('close', () => resolve()));
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
