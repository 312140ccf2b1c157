import { describe, expect, it } from 'vitest';
import { countAfterTransaction, syncLabel, syncPhase, type SyncSignals } from './sync-state.ts';

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

describe('countAfterTransaction', () => {
  it('counts local changes made while not live, never remote ones', () => {
    expect(countAfterTransaction(0, true, false)).toBe(1);
    expect(countAfterTransaction(1, true, true)).toBe(1);
    expect(countAfterTransaction(1, false, false)).toBe(1);
  });
});
