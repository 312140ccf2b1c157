import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';
import WebSocket from 'ws';
import { WebsocketProvider } from 'y-websocket';
import * as Y from 'yjs';
import { DEFAULT_CONFIG, type QuireConfig } from '@quire/server/config';
import { startServer, type RunningServer } from '@quire/server/server';
import { syncProtocols, type CreatedGroupDto } from '@quire/core';
import { SQLITE_ENGINE, type GroupEngine } from './engines.ts';

export interface SyncTestServer {
  dbPath: string;
  /** The running instance (replaced by `restart`). */
  readonly server: RunningServer;
  readonly url: string;
  /** Closes the server and starts a new one on the same database file. */
  restart(overrides?: Partial<QuireConfig>): Promise<RunningServer>;
  /** Update rows of a group as this server stored them, on its engine. */
  storedRows(groupId: string): Promise<number>;
  /** The group's document rebuilt from its stored rows alone. */
  storedDoc(groupId: string): Promise<Y.Doc>;
}

/**
 * A real server on port 0 over a fresh SQLite file, without harvesting; on `engine` PostgreSQL its group
 * side is in that engine's database for this file. It registers its own teardown with the calling test,
 * so a test only says what it needs.
 */
export async function startSyncTestServer(
  overrides: Partial<QuireConfig> = {},
  engine: GroupEngine = SQLITE_ENGINE,
): Promise<SyncTestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'quire-sync-'));
  const dbPath = join(dir, 'quire.db');
  const config = (more: Partial<QuireConfig>): QuireConfig => ({
    ...DEFAULT_CONFIG,
    dbPath,
    port: 0,
    harvest: false,
    databaseUrl: engine.databaseUrl,
    ...overrides,
    ...more,
  });
  let current: RunningServer | null = await startServer(config({}));
  onTestFinished(async () => {
    await current?.close();
    current = null;
    rmSync(dir, { recursive: true, force: true });
  });
  const running = (): RunningServer => {
    if (!current) throw new Error('the test server is stopped');
    return current;
  };
  return {
    dbPath,
    get server() {
      return running();
    },
    get url() {
      return running().url;
    },
    async restart(more = {}) {
      const old = current;
      current = null;
      await old?.close();
      current = await startServer(config(more));
      return current;
    },
    storedRows: (groupId) => engine.storedRows(dbPath, groupId),
    storedDoc: (groupId) => engine.storedDoc(dbPath, groupId),
  };
}

/** Creates a group through the HTTP API, as the web app does. */
export async function createGroup(url: string, name = 'Reading group'): Promise<CreatedGroupDto> {
  const res = await fetch(`${url}/api/groups`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  if (res.status !== 201) throw new Error(`POST /api/groups answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as CreatedGroupDto;
}

export function tokenOf(group: CreatedGroupDto, role: 'read-write' | 'read-only'): string {
  const invite = group.invites.find((i) => i.role === role);
  if (!invite) throw new Error(`group ${group.id} has no ${role} invite`);
  return invite.token;
}

export interface Close {
  code: number;
  reason: string;
}

export interface SyncPeer {
  doc: Y.Doc;
  provider: WebsocketProvider;
  /** Close events the provider's socket saw, in order. */
  closes: Close[];
  /** Cuts the socket without a close handshake or "I left", as a crashed tab or a lost network does. */
  drop(): void;
  destroy(): void;
}

/**
 * Where a client puts its invite token: the `Sec-WebSocket-Protocol` header, as the web app does, or the
 * deprecated `?token=` query older clients send.
 */
export type TokenIn = 'protocol' | 'query';

function tokenOptions(
  token: string | null,
  tokenIn: TokenIn,
): { params: Record<string, string>; protocols: string[] } {
  if (token === null) return { params: {}, protocols: [] };
  if (tokenIn === 'query') return { params: { token }, protocols: [] };
  return { params: {}, protocols: syncProtocols(token) };
}

/**
 * A stock y-websocket client in Node, as the web app connects: `<url>/yjs/<groupId>` with the token in the
 * subprotocol list. BroadcastChannel is off, or peers in one process would sync around the server.
 */
export function syncPeer(
  url: string,
  groupId: string,
  token: string | null,
  doc = new Y.Doc(),
  tokenIn: TokenIn = 'protocol',
): SyncPeer {
  const provider = new WebsocketProvider(`${url.replace(/^http/, 'ws')}/yjs`, groupId, doc, {
    ...tokenOptions(token, tokenIn),
    WebSocketPolyfill: WebSocket as unknown as typeof globalThis.WebSocket,
    disableBc: true,
  });
  const closes: Close[] = [];
  provider.on('connection-close', (event: { code: number; reason: string } | null) => {
    if (event) closes.push({ code: event.code, reason: event.reason });
  });
  let destroyed = false;
  const peer: SyncPeer = {
    doc,
    provider,
    closes,
    drop() {
      (provider.ws as unknown as WebSocket | null)?.terminate();
    },
    destroy() {
      if (destroyed) return;
      destroyed = true;
      provider.destroy();
      doc.destroy();
    },
  };
  onTestFinished(() => peer.destroy());
  return peer;
}

export interface RawSocket {
  ws: WebSocket;
  /** Resolves when the socket is open. */
  opened: Promise<void>;
  /** Resolves with the close code and reason the server sent. */
  closed: Promise<Close>;
  received: Uint8Array[];
}

/** A bare websocket to the sync endpoint, for sending frames no well-behaved provider would send. */
export function rawSocket(
  url: string,
  groupId: string,
  token: string | null,
  tokenIn: TokenIn = 'protocol',
): RawSocket {
  const { params, protocols } = tokenOptions(token, tokenIn);
  const query = params.token === undefined ? '' : `?token=${encodeURIComponent(params.token)}`;
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/yjs/${groupId}${query}`, protocols);
  const received: Uint8Array[] = [];
  ws.on('message', (data: Buffer) => received.push(new Uint8Array(data)));
  ws.on('error', () => {});
  const opened = new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('close', () => reject(new Error('closed before opening')));
  });
  opened.catch(() => {});
  const closed = new Promise<Close>((resolve) =>
    ws.once('close', (code: number, reason: Buffer) => resolve({ code, reason: reason.toString() })),
  );
  onTestFinished(() => ws.terminate());
  return { ws, opened, closed, received };
}

export { storedDoc, storedRows } from './stored-group.ts';
