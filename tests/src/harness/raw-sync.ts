import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import { onTestFinished } from 'vitest';
import WebSocket from 'ws';
import * as awarenessProtocol from 'y-protocols/awareness';
import * as Y from 'yjs';
import type { Close } from './sync-harness.ts';

/*
 * Raw y-websocket frames, written from the protocol description (and y-protocols' own awareness
 * encoding) rather than taken from the server, for sending what no well-behaved provider would send.
 */

export const MESSAGE_SYNC = 0;
export const MESSAGE_AWARENESS = 1;
export const MESSAGE_QUERY_AWARENESS = 3;
export const SYNC_STEP_1 = 0;
export const SYNC_STEP_2 = 1;

export function frame(...parts: (number | Uint8Array)[]): Uint8Array {
  const encoder = encoding.createEncoder();
  for (const part of parts) {
    if (typeof part === 'number') encoding.writeVarUint(encoder, part);
    else encoding.writeVarUint8Array(encoder, part);
  }
  return encoding.toUint8Array(encoder);
}

/** Sync step 1 with an empty state vector: "send me the whole group". */
export function fullStateRequest(): Uint8Array {
  return frame(MESSAGE_SYNC, SYNC_STEP_1, Y.encodeStateVector(new Y.Doc()));
}

export interface PresenceEntry {
  clientId: number;
  clock: number;
  /** null says "this client left". */
  state: unknown;
}

/** An awareness message claiming whatever client ids and clocks it is given. */
export function awarenessFrame(entries: PresenceEntry[]): Uint8Array {
  const doc = new Y.Doc();
  const awareness = new awarenessProtocol.Awareness(doc);
  const states = new Map<number, Record<string, unknown>>();
  for (const { clientId, clock, state } of entries) {
    awareness.meta.set(clientId, { clock, lastUpdated: 0 });
    if (state !== null) states.set(clientId, state as Record<string, unknown>);
  }
  const update = awarenessProtocol.encodeAwarenessUpdate(
    awareness,
    entries.map((e) => e.clientId),
    states,
  );
  awareness.destroy();
  doc.destroy();
  return frame(MESSAGE_AWARENESS, update);
}

/** The presence states carried by the awareness messages among `frames`, later ones winning. */
export function presenceIn(frames: Uint8Array[]): Map<number, unknown> {
  const states = new Map<number, unknown>();
  for (const bytes of frames) {
    const decoder = decoding.createDecoder(bytes);
    if (decoding.readVarUint(decoder) !== MESSAGE_AWARENESS) continue;
    const update = decoding.createDecoder(decoding.readVarUint8Array(decoder));
    const count = decoding.readVarUint(update);
    for (let i = 0; i < count; i++) {
      const clientId = decoding.readVarUint(update);
      decoding.readVarUint(update); // clock
      const state: unknown = JSON.parse(decoding.readVarString(update));
      if (state === null) states.delete(clientId);
      else states.set(clientId, state);
    }
  }
  return states;
}

export function isSyncStep2(bytes: Uint8Array): boolean {
  return bytes[0] === MESSAGE_SYNC && bytes[1] === SYNC_STEP_2;
}

export interface RawClient {
  ws: WebSocket;
  opened: Promise<void>;
  closed: Promise<Close>;
  received: Uint8Array[];
  /** Resolves with the first received frame `match` accepts, or null once the socket closed first. */
  next(match: (bytes: Uint8Array) => boolean): Promise<Uint8Array | null>;
}

/**
 * A bare websocket to `/yjs/<groupId>`, optionally from another loopback source address (127.0.0.2…),
 * which the server counts as another client address.
 */
export function rawClient(
  url: string,
  groupId: string,
  token: string,
  options: { localAddress?: string } = {},
): RawClient {
  const ws = new WebSocket(
    `${url.replace(/^http/, 'ws')}/yjs/${groupId}?token=${encodeURIComponent(token)}`,
    options.localAddress ? { localAddress: options.localAddress } : {},
  );
  const received: Uint8Array[] = [];
  const waiting: { match: (bytes: Uint8Array) => boolean; done: (b: Uint8Array | null) => void }[] = [];
  let isClosed = false;
  ws.on('message', (data: Buffer) => {
    const bytes = new Uint8Array(data);
    received.push(bytes);
    for (const w of [...waiting]) {
      if (!w.match(bytes)) continue;
      waiting.splice(waiting.indexOf(w), 1);
      w.done(bytes);
    }
  });
  ws.on('error', () => {});
  const opened = new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('close', () => reject(new Error('closed before opening')));
  });
  opened.catch(() => {});
  const closed = new Promise<Close>((resolve) =>
    ws.once('close', (code: number, reason: Buffer) => {
      isClosed = true;
      for (const w of waiting.splice(0)) w.done(null);
      resolve({ code, reason: reason.toString() });
    }),
  );
  onTestFinished(() => ws.terminate());
  return {
    ws,
    opened,
    closed,
    received,
    next(match) {
      const seen = received.find(match);
      if (seen) return Promise.resolve(seen);
      if (isClosed) return Promise.resolve(null);
      return new Promise((done) => waiting.push({ match, done }));
    },
  };
}

const isSyncStep1 = (bytes: Uint8Array) => bytes[0] === MESSAGE_SYNC && bytes[1] === SYNC_STEP_1;

/**
 * Sends `frames` and then a full-state request, and says whether the server answered every state
 * request among them (frames are handled in order, so the last answer comes after all of them) or
 * closed the socket first.
 */
export async function servedOrClosed(client: RawClient, frames: Uint8Array[]): Promise<'served' | Close> {
  await client.opened;
  const want = client.received.filter(isSyncStep2).length + frames.filter(isSyncStep1).length + 1;
  for (const f of frames) client.ws.send(f);
  client.ws.send(fullStateRequest());
  const answered = new Promise<'served' | null>((resolve) => {
    const check = (): void => {
      if (client.received.filter(isSyncStep2).length >= want) resolve('served');
    };
    client.ws.on('message', check);
    void client.closed.then(() => resolve(null));
  });
  const outcome = await answered;
  return outcome ?? client.closed;
}
