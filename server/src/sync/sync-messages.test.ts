import * as encoding from 'lib0/encoding';
import * as Y from 'yjs';
import { describe, expect, it } from 'vitest';
import { MalformedMessage, readClientMessage, updateHasContent } from './sync-messages.ts';

function frame(...parts: (number | Uint8Array)[]): Uint8Array {
  const encoder = encoding.createEncoder();
  for (const part of parts) {
    if (typeof part === 'number') encoding.writeVarUint(encoder, part);
    else encoding.writeVarUint8Array(encoder, part);
  }
  return encoding.toUint8Array(encoder);
}

describe('readClientMessage', () => {
  it('reads the four messages a y-websocket client sends', () => {
    const bytes = Uint8Array.from([1, 2, 3]);
    expect(readClientMessage(frame(0, 0, bytes))).toEqual({ kind: 'sync-step-1', stateVector: bytes });
    expect(readClientMessage(frame(0, 1, bytes))).toEqual({ kind: 'sync-step-2', update: bytes });
    expect(readClientMessage(frame(0, 2, bytes))).toEqual({ kind: 'update', update: bytes });
    expect(readClientMessage(frame(1, bytes))).toMatchObject({ kind: 'awareness' });
    expect(readClientMessage(frame(3))).toEqual({ kind: 'query-awareness' });
  });

  it('refuses unknown types, the auth message, truncation and trailing bytes', () => {
    for (const bad of [frame(9), frame(2, 0), frame(0), frame(0, 2, 40), Uint8Array.from([...frame(3), 0])]) {
      expect(() => readClientMessage(bad)).toThrow(MalformedMessage);
    }
  });
});

describe('updateHasContent', () => {
  it('tells an empty update from a change and refuses one Yjs cannot decode', () => {
    const doc = new Y.Doc();
    expect(updateHasContent(Y.encodeStateAsUpdate(doc))).toBe(false);
    doc.getText('t').insert(0, 'hello');
    const update = Y.encodeStateAsUpdate(doc);
    expect(updateHasContent(update)).toBe(true);
    expect(() => updateHasContent(update.subarray(0, update.length - 2))).toThrow(MalformedMessage);
  });
});
