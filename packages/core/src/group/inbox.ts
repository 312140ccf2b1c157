/**
 * The topic inbox: new papers in the followed topics that nobody in the group has dealt with yet, so the
 * group splits the week's skimming instead of repeating it. Triage (saved or dismissed, by whom, when) is
 * shared and keyed by paper; "last looked" is per member and only that member writes it.
 *
 * The candidates come from the client (papers of the followed topics fetched from the API); the document
 * holds only the decisions, so it stays small however many papers arrive.
 */
import type * as Y from 'yjs';
import { isYmd, MS_PER_DAY, dayNumber } from '../dates.ts';
import { isEasternDaylightTime } from '../listing-schedule.ts';
import { followedSlugs } from './followed-topics.ts';
import { ROOT, rootMap, writeGroup } from './group-doc.ts';
import { windowOf, type InboxWindow } from './inbox-window.ts';
import { checkMemberId, checkNow, checkPaperId, invalidInput } from './input-checks.ts';
import { memberName } from './members.ts';
import type { PaperSnapshot } from './paper-snapshot.ts';
import {
  byCodeUnits,
  compareInstants,
  instantMs,
  isRecord,
  readInstant,
  readNonEmpty,
  readPaperId,
} from './peer-values.ts';
import { queuedPapers } from './queue-records.ts';
import { getQueueItem, planSave, removeFromQueue } from './queue.ts';

export interface InboxCandidate {
  /** Any arXiv id form. */
  id: string;
  /** YYYY-MM-DD. */
  listingDate: string;
  /** Topic slugs the paper is tagged with (taxonomy or custom). */
  topics: readonly string[];
}

export interface InboxItem<T extends InboxCandidate = InboxCandidate> {
  paperId: string;
  listingDate: string;
  /** The followed topics that brought the paper here. */
  matchedTopics: string[];
  candidate: T;
}

export type TriageDecision = 'saved' | 'dismissed';

export interface Triage {
  paperId: string;
  decision: TriageDecision;
  by: string;
  at: string;
  /**
   * The save put the paper in the queue, so undoing it takes the paper out again. False for a dismissal, a
   * save of a paper that was queued already, and records written before Quire kept this.
   */
  addedToQueue: boolean;
}

/** A row of the inbox as a member works through it: `triage` is null while nobody has dealt with it. */
export interface InboxRow<T extends InboxCandidate = InboxCandidate> extends InboxItem<T> {
  triage: Triage | null;
}

const HOUR = 3_600_000;

/**
 * The instant arXiv announced a listing day: 20:00 New York time the evening before (Sunday evening for a
 * Monday). A paper counts as new to a member when it was announced after their last look, so someone who
 * looks on Tuesday morning has seen Tuesday's listing but not Wednesday's.
 */
export function announcedAt(listingDate: string): number {
  const eveningEdt = (dayNumber(listingDate) - 1) * MS_PER_DAY + 24 * HOUR;
  return isEasternDaylightTime(eveningEdt) ? eveningEdt : eveningEdt + HOUR;
}

function readTriage(paperId: string, value: unknown): Triage | null {
  if (!isRecord(value) || (value.decision !== 'saved' && value.decision !== 'dismissed')) return null;
  const by = readNonEmpty(value.by);
  const at = readInstant(value.at);
  if (by === null || at === null) return null;
  return {
    paperId,
    decision: value.decision,
    by,
    at,
    addedToQueue: value.decision === 'saved' && value.added === true,
  };
}

/**
 * The decision that stands. Two members can triage one paper before their edits meet (offline, or within
 * the same second): the shared map then keeps one record by Yjs's rule, which can be one member's
 * dismissal while the other's save has put the paper in the queue. A save beats a dismissal, the same on
 * every device, so a paper never reads as dismissed while it sits in the queue; the save is credited to
 * whoever queued it.
 */
function standingTriage(
  doc: Y.Doc,
  paperId: string,
  stored: Triage | null,
  queued: ReadonlySet<string>,
): Triage | null {
  if (stored?.decision !== 'dismissed' || !queued.has(paperId)) return stored;
  const item = getQueueItem(doc, paperId);
  if (item === null) return stored;
  return { paperId, decision: 'saved', by: item.addedBy, at: item.addedAt, addedToQueue: true };
}

function queuedIds(doc: Y.Doc): Set<string> {
  return new Set(queuedPapers(doc).map((q) => q.paper.id));
}

export function getTriage(doc: Y.Doc, paperId: string): Triage | null {
  const id = checkPaperId(paperId);
  return standingTriage(doc, id, readTriage(id, rootMap(doc, ROOT.inboxTriage).get(id)), queuedIds(doc));
}

