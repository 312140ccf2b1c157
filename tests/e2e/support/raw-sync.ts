/**
 * What a well-behaved provider never does, done from inside a member's page: a bare WebSocket to the
 * sync endpoint sending frames built here by hand. And the group as the server stored it, read from its
 * SQLite file through a connection of the test's own.
 */
import type { Page } from '@playwright/test';
import * as encoding from 'lib0/encoding';
import * as Y from 'yjs';
import { storedDoc } from '../../src/harness/stored-group.ts';

export { storedDoc };

/** y-websocket framing, written from the protocol description: message type, sync step, payload. */
const SYNC = 0;
export const SYNC_STEP_2 = 1;
export const SYNC_UPDATE = 2;

export function syncFrame(step: number, update: Uint8Array): Uint8Array {
  const encoder = encoding.createEncoder();
  encoding.writeVarUint(encoder, SYNC);
  encoding.writeVarUint(encoder, step);
  encoding.writeVarUint8Array(encoder, update);
  return encoding.toUint8Array(encoder);
}

/** A real Yjs update made on a doc of the test's own, e.g. text inserted into a note. */
export function updateOf(edit: (doc: Y.Doc) => void): Uint8Array {
  const doc = new Y.Doc();
  edit(doc);
  return Y.encodeStateAsUpdate(doc);
}

export interface Closed {
  code: number;
  reason: string;
}

/**
 * Opens `/yjs/<groupId>?token=…` from the page (its origin is the server's), sends one binary frame once
 * open, and resolves with the close the server sent. `frame` may be a byte count, sent as zeros.
 */
export function sendRaw(
  page: Page,
  groupId: string,
  token: string,
  frame: Uint8Array | number,
): Promise<Closed> {
  const bytes = typeof frame === 'number' ? frame : Buffer.from(frame).toString('base64');
  // Runs in the page; the tests' tsconfig has no DOM types, so it is passed as a string.
  return page.evaluate<Closed>(`new Promise((resolve) => {
    const url = location.origin.replace(/^http/, 'ws') + '/yjs/' + ${JSON.stringify(groupId)}
      + '?token=' + encodeURIComponent(${JSON.stringify(token)});
    const ws = new WebSocket(url);
    const bytes = ${JSON.stringify(bytes)};
    ws.onopen = () => ws.send(typeof bytes === 'number'
      ? new Uint8Array(bytes)
      : Uint8Array.from(atob(bytes), (c) => c.charCodeAt(0)));
    ws.onclose = (event) => resolve({ code: event.code, reason: event.reason });
  })`);
}

/** The token of an invite link (`…/join#<groupId>.<token>`). */
export function tokenOf(link: string): string {
  return link.slice(link.indexOf('.', link.indexOf('#')) + 1);
}

/** Which clients' edits a stored group holds, and how many of each: equal means nothing was added. */
export function storedClock(stored: Y.Doc): [number, number][] {
  const vector = Y.decodeStateVector(Y.encodeStateVector(stored));
  return [...vector].sort(([x], [y]) => x - y);
}
