import { describe, expect, it } from 'vitest';
import { COMMENTS_PREFIX, noteText, ROOT } from '@quire/core/group';
import * as Y from 'yjs';
import {
  addPending,
  pendingCount,
  pendingText,
  readPending,
  rootChanges,
  syncLabel,
  syncPhase,
  type Pending,
  type SyncSignals,
} from './sync-state.ts';

const base: SyncSignals = {
  loaded: true,
  connection: 'connected',
  synced: true,
  lostConnection: false,
  unsynced: 0,
  refusal: null,
};

describe('syncLabel', () => {
  it('waits for the device copy before anything else', () => {
    expect(syncPhase({ ...base, loaded: false })).toBe('loading');
  });

  it('reads synced, syncing and offline with the unsynced count', () => {
    expect(syncLabel(base)).toBe('synced');
    expect(syncLabel({ ...base, synced: false })).toBe('syncing…');
    expect(syncLabel({ ...base, connection: 'connecting', synced: false })).toBe('syncing…');
    const lost = { ...base, connection: 'connecting' as const, synced: false, lostConnection: true };
    expect(syncLabel({ ...lost, unsynced: 3 })).toBe('offline — 3 unsynced changes');
    expect(syncLabel({ ...lost, connection: 'disconnected', unsynced: 1 })).toBe(
      'offline — 1 unsynced change',
    );
    expect(syncLabel({ ...lost, unsynced: 0 })).toBe('offline — no unsynced changes');
  });

  it('shows the server’s refusal over everything but loading', () => {
    const refusal = 'invite revoked: ask a member for a new invite link';
    expect(syncLabel({ ...base, connection: 'disconnected', refusal })).toBe(refusal);
    expect(syncPhase({ ...base, refusal })).toBe('refused');
  });
});

describe('pending changes', () => {
  /** Records what each local transaction changed, as the session does while offline. */
  function recorder(doc: Y.Doc): { pending: Pending } {
    const state = { pending: {} as Pending };
    doc.on('afterTransaction', (tr: Y.Transaction) => {
      if (tr.local) state.pending = addPending(state.pending, rootChanges(doc, tr));
    });
    return state;
  }
  const stamped = (doc: Y.Doc, write: () => void): void =>
    doc.transact(() => {
      doc.getMap('meta').set('schemaVersion', 1);
      write();
    });

  it('counts two typed lines as one note and a vote as one vote, whatever the number of updates', () => {
    const doc = new Y.Doc();
    const seen = recorder(doc);
    const note = noteText(doc, '2603.01234');
    for (const ch of 'Agenda for Thursday\nsection 3 first') note.insert(note.length, ch);
    stamped(doc, () => doc.getMap(ROOT.pickVotes).set('2026-W10|ben|2603.05678', '2026-03-05T10:00:00Z'));
    expect(pendingCount(seen.pending)).toBe(2);
    expect(pendingText(seen.pending)).toBe('1 note and 1 vote not yet synced');
    expect(
      syncLabel({
        ...base,
        connection: 'disconnected',
        lostConnection: true,
        unsynced: 2,
        pending: seen.pending,
      }),
    ).toBe('offline — 1 note and 1 vote not yet synced');
  });

  it('names each kind once per thing: queue items by paper, comments by id, triage, other notes', () => {
    const doc = new Y.Doc();
    const seen = recorder(doc);
    stamped(doc, () => {
      doc.getMap(ROOT.queue).set('2603.01234', { at: 'x' });
      doc.getMap(ROOT.queueAdds).set('2603.01234|ben', { at: 'x' });
    });
    stamped(doc, () => doc.getMap(ROOT.queueStatus).set('2603.01234', { status: 'reading' }));
    stamped(doc, () => doc.getMap(ROOT.inboxTriage).set('2603.09999', { decision: 'dismissed' }));
    stamped(doc, () => doc.getMap(COMMENTS_PREFIX + '2603.01234').set('c1', { text: 'hi' }));
    stamped(doc, () => doc.getMap(COMMENTS_PREFIX + '2603.01234').set('c2', { text: 'again' }));
    noteText(doc, '2603.01234').insert(0, 'a');
    noteText(doc, '2603.05678').insert(0, 'b');
    stamped(doc, () => doc.getMap(ROOT.inboxLooked).set('ben', '2026-03-05T10:00:00Z'));
    expect(pendingText(seen.pending)).toBe(
      '1 queue item, 1 triage decision, 2 comments and 2 notes not yet synced',
    );
    expect(pendingText({})).toBe('nothing waiting to sync');
  });

  it('reads what a device kept, including the bare count an earlier version kept', () => {
    const pending = { note: ['2603.01234'], vote: ['2026-W10|ben|2603.05678'] };
    expect(readPending(JSON.stringify(pending))).toEqual(pending);
    expect(pendingText(readPending('3'))).toBe('3 changes not yet synced');
    expect(readPending(null)).toEqual({});
    expect(readPending('{not json')).toEqual({});
  });
});