/** Every decision, latest first: who has skimmed what. */
export function listTriage(doc: Y.Doc): Triage[] {
  const all: Triage[] = [];
  const queued = queuedIds(doc);
  rootMap(doc, ROOT.inboxTriage).forEach((value, key) => {
    const triage = readPaperId(key) === key ? standingTriage(doc, key, readTriage(key, value), queued) : null;
    if (triage) all.push(triage);
  });
  return all.sort((a, b) => compareInstants(b.at, a.at) || byCodeUnits(a.paperId, b.paperId));
}

/** The member's latest decision among `paperIds` (the ones they triaged on this page, say); null if none. */
export function lastOwnTriage(doc: Y.Doc, memberId: string, paperIds: Iterable<string>): Triage | null {
  const map = rootMap(doc, ROOT.inboxTriage);
  const queued = queuedIds(doc);
  let last: Triage | null = null;
  for (const paperId of paperIds) {
    const id = readPaperId(paperId);
    const triage = id === null ? null : standingTriage(doc, id, readTriage(id, map.get(id)), queued);
    if (triage?.by === memberId && (last === null || compareInstants(triage.at, last.at) > 0)) last = triage;
  }
  return last;
}

export function lastLookedAt(doc: Y.Doc, memberId: string): string | null {
  return readInstant(rootMap(doc, ROOT.inboxLooked).get(checkMemberId(memberId)));
}

/** Records that the member has looked at the inbox now. Never moves the time backwards. */
export function markLooked(doc: Y.Doc, memberId: string, now: Date): void {
  const id = checkMemberId(memberId);
  const at = checkNow(now);
  const previous = lastLookedAt(doc, id);
  if (previous !== null && compareInstants(previous, at) >= 0) return;
  writeGroup(doc, () => rootMap(doc, ROOT.inboxLooked).set(id, at));
}

interface Matched<T extends InboxCandidate> {
  paperId: string;
  listingDate: string;
  matched: string[];
  candidate: T;
}

/**
 * Candidates in a followed topic, one per paper (duplicates merged). Candidates with an unreadable id or
 * listing date are skipped: one bad record from the API should not hide the rest.
 */
function matchedCandidates<T extends InboxCandidate>(doc: Y.Doc, candidates: readonly T[]): Matched<T>[] {
  const followed = followedSlugs(doc);
  const byId = new Map<string, Matched<T>>();
  for (const candidate of candidates) {
    const paperId = readPaperId(candidate.id);
    const listed = typeof candidate.listingDate === 'string' && isYmd(candidate.listingDate);
    if (paperId === null || !listed) continue;
    const topics: readonly unknown[] = Array.isArray(candidate.topics) ? candidate.topics : [];
    const matched = topics.filter((t): t is string => typeof t === 'string' && followed.has(t));
    if (matched.length === 0) continue;
    const seen = byId.get(paperId);
    if (seen) seen.matched = [...new Set([...seen.matched, ...matched])];
    else byId.set(paperId, { paperId, listingDate: candidate.listingDate, matched, candidate });
  }
  return [...byId.values()];
}

/** What counts as new for the member: see inbox-window.ts. */
export function inboxWindow(
  doc: Y.Doc,
  candidates: readonly InboxCandidate[],
  memberId: string,
): InboxWindow {
  const looked = lastLookedAt(doc, memberId);
  return windowOf(
    looked,
    looked === null ? matchedCandidates(doc, candidates).map((m) => m.listingDate) : [],
  );
}

function inWindow(window: InboxWindow, listingDate: string): boolean {
  if (window.kind === 'recent-listings')
    return window.from !== null && byCodeUnits(listingDate, window.from) >= 0;
  const since = instantMs(window.since);
  return since === null || announcedAt(listingDate) > since;
}

/**
 * The inbox as the member works through it, newest listing first: the untriaged papers new to the member
 * (see `inboxWindow`) that are not in the queue yet, and the papers of `keep` (the ones the page has shown)
 * whatever happened to them since, with their triage, so a row someone else deals with stays where it is.
 */
export function inboxRows<T extends InboxCandidate>(
  doc: Y.Doc,
  candidates: readonly T[],
  memberId: string,
  keep: ReadonlySet<string> = new Set(),
): InboxRow<T>[] {
  const matched = matchedCandidates(doc, candidates);
  const window = inboxWindow(doc, candidates, memberId);
  const triageMap = rootMap(doc, ROOT.inboxTriage);
  const queued = queuedIds(doc);
  const rows: InboxRow<T>[] = [];
  for (const m of matched) {
    const stored = readTriage(m.paperId, triageMap.get(m.paperId));
    const triage = standingTriage(doc, m.paperId, stored, queued) ?? queuedTriage(doc, m.paperId, queued);
    if (!keep.has(m.paperId) && (triage !== null || !inWindow(window, m.listingDate))) continue;
    const { paperId, listingDate, candidate } = m;
    rows.push({ paperId, listingDate, matchedTopics: m.matched, candidate, triage });
  }
  return rows.sort((a, b) => byCodeUnits(b.listingDate, a.listingDate) || byCodeUnits(b.paperId, a.paperId));
}

