import { EventEmitter } from 'node:events';
import * as Y from 'yjs';
import type { WebSocket } from 'ws';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLOSE_CODES, type CloseCode } from '@quire/core';
import { openStore, type Store } from '../store/open-store.ts';
import type { UpdateLog } from '../store/update-log-store.ts';
import { GroupDoc, type DocPeer } from './group-doc.ts';
import { groupServiceOver } from './group-service.ts';
import { SyncConnection } from './sync-connection.ts';
import { readClientMessage, updateMessage } from './sync-messages.ts';
import { TokenBucket } from './token-bucket.ts';

let store: Store;
let groupId: string;
const docs: GroupDoc[] = [];

beforeEach(async () => {
  store = openStore(':memory:');
  groupId = (await groupServiceOver(store).createGroup('G')).group.id;
});
afterEach(async () => {
  for (const doc of docs.splice(0)) await doc.unload();
  store.close();
});

/** The part of a ws socket SyncConnection uses: frames go in with `frame`, what it sends is kept. */
class FakeSocket extends EventEmitter {
  readonly OPEN = 1;
  readyState = 1;
  bufferedAmount = 0;
  sent: Uint8Array[] = [];
  closedWith: number | null = null;
  send(message: Uint8Array): void {
    this.sent.push(message);
  }
  close(code: number): void {
    this.closedWith = code;
    this.readyState = 3;
  }
  frame(bytes: Uint8Array): void {
    this.emit('message', Buffer.from(bytes), true);
  }
}

class Peer implements DocPeer {
  sent: Uint8Array[] = [];
  send(message: Uint8Array): void {
    this.sent.push(message);
  }
  close(_code: CloseCode): void {}
}

/** A log whose first append waits for `release` (a slow round trip) and, with `fail`, then fails. */
function heldLog(fail = false) {
  const log = store.groupUpdates;
  let release = (): void => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  let appends = 0;
  const updates: UpdateLog = {
    load: (id) => log.load(id),
    count: (id) => log.count(id),
    replaceThrough: (id, through, merged) => log.replaceThrough(id, through, merged),
    append: async (id, update) => {
      if (++appends === 1) {
        await held;
        if (fail) throw new Error('the database went away');
      }
      return log.append(id, update);
    },
  };
  return { updates, release, appends: () => appends };
}

async function loadedDoc(updates: UpdateLog): Promise<GroupDoc> {
  const doc = new GroupDoc(
    groupId,
    updates,
    { compactAfterUpdates: 1000, idleUnloadMs: 60_000, log: () => {} },
    () => {},
  );
  docs.push(doc);
  expect(await doc.loaded).toBe(true);
  return doc;
}

function connect(doc: GroupDoc, logged: string[] = []): FakeSocket {
  const ws = new FakeSocket();
  const limits = {
    maxFrameBytes: 1 << 20,
    maxBufferedBytes: 1 << 20,
    messagesPerSecond: 1000,
    messageBurst: 1000,
  };
  const invite = {
    id: 'i',
    groupId,
    role: 'read-write' as const,
    createdAt: '',
    revokedAt: null,
    invitedBy: null,
  };
  const shared = {
    messages: [],
    stateRequests: { bucket: new TokenBucket(100, 100), code: CLOSE_CODES.rateLimited },
  };
  new SyncConnection(ws as unknown as WebSocket, invite, doc, limits, shared, (line) => logged.push(line));
  return ws;
}

/** One client's edits, each its own update, as its y-websocket provider sends them. */
function clientEdits(...texts: string[]): Uint8Array[] {
  const doc = new Y.Doc();
  const out: Uint8Array[] = [];
  doc.on('update', (update: Uint8Array) => out.push(updateMessage(update)));
  for (const text of texts) doc.getArray<string>('edits').push([text]);
  return out;
}

