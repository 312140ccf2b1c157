/**
 * What a group's sync state reads as, from the provider's signals. Pure, so the wording and the
 * unsynced-changes rule are tested without a socket.
 */

export type ConnectionStatus = 'connecting' | 'connected' | 'disconnected';

export type SyncPhase = 'loading' | 'syncing' | 'synced' | 'offline' | 'refused';

export interface SyncSignals {
  /** The copy on this device (IndexedDB) has been read. */
  loaded: boolean;
  connection: ConnectionStatus;
  /** The provider has exchanged states with the server since the socket opened. */
  synced: boolean;
  /** A socket has closed since the group opened: a later "connecting" is a retry, i.e. offline. */
  lostConnection: boolean;
  /** Local changes made while not connected and synced. */
  unsynced: number;
  /** Why the server refused the group for good (a terminal close); null otherwise. */
  refusal: string | null;
}

export function syncPhase(s: SyncSignals): SyncPhase {
  if (!s.loaded) return 'loading';
  if (s.refusal !== null) return 'refused';
  if (s.connection === 'connected') return s.synced ? 'synced' : 'syncing';
  // The first attempt after opening is "syncing"; once a socket was lost, retries mean offline.
  if (s.connection === 'connecting' && !s.lostConnection) return 'syncing';
  return 'offline';
}

export function changesText(n: number): string {
  if (n === 0) return 'no unsynced changes';
  return n === 1 ? '1 unsynced change' : `${n} unsynced changes`;
}

export function syncLabel(s: SyncSignals): string {
  switch (syncPhase(s)) {
    case 'loading':
      return 'opening…';
    case 'refused':
      return s.refusal ?? 'refused';
    case 'synced':
      return 'synced';
    case 'syncing':
      return s.unsynced > 0 ? `syncing… (${changesText(s.unsynced)})` : 'syncing…';
    case 'offline':
      return `offline — ${changesText(s.unsynced)}`;
  }
}

/**
 * The unsynced count after a transaction: a local change counts while the group is not both connected
 * and synced (a change made while live goes to the server at once). Remote and stored updates never count.
 */
export function countAfterTransaction(count: number, local: boolean, live: boolean): number {
  return local && !live ? count + 1 : count;
}
