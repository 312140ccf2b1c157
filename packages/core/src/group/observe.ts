/**
 * Change notifications per part of the group document, once per transaction however many of the part's
 * maps it touched. For everything at once, `doc.on('update')` is the simpler hook (it is what providers and
 * persistence use).
 */
import type * as Y from 'yjs';
import { COMMENTS_PREFIX, ROOT, rootMap, type RootName } from './group-doc.ts';
import { checkPaperId } from './input-checks.ts';
import { noteText } from './notes.ts';

export type GroupPart =
  | 'settings'
  | 'members'
  | 'followedTopics'
  | 'customTopics'
  | 'inbox'
  | 'queue'
  | 'weeklyPick'
  | { notes: string }
  | { comments: string };

const PART_ROOTS: Record<Exclude<GroupPart, object>, RootName[]> = {
  settings: [ROOT.meta],
  members: [ROOT.members],
  followedTopics: [ROOT.followedTopics],
  customTopics: [ROOT.customTopics],
  inbox: [ROOT.inboxLooked, ROOT.inboxTriage],
  queue: [ROOT.queue, ROOT.queueAdds, ROOT.queueStatus, ROOT.queueDiscussed, ROOT.paperVersions],
  // The vote cap lives in meta and changes the count; the meeting sets the default deadline.
  weeklyPick: [ROOT.pickNominations, ROOT.pickVotes, ROOT.pickWeeks, ROOT.meta, ROOT.meetings],
};

export interface GroupChange {
  /** The transaction's origin: GROUP_ORIGIN for writes made here, a provider for remote updates. */
  origin: unknown;
  /** False when the change arrived from another peer. */
  local: boolean;
}

function typesOf(doc: Y.Doc, part: GroupPart): object[] {
  if (typeof part === 'string') return PART_ROOTS[part].map((name) => rootMap(doc, name));
  if ('notes' in part) return [noteText(doc, part.notes)];
  return [doc.getMap<unknown>(COMMENTS_PREFIX + checkPaperId(part.comments))];
}

/** Calls `onChange` after every transaction that changed one of `parts`. Returns the unsubscribe function. */
export function observeGroup(
  doc: Y.Doc,
  parts: readonly GroupPart[],
  onChange: (change: GroupChange) => void,
): () => void {
  const watched = new Set<object>(parts.flatMap((part) => typesOf(doc, part)));
  const handler = (transaction: Y.Transaction): void => {
    for (const type of transaction.changed.keys()) {
      if (watched.has(type)) {
        onChange({ origin: transaction.origin, local: transaction.local });
        return;
      }
    }
  };
  doc.on('afterTransaction', handler);
  return () => doc.off('afterTransaction', handler);
}
