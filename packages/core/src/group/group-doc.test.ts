import * as Y from 'yjs';
import { describe, expect, it } from 'vitest';
import {
  canWriteGroupDoc,
  createGroupDoc,
  GROUP_ORIGIN,
  groupSchemaVersion,
  initGroupDoc,
  ROOT,
} from './group-doc.ts';
import { joinGroup, listMembers } from './members.ts';
import { saveFromInbox } from './inbox.ts';
import { listQueue } from './queue.ts';
import { at, codeOf, paper } from './test-helpers.ts';

describe('group document', () => {
  it('stores the schema version with the first write, and reads it back on another device', () => {
    const doc = createGroupDoc();
    expect(groupSchemaVersion(doc)).toBeNull();
    joinGroup(doc, { id: 'ada', name: 'Ada', colour: '#4363d8' }, at('2026-03-10T09:00:00Z'));
    expect(groupSchemaVersion(doc)).toBe(1);
    const copy = createGroupDoc(Y.encodeStateAsUpdate(doc));
    expect(groupSchemaVersion(copy)).toBe(1);
    expect(listMembers(copy).map((m) => m.name)).toEqual(['Ada']);
  });

  it('initGroupDoc stamps a new document once', () => {
    const doc = new Y.Doc();
    let updates = 0;
    doc.on('update', () => (updates += 1));
    initGroupDoc(doc);
    initGroupDoc(doc);
    expect(groupSchemaVersion(doc)).toBe(1);
    expect(updates).toBe(1);
  });

  it('refuses to write a document from a newer schema, but still reads it', () => {
    const doc = new Y.Doc();
    joinGroup(doc, { id: 'ada', name: 'Ada', colour: '#4363d8' }, at('2026-03-10T09:00:00Z'));
    doc.getMap(ROOT.meta).set('schemaVersion', 2);
    expect(canWriteGroupDoc(doc)).toBe(false);
    expect(
      codeOf(() => joinGroup(doc, { id: 'bob', name: 'Bob', colour: '#3cb44b' }, at('2026-03-11T09:00:00Z'))),
    ).toBe('invalid-input');
    expect(listMembers(doc).map((m) => m.id)).toEqual(['ada']);
  });

  it('writes several maps in one transaction with the group origin', () => {
    const doc = new Y.Doc();
    const origins: unknown[] = [];
    doc.on('update', (_update: Uint8Array, origin: unknown) => origins.push(origin));
    saveFromInbox(doc, paper('2603.01234'), 'ada', at('2026-03-10T09:00:00Z'));
    expect(origins).toEqual([GROUP_ORIGIN]);
    expect(listQueue(doc)).toHaveLength(1);
  });

  it('keeps the caller’s transaction and origin when called inside one', () => {
    const doc = new Y.Doc();
    const origins: unknown[] = [];
    doc.on('update', (_update: Uint8Array, origin: unknown) => origins.push(origin));
    doc.transact(() => {
      joinGroup(doc, { id: 'ada', name: 'Ada', colour: '#4363d8' }, at('2026-03-10T09:00:00Z'));
      joinGroup(doc, { id: 'bob', name: 'Bob', colour: '#3cb44b' }, at('2026-03-10T09:00:00Z'));
    }, 'undo-test');
    expect(origins).toEqual(['undo-test']);
  });

  it('uses only the documented root names', () => {
    const doc = new Y.Doc();
    saveFromInbox(doc, paper('2603.01234'), 'ada', at('2026-03-10T09:00:00Z'));
    const known = new Set<string>(Object.values(ROOT));
    expect([...doc.share.keys()].filter((name) => !known.has(name))).toEqual([]);
  });
});
