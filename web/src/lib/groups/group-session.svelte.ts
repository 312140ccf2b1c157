/**
 * One opened group: its Y.Doc, the copy on this device (y-indexeddb) and the sync socket (y-websocket),
 * with the sync state and presence as runes. This module holds all the Yjs code: the rest of the app
 * reaches it through a dynamic import (active-group.svelte.ts), so pages without a group never load it.
 *
 * Lifecycle: the doc is created empty, IndexedDB fills it (`ready`), and only then does the socket
 * connect, so the group shows from the device copy before (or without) the network, and the first sync
 * sends the server exactly what the device has that the server lacks.
 */
import { CoreError } from '@quire/core';
import {
  followedSlugs,
  getMember,
  isFollowing,
  joinGroup,
  listQueue,
  observeGroup,
  followTopic,
  saveToQueue,
  unfollowTopic,
  type GroupPart,
} from '@quire/core/group';
import { IndexeddbPersistence } from 'y-indexeddb';
import type { Awareness } from 'y-protocols/awareness';
import { WebsocketProvider } from 'y-websocket';
import * as Y from 'yjs';
import { paperCache } from '../api/paper-cache.ts';
import { readStored, writeStored } from '../managers/local-store.ts';
import { TERMINAL_CLOSE_REASONS } from './group-api-types.ts';
import type { Membership } from './membership-records.ts';
import { memberships } from './memberships.svelte.ts';
import { readPeer, type Looking, type Peer } from './presence.ts';
import { fullSnapshot, partialSnapshot, type QueueablePaper } from './queue-paper.ts';
import { syncProviderOptions } from './sync-provider-options.ts';
import {
  addPending,
  pendingCount,
  readPending,
  rootChanges,
  syncLabel,
  syncPhase,
  type ConnectionStatus,
  type Pending,
} from './sync-state.ts';

/** The parts the pages draw from; each has a revision counter that its views depend on. */
type Part = Exclude<GroupPart, object>;
const PARTS: readonly Part[] = [
  'settings',
  'members',
  'followedTopics',
  'customTopics',
  'inbox',
  'queue',
  'weeklyPick',
];

export const idbName = (groupId: string): string => `quire-group-${groupId}`;
export const unsyncedKey = (groupId: string): string => `quire.group-unsynced.${groupId}`;

/** What went wrong, in a sentence: the core's own message for a refused edit. */
export function describeFailure(err: unknown): string {
  if (err instanceof CoreError) return err.message;
  return `Something went wrong: ${err instanceof Error ? err.message : String(err)}. Reload the page and try again.`;
}

export class GroupSession {
  readonly groupId: string;
  readonly doc = new Y.Doc();
  /** Resolves once the device copy has been read (or could not be). */
  readonly ready: Promise<void>;

  loaded = $state(false);
  /** Why this browser could not keep the group (IndexedDB refused); the group then works online only. */
  storageError = $state<string | null>(null);
  connection = $state<ConnectionStatus>('connecting');
  synced = $state(false);
  lostConnection = $state(false);
  unsynced = $state(0);
  /** What those changes are, by kind ("1 note and 1 vote not yet synced"). */
  pending = $state.raw<Pending>({});
  refusal = $state<string | null>(null);
  peers = $state.raw<Peer[]>([]);

  readonly phase = $derived(syncPhase(this));
  readonly label = $derived(syncLabel(this));

  #rev = $state<Record<Part, number>>(Object.fromEntries(PARTS.map((p) => [p, 0])) as Record<Part, number>);
  /** Ids of the queued papers, for the Save buttons of every list. */
  readonly queueIds = $derived.by(() => {
    this.track('queue');
    return listQueue(this.doc).map((item) => item.paper.id);
  });
  /** The topics the group follows, for the Follow buttons. */
  readonly followedSlugs = $derived.by(() => {
    this.track('followedTopics');
    return followedSlugs(this.doc);
  });

  #token: string;
  #idb: IndexeddbPersistence;
  #provider: WebsocketProvider | null = null;
  #looking: Looking = { view: 'browsing', paperId: null, label: '' };
  #cleanups: (() => void)[] = [];
  #destroyed = false;

  readonly #now: () => Date;

  /** `now` is the clock every edit is stamped with. */
  constructor(membership: Membership, syncUrl: string, now: () => Date) {
    this.groupId = membership.id;
    this.#now = now;
    this.#token = membership.token;
    this.pending = readPending(readStored(unsyncedKey(this.groupId)));
    this.unsynced = pendingCount(this.pending);
    for (const part of PARTS) {
      this.#cleanups.push(observeGroup(this.doc, [part], () => this.#rev[part]++));
    }
    const onUpdate = (_u: Uint8Array, _o: unknown, _d: Y.Doc, tr: Y.Transaction): void => {
      const live = this.#provider?.wsconnected === true && this.#provider.synced;
      // A change made while live goes to the server at once; remote and stored updates never count.
      if (tr.local && !live) this.#setPending(addPending(this.pending, rootChanges(this.doc, tr)));
    };
    this.doc.on('update', onUpdate);
    this.#cleanups.push(() => this.doc.off('update', onUpdate));
    this.#idb = new IndexeddbPersistence(idbName(this.groupId), this.doc);
    this.ready = this.#load(syncUrl);
  }

  get token(): string {
    return this.#token;
  }

  /** The sync socket's awareness (presence, the note editors' cursors); null until the device copy is read. */
  get awareness(): Awareness | null {
    return this.#provider?.awareness ?? null;
  }

  /** The membership as stored now (display name and role may change while the group is open). */
  get membership(): Membership | null {
    return memberships.get(this.groupId);
  }

  get memberId(): string {
    return this.membership?.memberId ?? '';
  }