/** A paper someone put in the queue without triaging it (from a topic's page) counts as saved by them. */
function queuedTriage(doc: Y.Doc, paperId: string, queued: ReadonlySet<string>): Triage | null {
  const item = queued.has(paperId) ? getQueueItem(doc, paperId) : null;
  return item && { paperId, decision: 'saved', by: item.addedBy, at: item.addedAt, addedToQueue: false };
}

/** The member's inbox, newest listing first: the rows of `inboxRows` nobody has triaged. */
export function inboxFor<T extends InboxCandidate>(
  doc: Y.Doc,
  candidates: readonly T[],
  memberId: string,
): InboxItem<T>[] {
  return inboxRows(doc, candidates, memberId).map(({ paperId, listingDate, matchedTopics, candidate }) => ({
    paperId,
    listingDate,
    matchedTopics,
    candidate,
  }));
}

/**
 * Saves the paper to the queue and records the triage, in one transaction. Returns the decision, or null
 * when the paper was triaged already (by anyone: the first decision stands, undo it to change it), in which
 * case nothing is written, so a key pressed twice never acts twice.
 */
export function saveFromInbox(doc: Y.Doc, paper: PaperSnapshot, memberId: string, now: Date): Triage | null {
  const plan = planSave(doc, paper, memberId, now);
  const by = checkMemberId(memberId);
  const at = checkNow(now);
  const paperId = checkPaperId(paper.id);
  const map = rootMap(doc, ROOT.inboxTriage);
  if (readTriage(paperId, map.get(paperId))) return null;
  writeGroup(doc, () => {
    plan.write();
    map.set(paperId, { decision: 'saved', by, at, added: plan.added });
  });
  return { paperId, decision: 'saved', by, at, addedToQueue: plan.added };
}

/** Dismisses the paper for the group; null (nothing written) when it was triaged already. */
export function dismissFromInbox(doc: Y.Doc, paperId: string, memberId: string, now: Date): Triage | null {
  const id = checkPaperId(paperId);
  const by = checkMemberId(memberId);
  const at = checkNow(now);
  const map = rootMap(doc, ROOT.inboxTriage);
  if (readTriage(id, map.get(id))) return null;
  writeGroup(doc, () => map.set(id, { decision: 'dismissed', by, at }));
  return { paperId: id, decision: 'dismissed', by, at, addedToQueue: false };
}

export interface UndoneTriage {
  triage: Triage;
  /**
   * The save was undone but the paper stays in the queue (so it does not return to the inbox): someone else
   * saved it too, or it has moved on from "queued".
   */
  keptInQueue: boolean;
}

/**
 * Undoes the member's own decision: the paper returns to the inbox, and a save that put it in the queue
 * takes it out again, unless others have taken it up there since. Refused for another member's decision.
 */
export function undoTriage(doc: Y.Doc, paperId: string, memberId: string): UndoneTriage {
  const id = checkPaperId(paperId);
  const me = checkMemberId(memberId);
  const triage = getTriage(doc, id);
  if (!triage)
    throw invalidInput(`Nobody has triaged ${id} (or it was undone already): there is nothing to undo.`);
  if (triage.by !== me) {
    throw invalidInput(
      `${memberName(doc, triage.by)} triaged ${id}, so only they can undo it; it is in “Recently triaged”.`,
    );
  }
  const item = triage.decision === 'saved' ? getQueueItem(doc, id) : null;
  const takeOut =
    item !== null && triage.addedToQueue && item.status === 'queued' && item.savedBy.every((m) => m === me);
  writeGroup(doc, () => {
    rootMap(doc, ROOT.inboxTriage).delete(id);
    if (takeOut) removeFromQueue(doc, id);
  });
  return { triage, keptInQueue: item !== null && !takeOut };
}

/** Clears any decision on the paper (the paper returns to the inbox; a saved paper stays in the queue). */
export function clearTriage(doc: Y.Doc, paperId: string): boolean {
  const id = checkPaperId(paperId);
  const map = rootMap(doc, ROOT.inboxTriage);
  if (!map.has(id)) return false;
  writeGroup(doc, () => map.delete(id));
  return true;
}
