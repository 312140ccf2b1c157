/**
 * The group's queue of saved papers. Each entry embeds a snapshot of the paper so the queue reads offline.
 * Saving twice never duplicates (the queue is a map keyed by paper id): the first saver stays the adder and
 * the snapshot is refreshed. The adder is the earliest save in the document, so two members saving the same
 * paper offline agree on it after merging.
 */
import type * as Y from 'yjs';
import { joinKey, ROOT, rootMap, writeGroup } from './group-doc.ts';
import { checkMemberId, checkNow, checkPaperId, invalidInput } from './input-checks.ts';
import { checkSnapshot, type PaperSnapshot } from './paper-snapshot.ts';
import {
  isQueueStatus,
  QUEUE_STATUSES,
  queuedPaper,
  queuedPapers,
  queuedSnapshot,
  readAdds,
  readDiscussed,
  readKnownVersions,
  readStatus,
  type QueueAdd,
  type QueuedPaper,
  type QueueStatus,
} from './queue-records.ts';
import {
  computeVersionChange,
  discussedVersionWrite,
  recordVersionWrite,
  type VersionChange,
} from './version-change.ts';

export { QUEUE_STATUSES, type QueueStatus } from './queue-records.ts';

export interface QueueItem {
  paper: PaperSnapshot;
  /** The first member to save it, and when. */
  addedBy: string;
  addedAt: string;
  /** Every member who saved it, first saver first. */
  savedBy: string[];
  status: QueueStatus;
  /** Who set the status and when; null while it is the initial "queued". */
  statusBy: string | null;
  statusAt: string | null;
  versions: VersionChange;
}

/** A checked save, ready to write inside a transaction (saving from the inbox adds triage to it). */
export interface PlannedWrite {
  write: () => void;
}

export function planSave(
  doc: Y.Doc,
  paper: PaperSnapshot,
  memberId: string,
  now: Date,
): PlannedWrite & { added: boolean } {
  const snapshot = checkSnapshot(paper);
  const by = checkMemberId(memberId);
  const at = checkNow(now);
  const added = queuedSnapshot(doc, snapshot.id) === null;
  const addKey = joinKey(snapshot.id, by);
  return {
    added,
    write: () => {
      rootMap(doc, ROOT.queue).set(snapshot.id, { paper: snapshot, by, at });
      const adds = rootMap(doc, ROOT.queueAdds);
      // A member's own first save is kept; a re-save only refreshes the snapshot.
      if (!adds.has(addKey)) adds.set(addKey, { at, version: snapshot.version });
      if (snapshot.version !== null) recordVersionWrite(doc, snapshot.id, snapshot.version, at);
    },
  };
}

/** Saves a paper (or refreshes its snapshot). Returns true when it was not in the queue before. */
export function saveToQueue(doc: Y.Doc, paper: PaperSnapshot, memberId: string, now: Date): boolean {
  const plan = planSave(doc, paper, memberId, now);
  writeGroup(doc, plan.write);
  return plan.added;
}

/**
 * Takes a paper out of the queue (for a mistaken save; "archived" is the usual end). Its notes and comments
 * are root types, which Yjs cannot delete: they stay, and reappear if the paper is saved again.
 */
export function removeFromQueue(doc: Y.Doc, paperId: string): boolean {
  const id = checkPaperId(paperId);
  if (!queuedSnapshot(doc, id)) return false;
  const adds = rootMap(doc, ROOT.queueAdds);
  const addKeys = [...adds.keys()].filter((k) => k.startsWith(joinKey(id, '')));
  writeGroup(doc, () => {
    rootMap(doc, ROOT.queue).delete(id);
    for (const key of addKeys) adds.delete(key);
    rootMap(doc, ROOT.queueStatus).delete(id);
    rootMap(doc, ROOT.queueDiscussed).delete(id);
  });
  return true;
}

export function planStatus(
  doc: Y.Doc,
  paperId: string,
  status: string,
  memberId: string,
  now: Date,
): PlannedWrite {
  const id = checkPaperId(paperId);
  if (!isQueueStatus(status)) {
    throw invalidInput(
      `${JSON.stringify(status)} is not a queue status; use one of ${QUEUE_STATUSES.join(', ')}.`,
    );
  }
  const by = checkMemberId(memberId);
  const at = checkNow(now);
  if (!queuedSnapshot(doc, id)) throw invalidInput(`The paper ${id} is not in the queue; save it first.`);
  return {
    write: () => {
      rootMap(doc, ROOT.queueStatus).set(id, { status, by, at });
      if (status === 'discussed') discussedVersionWrite(doc, id, by, at);
    },
  };
}

/** Sets a queued paper's status; "discussed" also remembers the version discussed. */
export function setQueueStatus(
  doc: Y.Doc,
  paperId: string,
  status: string,
  memberId: string,
  now: Date,
): void {
  writeGroup(doc, planStatus(doc, paperId, status, memberId, now).write);
}

interface QueueIndexes {
  adds: Map<string, QueueAdd[]>;
  known: Map<string, number>;
}

function toItem(doc: Y.Doc, entry: QueuedPaper, { adds, known }: QueueIndexes): QueueItem {
  const { paper } = entry;
  const paperAdds = adds.get(paper.id) ?? [];
  const status = readStatus(rootMap(doc, ROOT.queueStatus).get(paper.id));
  const discussed = readDiscussed(rootMap(doc, ROOT.queueDiscussed).get(paper.id));
  const first = paperAdds[0];
  return {
    paper,
    // Without a save record (a peer removed the paper while another re-saved it) the last saver stands in.
    addedBy: first?.memberId ?? entry.savedBy,
    addedAt: first?.at ?? entry.savedAt,
    savedBy: first ? paperAdds.map((a) => a.memberId) : [entry.savedBy],
    status: status?.status ?? 'queued',
    statusBy: status?.by ?? null,
    statusAt: status?.at ?? null,
    versions: computeVersionChange(paper, paperAdds, discussed, known.get(paper.id)),
  };
}

export function getQueueItem(doc: Y.Doc, paperId: string): QueueItem | null {
  const id = checkPaperId(paperId);
  const entry = queuedPaper(doc, id);
  return entry ? toItem(doc, entry, { adds: readAdds(doc), known: readKnownVersions(doc) }) : null;
}

export function isQueued(doc: Y.Doc, paperId: string): boolean {
  return queuedSnapshot(doc, checkPaperId(paperId)) !== null;
}

/** Every queued paper, in no promised order: sort with `sortQueue`. */
export function listQueue(doc: Y.Doc): QueueItem[] {
  const indexes = { adds: readAdds(doc), known: readKnownVersions(doc) };
  return queuedPapers(doc).map((entry) => toItem(doc, entry, indexes));
}