  /** Read-write invite, device copy read, and not refused by the server. */
  get canWrite(): boolean {
    return this.membership?.role === 'read-write' && this.loaded && this.refusal === null;
  }

  /** Why edits are off, for the note beside disabled controls; null when they are on. */
  get readOnlyReason(): string | null {
    if (this.membership?.role !== 'read-write') {
      return 'You joined with a read-only invite: you can read everything but not change it. Ask a member for a read-write invite link to take part.';
    }
    if (this.refusal !== null) return `The server refused this group (${this.refusal}), so edits are off.`;
    return null;
  }

  /** Makes a view depend on a part of the document: it is computed again after each change to it. */
  track(part: Part): void {
    void this.#rev[part];
  }

  /**
   * Runs an edit as this member, now. Returns null when done, else a sentence saying why not (read-only,
   * or refused by the document's checks), for the page to show.
   */
  edit(action: (doc: Y.Doc, memberId: string, now: Date) => void): string | null {
    const why = this.readOnlyReason;
    if (why !== null) return why;
    if (!this.loaded) return 'The group is still opening on this device; try again in a moment.';
    try {
      action(this.doc, this.memberId, this.#now());
      return null;
    } catch (err) {
      return describeFailure(err);
    }
  }

  /** Tells the others what this member is looking at. */
  setLooking(looking: Looking): void {
    this.#looking = looking;
    this.#publishPresence();
  }

  /** Adds this member (or their new name and colour) to the document's member list. */
  join(): string | null {
    const m = this.membership;
    if (!m) return 'This browser is not a member of the group any more; join it again from an invite link.';
    return this.edit((doc, id, now) => joinGroup(doc, { id, name: m.displayName, colour: m.colour }, now));
  }

  /** Saves a paper to the queue, fetching the full paper when the button only had a list entry's. */
  async savePaper(paper: QueueablePaper): Promise<string | null> {
    await this.ready;
    let snapshot = fullSnapshot(paper);
    if (!snapshot) {
      try {
        snapshot = fullSnapshot(await paperCache.get(fetch, paper.id));
      } catch {
        // Offline, or a paper the server lacks: what the card shows still makes a readable entry.
      }
    }
    const chosen = snapshot ?? partialSnapshot(paper);
    return this.edit((doc, id, now) => void saveToQueue(doc, chosen, id, now));
  }

  async toggleFollow(slug: string): Promise<string | null> {
    await this.ready;
    return this.edit((doc, id, now) => {
      if (isFollowing(doc, slug)) unfollowTopic(doc, slug);
      else followTopic(doc, slug, id, now);
    });
  }

  destroy(): void {
    this.#destroyed = true;
    for (const cleanup of this.#cleanups) cleanup();
    this.#provider?.destroy();
    void this.#idb.destroy();
    this.doc.destroy();
  }

  async #load(syncUrl: string): Promise<void> {
    const failure = await new Promise<string | null>((resolve) => {
      void this.#idb.whenSynced.then(() => resolve(null));
      this.#idb._db.catch((err: unknown) => resolve(err instanceof Error ? err.message : String(err)));
    });
    if (this.#destroyed) return;
    if (failure !== null) {
      this.storageError = `This browser would not keep the group (${failure}); it works while online only.`;
    }
    this.loaded = true;
    this.#connect(syncUrl);
  }

  #connect(syncUrl: string): void {
    const provider = new WebsocketProvider(syncUrl, this.groupId, this.doc, syncProviderOptions(this.#token));
    this.#provider = provider;
    provider.on('status', ({ status }) => {
      if (status === 'disconnected') this.lostConnection = true;
      this.connection = status;
    });
    // A socket that never opened emits no "disconnected", only this.
    provider.on('connection-close', () => (this.lostConnection = true));
    provider.on('sync', (synced) => {
      this.synced = synced;
      if (!synced) return;
      this.#setPending({});
      // Joined on another device, or the join never reached this copy: the member list should name us.
      if (this.canWrite && !getMember(this.doc, this.memberId)) this.join();
    });
    provider.on('closed', ({ code, reason }) => {
      this.refusal = reason || TERMINAL_CLOSE_REASONS[code] || `the server closed the group (code ${code})`;
    });
    const onAwareness = (): void => {
      const own = this.doc.clientID;
      this.peers = [...provider.awareness.getStates()].flatMap(([clientId, state]) => {
        const peer = clientId === own ? null : readPeer(clientId, state);
        return peer ? [peer] : [];
      });
    };
    provider.awareness.on('change', onAwareness);
    this.#cleanups.push(() => provider.awareness.off('change', onAwareness));
    // The socket notices a dead network only after a long silence; the browser knows at once.
    const onOffline = (): void => {
      if (this.refusal !== null || !provider.wsconnected) return;
      provider.disconnect();
      provider.connect();
    };
    const onOnline = (): void => {
      if (this.refusal === null) provider.connect();
    };
    window.addEventListener('offline', onOffline);
    window.addEventListener('online', onOnline);
    this.#cleanups.push(() => {
      window.removeEventListener('offline', onOffline);
      window.removeEventListener('online', onOnline);
    });
    this.#publishPresence();
    provider.connect();
  }

  #publishPresence(): void {
    const m = this.membership;
    if (!this.#provider || !m) return;
    this.#provider.awareness.setLocalStateField('presence', {
      memberId: m.memberId,
      name: m.displayName,
      colour: m.colour,
      ...this.#looking,
    });
  }

  #setPending(pending: Pending): void {
    if (pending === this.pending) return;
    this.pending = pending;
    this.unsynced = pendingCount(pending);
    writeStored(unsyncedKey(this.groupId), this.unsynced === 0 ? null : JSON.stringify(pending));
  }
}