/** A group whose first append fails once released, a peer that reads it, and one client connected. */
async function failingGroup() {
  const log = heldLog(true);
  const doc = await loadedDoc(log.updates);
  const reader = new Peer();
  doc.join(reader);
  const logged: string[] = [];
  const ws = connect(doc, logged);
  return { log, doc, reader, logged, ws };
}

/** The edits one stored row holds on its own. */
function decoded(row: Uint8Array): string[] {
  const doc = new Y.Doc();
  Y.applyUpdate(doc, row);
  return doc.getArray<string>('edits').toArray();
}

/** Lets queued promise callbacks and I/O callbacks run, until `done` or a bound (no clock involved). */
async function settle(done: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !done(); i++) await new Promise((resolve) => setImmediate(resolve));
}

describe('SyncConnection', () => {
  it("hands a client's next updates to the group while its first append is out; the log keeps their order", async () => {
    const log = heldLog();
    const doc = await loadedDoc(log.updates);
    const reader = new Peer();
    doc.join(reader);
    const ws = connect(doc);
    await settle(() => ws.sent.length > 0); // the connection went live (sync step 1)
    const [one, two, three] = clientEdits('one', 'two', 'three');
    ws.frame(one!);
    await settle(() => log.appends() === 1);
    ws.frame(two!);
    ws.frame(three!);
    // Not held behind the first append: both wait in the group's next row.
    await settle(() => false);
    expect(reader.sent).toHaveLength(0);
    log.release();
    await settle(() => reader.sent.length === 3);
    expect(log.appends()).toBe(2);
    const rows = await store.groupUpdates.load(groupId);
    expect(rows).toHaveLength(2);
    expect(decoded(rows[0]!.data)).toEqual(['one']);
    const check = new Y.Doc();
    for (const row of rows) Y.applyUpdate(check, row.data);
    expect(check.getArray('edits').toArray()).toEqual(['one', 'two', 'three']);
    expect(reader.sent).toHaveLength(3);
    expect(ws.closedWith).toBeNull();
  });

  it('closes the connection when an append fails, and nobody is sent what was not stored', async () => {
    const { log, reader, logged, ws } = await failingGroup();
    await settle(() => ws.sent.length > 0);
    const [one] = clientEdits('lost');
    ws.frame(one!);
    await settle(() => log.appends() === 1);
    log.release();
    await settle(() => ws.closedWith !== null);
    expect(ws.closedWith).toBe(CLOSE_CODES.serverError.code);
    expect(logged.join('\n')).toContain('the database went away');
    expect(reader.sent).toHaveLength(0);
    expect(await store.groupUpdates.load(groupId)).toHaveLength(0);
  });

  it("refuses a client's updates that wait behind its failed append, and stores another client's", async () => {
    const { log, doc, reader, logged, ws } = await failingGroup();
    const other = connect(doc);
    await settle(() => ws.sent.length > 0 && other.sent.length > 0);
    const [one, two] = clientEdits('one', 'two');
    const [theirs] = clientEdits('theirs');
    ws.frame(one!);
    await settle(() => log.appends() === 1);
    // Both wait in the next row while 'one' is out; 'two' builds on 'one'.
    ws.frame(two!);
    other.frame(theirs!);
    log.release();
    await settle(() => ws.closedWith !== null && reader.sent.length === 1);
    expect(ws.closedWith).toBe(CLOSE_CODES.serverError.code);
    expect(logged.join('\n')).toContain('an earlier update from the same connection failed to store');
    const rows = await store.groupUpdates.load(groupId);
    expect(rows.map((row) => decoded(row.data))).toEqual([['theirs']]);
    expect(other.closedWith).toBeNull();
    // The reader was sent 'theirs' alone: neither of the first client's updates.
    const seen = new Y.Doc();
    for (const message of reader.sent) {
      const read = readClientMessage(message);
      if (read.kind === 'update') Y.applyUpdate(seen, read.update);
    }
    expect(seen.getArray('edits').toArray()).toEqual(['theirs']);
  });
});
