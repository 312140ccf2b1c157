/**
 * What a group's sync state reads as, from the provider's signals. Pure, so the wording and the
 * unsynced-changes rule are tested without a socket.
 *
 * What is not yet synced is counted in the things a person changed, not in Yjs updates (two typed lines
 * are some sixty updates but one note): each local transaction made while not live is read for the root
 * types and map keys it changed (the group document's layout, core group-doc.ts), and each becomes a
 * thing of a kind — the note of a paper, a vote, a comment, a queue item, a triage decision. The same
 * thing changed again is still one.
 */
import { COMMENTS_PREFIX, NOTE_PREFIX, ROOT } from '@quire/core/group';
import type * as Y from 'yjs';

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
  /** Local changes made while not connected and synced: how many things (see `Pending`). */
  unsynced: number;
  /** The same, by kind; the count alone is read when absent. */
  pending?: Pending;
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

/** Kind (singular, as a person says it) → the distinct things of that kind not yet synced. */
export type Pending = Readonly<Record<string, readonly string[]>>;

/** One root type a transaction changed, with the map keys it wrote (null for a text or list). */
export interface RootChange {
  root: string;
  keys: readonly (string | null)[];
}

/** Plurals that are not the kind with an "s". */
const PLURAL: Record<string, string> = {};

/** Root maps → the kind of thing each key is, and how many leading key parts name the thing. */
const KIND_OF: Readonly<Record<string, { kind: string; parts: number } | null>> = {
  [ROOT.pickVotes]: { kind: 'vote', parts: 3 },
  [ROOT.pickNominations]: { kind: 'nomination', parts: 3 },
  [ROOT.queue]: { kind: 'queue item', parts: 1 },
  [ROOT.queueAdds]: { kind: 'queue item', parts: 1 },
  [ROOT.queueStatus]: { kind: 'queue item', parts: 1 },
  [ROOT.queueDiscussed]: { kind: 'queue item', parts: 1 },
  [ROOT.inboxTriage]: { kind: 'triage decision', parts: 1 },
  [ROOT.followedTopics]: { kind: 'followed topic', parts: 1 },
  [ROOT.customTopics]: { kind: 'custom topic', parts: 1 },
  [ROOT.members]: { kind: 'member', parts: 1 },
  [ROOT.pickWeeks]: { kind: 'weekly pick', parts: 1 },
  // Bookkeeping that rides along with other edits (schema stamp, last looked, versions seen): not a thing.
  [ROOT.meta]: null,
  [ROOT.inboxLooked]: null,
  [ROOT.paperVersions]: null,
};

/** The root types a transaction changed (a nested type counts as its root) and the keys written. */
export function rootChanges(doc: Y.Doc, tr: Y.Transaction): RootChange[] {
  const names = new Map<unknown, string>();
  doc.share.forEach((type, name) => names.set(type, name));
  const out: RootChange[] = [];
  tr.changed.forEach((keys, type) => {
    // A type's parent is another type, or (not yet integrated) an ID, which is no type.
    let root: { _item: Y.Item | null } = type;
    for (let parent = root._item?.parent; parent && '_item' in parent; parent = root._item?.parent) {
      root = parent;
    }
    const name = names.get(root);
    if (name !== undefined) out.push({ root: name, keys: [...keys] });
  });
  return out;
}

/** The things a transaction changed, as [kind, key] pairs. */
export function changedThings(changes: readonly RootChange[]): [string, string][] {
  const out: [string, string][] = [];
  for (const { root, keys } of changes) {
    if (root.startsWith(NOTE_PREFIX)) {
      out.push(['note', root.slice(NOTE_PREFIX.length)]);
    } else if (root.startsWith(COMMENTS_PREFIX)) {
      for (const key of keys) if (key !== null) out.push(['comment', key]);
    } else if (Object.hasOwn(KIND_OF, root)) {
      const kind = KIND_OF[root];
      if (!kind) continue;
      for (const key of keys) {
        if (key !== null) out.push([kind.kind, key.split('|').slice(0, kind.parts).join('|')]);
      }
    } else {
      // A part of the document this version does not know yet still counts, as what it is to us.
      out.push(['other change', root]);
    }
  }
  return out;
}

/** `pending` with the things of these changes added (each thing once). */
export function addPending(pending: Pending, changes: readonly RootChange[]): Pending {
  const things = changedThings(changes);
  if (things.length === 0) return pending;
  const next: Record<string, string[]> = {};
  for (const [kind, keys] of Object.entries(pending)) next[kind] = [...keys];
  for (const [kind, key] of things) {
    const list = (next[kind] ??= []);
    if (!list.includes(key)) list.push(key);
  }
  return next;
}

export function pendingCount(pending: Pending): number {
  return Object.values(pending).reduce((n, keys) => n + keys.length, 0);
}

function counted(kind: string, n: number): string {
  return `${n} ${n === 1 ? kind : (PLURAL[kind] ?? `${kind}s`)}`;
}

/** "1 note and 1 vote not yet synced"; kinds in the order they were first changed. */
export function pendingText(pending: Pending): string {
  const parts = Object.entries(pending)
    .filter(([, keys]) => keys.length > 0)
    .map(([kind, keys]) => counted(kind, keys.length));
  if (parts.length === 0) return 'nothing waiting to sync';
  const last = parts.pop() ?? '';
  return `${parts.length ? `${parts.join(', ')} and ${last}` : last} not yet synced`;
}

/**
 * What a device kept (localStorage): the kinds and keys as JSON, or the number an earlier version kept,
 * read as that many changes of no known kind.
 */
export function readPending(stored: string | null): Pending {
  if (stored === null) return {};
  const n = Number(stored);
  if (Number.isInteger(n) && n > 0)
    return { change: Array.from({ length: Math.min(n, 1000) }, (_, i) => String(i)) };
  try {
    const value: unknown = JSON.parse(stored);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
    const out: Record<string, string[]> = {};
    for (const [kind, keys] of Object.entries(value)) {
      if (Array.isArray(keys)) out[kind] = keys.filter((k): k is string => typeof k === 'string');
    }
    return out;
  } catch {
    return {};
  }
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
      if (s.unsynced === 0) return 'syncing…';
      return `syncing… (${s.pending ? pendingText(s.pending) : changesText(s.unsynced)})`;
    case 'offline':
      return `offline — ${s.pending ? pendingText(s.pending) : changesText(s.unsynced)}`;
  }
}
