import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { errorMessage } from '../errors.ts';
import type { UpdateLog } from '../store/update-log-store.ts';
import { CLOSE_CODES, SYNC_SUBPROTOCOL, tokenFromProtocols, type CloseCode } from '@quire/core';
import { addressKey } from './client-address.ts';
import { GroupDoc } from './group-doc.ts';
import type { AccessRefusal, GroupAccess, GroupService } from './group-service.ts';
import { SyncConnection, type EarlyFrame } from './sync-connection.ts';
import { SyncLimits } from './sync-limits.ts';
import { syncOptions, type SyncOptions } from './sync-options.ts';

export { DEFAULT_SYNC_OPTIONS, type SyncOptions } from './sync-options.ts';

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
  private readonly limits: SyncLimits;
  private readonly heartbeat: NodeJS.Timeout;
  private closing = false;

  constructor(
    private readonly groups: GroupService,
    private readonly updates: UpdateLog,
    options: Partial<SyncOptions> = {},
  ) {
    this.options = syncOptions(options);
    this.limits = new SyncLimits(this.options);
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
      this.accept(ws, socket, groupId, offeredToken(req) ?? url.searchParams.get('token'), address),
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
    this.limits.close();
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

  private accept(
    ws: WebSocket,
    socket: Duplex,
    groupId: string,
    token: string | null,
    address: string,
  ): void {
    ws.on('error', () => {}); // protocol errors close the socket themselves; 'close' cleans up
    if (this.closing) return refuse(ws, CLOSE_CODES.shuttingDown);
    const live = this.connectionsByAddress.get(address) ?? 0;
    if (live >= this.options.connectionsPerAddress) return refuse(ws, CLOSE_CODES.tooManyConnections);
    // The socket counts for its address from now on, while its invite is looked up too.
    this.connectionsByAddress.set(address, live + 1);
    const closed = closedPromise(ws);
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
        const refusal = access.ok ? await this.limits.joinRefusal(access.invite.id, address, closed) : null;
        ws.off('message', keep);
        if (refusal) return refuse(ws, refusal);
        this.open(ws, socket, groupId, access, address, early);
      })
      .catch((err: unknown) => {
        ws.off('message', keep);
        this.options.log(`sync: looking up an invite of group ${groupId} failed: ${errorMessage(err)}`);
        refuse(ws, CLOSE_CODES.serverError);
      });
  }

  private open(
    ws: WebSocket,
    socket: Duplex,
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
    const shared = this.limits.forConnection(access.invite.id, address);
    const connection = new SyncConnection(
      ws,
      access.invite,
      doc,
      this.options,
      shared,
      this.options.log,
      early,
      socket,
    );
    this.connections.add(connection);
    ws.on('close', () => this.connections.delete(connection));
  }

  /** Reports this node's sync messages to the count across nodes now (it happens every 50 ms by itself). */
  reportSharedCounts(): Promise<void> {
    return this.limits.reportSharedCounts();
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
