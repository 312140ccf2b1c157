import type { RawData, WebSocket } from 'ws';
import { errorMessage } from '../errors.ts';
import { CLOSE_CODES, type CloseCode } from '@quire/core';
import type { DocPeer, GroupDoc } from './group-doc.ts';
import type { InviteEntity } from '../store/invite-store.ts';
import {
  MalformedMessage,
  readClientMessage,
  updateHasContent,
  type ClientMessage,
} from './sync-messages.ts';
import { TokenBucket, type MessageLimit } from './token-bucket.ts';
import { syncTrace } from './sync-trace.ts';
import { corkForThisTask, type Corkable } from './task-cork.ts';

export interface ConnectionLimits {
  maxFrameBytes: number;
  maxBufferedBytes: number;
  messagesPerSecond: number;
  messageBurst: number;
}

/** A bucket this connection shares with others (its invite's, its address's), and the close for when it is empty. */
export interface SharedBucket {
  bucket: MessageLimit;
  code: CloseCode;
}

export interface SharedLimits {
  /** Every message takes a token from each of these as well as from the connection's own bucket. */
  messages: SharedBucket[];
  /** Every request for the group's state (sync step 1) takes a token from this one. */
  stateRequests: SharedBucket;
}

/** A frame as ws delivered it, kept while the server looked the invite up. */
export type EarlyFrame = readonly [data: RawData, isBinary: boolean];

/**
 * One authorized socket on one group. The role comes from the invite the server looked up, never
 * from the client. Frames are checked for size and rate as they arrive, queued until the group's stored
 * state is loaded, then handled strictly in order. An update is handed to the group, which appends it to
 * the log before it applies or relays it, and the next frame is handled without waiting for that
 * append: the group keeps its updates in arrival order (GroupDoc.store), and a client sending every
 * 200 ms must not be held to one log round trip per update (the 3-node bench, its frames waiting 5 s
 * for their connection's earlier appends at a load of 12, when an append took 220 ms).
 */
export class SyncConnection implements DocPeer {
  /** Set by the heartbeat before a ping and back by the pong; a socket that stays false is dead. */
  alive = true;
  private closed = false;
  private queue: Uint8Array[] | null = [];
  private readonly bucket: TokenBucket;

  constructor(
    readonly ws: WebSocket,
    readonly invite: InviteEntity,
    private readonly group: GroupDoc,
    private readonly limits: ConnectionLimits,
    private readonly shared: SharedLimits,
    private readonly log: (line: string) => void,
    early: readonly EarlyFrame[] = [],
    /** The socket under `ws`, whose writes are held to one per task (task-cork.ts). */
    private readonly socket: Corkable | null = null,
  ) {
    this.bucket = new TokenBucket(limits.messagesPerSecond, limits.messageBurst);
    ws.on('message', (data, isBinary) => this.receive(data, isBinary));
    ws.on('pong', () => (this.alive = true));
    ws.on('close', () => this.detach());
    group.join(this);
    void group.loaded.then((ok) => (ok ? this.goLive() : this.close(CLOSE_CODES.serverError)));
    // After join: a frame refused here closes a connection the group already knows, and so leaves it.
    for (const [data, isBinary] of early) this.receive(data, isBinary);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  send(message: Uint8Array): void {
    if (this.closed || this.ws.readyState !== this.ws.OPEN) return;
    // A client that stopped reading would make the server hold every later update for it; past the
    // limit it is dropped instead, and its reconnect resyncs it with one state exchange.
    if (this.ws.bufferedAmount > this.limits.maxBufferedBytes) return this.close(CLOSE_CODES.tooSlow);
    if (this.socket) corkForThisTask(this.socket);
    // A failed send means the socket is going away; its error and close events clean up.
    this.ws.send(message);
  }

  close(code: CloseCode): void {
    if (this.closed) return;
    this.detach();
    this.ws.close(code.code, code.reason);
  }

  private detach(): void {
    this.closed = true;
    this.queue = null;
    this.group.leave(this);
  }

  private receive(data: RawData, isBinary: boolean): void {
    if (this.closed) return;
    this.alive = true;
    if (!isBinary) return this.close(CLOSE_CODES.badMessage);
    const frame = toBytes(data);
    if (frame.byteLength > this.limits.maxFrameBytes) return this.close(CLOSE_CODES.frameTooLarge);
    if (!this.bucket.take()) return this.close(CLOSE_CODES.rateLimited);
    // Shared buckets make a reconnect or a second socket cost the same as staying on one.
    for (const { bucket, code } of this.shared.messages) if (!bucket.take()) return this.close(code);
    if (syncTrace) traceArrival(frame);
    if (this.queue) this.queue.push(frame);
    else this.handle(frame);
  }

  private goLive(): void {
    const queued = this.queue;
    if (this.closed || !queued) return;
    this.queue = null;
    // A read-only client is not asked for its state: it has nothing to contribute, and a step 2 with
    // content from it would be a write. It still gets the group through its own step 1.
    if (this.invite.role === 'read-write') this.send(this.group.syncStep1());
    const presence = this.group.awarenessSnapshot();
    if (presence) this.send(presence);
    for (const frame of queued) this.handle(frame);
  }

  /**
   * Handled at once, in arrival order: nothing here waits (an update's append is the group's to await),
   * so no frame can overtake another.
   */
  private handle(frame: Uint8Array): void {
    if (this.closed) return;
    try {
      this.dispatch(readClientMessage(frame));
    } catch (err) {
      if (err instanceof MalformedMessage) return this.close(CLOSE_CODES.badMessage);
      this.fail(err);
    }
  }

  /** A server-side failure: logged, and the connection closed so that the client resyncs. */
  private fail(err: unknown): void {
    this.log(`sync: group ${this.group.groupId}: ${errorMessage(err)}`);
    this.close(CLOSE_CODES.serverError);
  }

  private dispatch(message: ClientMessage): void {
    switch (message.kind) {
      case 'sync-step-1': {
        // A well-behaved client asks once per connection; a loop asking for a large group again and
        // again, over one socket or many, is what this bucket stops.
        const { bucket, code } = this.shared.stateRequests;
        if (!bucket.take()) return this.close(code);
        return this.send(this.group.syncStep2(message.stateVector));
      }
      case 'sync-step-2':
      case 'update':
        // An empty step 2 is how any client, read-only included, says "I have nothing you lack".
        if (!updateHasContent(message.update)) return;
        if (this.invite.role !== 'read-write') return this.close(CLOSE_CODES.readOnly);
        // Not appended means applied and sent nowhere; the client sends it again when it reconnects.
        this.group.store(this, message.update).catch((err: unknown) => this.fail(err));
        return;
      case 'awareness': {
        let refusal: CloseCode | null;
        try {
          refusal = this.group.applyAwareness(this, message.update);
        } catch (err) {
          if (err instanceof MalformedMessage) throw err;
          throw new MalformedMessage(`bad awareness update: ${errorMessage(err)}`);
        }
        if (refusal) this.close(refusal);
        return;
      }
      case 'query-awareness': {
        const presence = this.group.awarenessSnapshot();
        if (presence) this.send(presence);
        return;
      }
    }
  }
}

/** Marks an update's arrival, before it waits for the connection's earlier frames (only when tracing). */
function traceArrival(frame: Uint8Array): void {
  try {
    const message = readClientMessage(frame);
    if (message.kind === 'update' || message.kind === 'sync-step-2') {
      syncTrace?.mark('arrived', message.update);
    }
  } catch {
    // Refused when it is handled.
  }
}

function toBytes(data: RawData): Uint8Array {
  if (Array.isArray(data)) return Buffer.concat(data);
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  return data;
}
