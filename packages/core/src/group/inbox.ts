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
import { checkMemberId, checkNow, checkPaperId } from './input-checks.ts';
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
import { planSave } from './queue.ts';

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
  return by !== null && at !== null ? { paperId, decision: value.decision, by, at } : null;
}

export function getTriage(doc: Y.Doc, paperId: string): Triage | null {
  const id = checkPaperId(paperId);
  return readTriage(id, rootMap(doc, ROOT.inboxTriage).get(id));
}

/** Every decision, latest first: who has skimmed what. */
export function listTriage(doc: Y.Doc): Triage[] {
  const all: Triage[] = [];
  rootMap(doc, ROOT.inboxTriage).forEach((value, key) => {
    const triage = readPaperId(key) === key ? readTriage(key, value) : null;
    if (triage) all.push(triage);
  });
  return all.sort((a, b) => compareInstants(b.at, a.at) || byCodeUnits(a.paperId, b.paperId));
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

/**
 * The member's inbox, newest listing first: candidates in a followed topic, announced after the member last
 * looked, not triaged by anyone and not already in the queue. Candidates with an unreadable id or listing
 * date are skipped: one bad record from the API should not hide the rest.
 */
export function inboxFor<T extends InboxCandidate>(
  doc: Y.Doc,
  candidates: readonly T[],
  memberId: string,
): InboxItem<T>[] {
  const looked = lastLookedAt(doc, memberId);
  const lookedMs = looked === null ? null : instantMs(looked);
  const followed = followedSlugs(doc);
  const triage = rootMap(doc, ROOT.inboxTriage);
  const queued = new Set(queuedPapers(doc).map((q) => q.paper.id));
  const items = new Map<string, InboxItem<T>>();
  for (const candidate of candidates) {
    const paperId = readPaperId(candidate.id);
    const listed = typeof candidate.listingDate === 'string' && isYmd(candidate.listingDate);
    if (paperId === null || !listed) continue;
    const topics: readonly unknown[] = Array.isArray(candidate.topics) ? candidate.topics : [];
    const matched = topics.filter((t): t is string => typeof t === 'string' && followed.has(t));
    if (matched.length === 0 || queued.has(paperId) || readTriage(paperId, triage.get(paperId))) continue;
    if (lookedMs !== null && announcedAt(candidate.listingDate) <= lookedMs) continue;
    const seen = items.get(paperId);
    const matchedTopics = [...new Set([...(seen?.matchedTopics ?? []), ...matched])];
    items.set(paperId, {
      paperId,
      listingDate: candidate.listingDate,
      matchedTopics,
      candidate: seen?.candidate ?? candidate,
    });
  }
  return [...items.values()].sort(
    (a, b) => byCodeUnits(b.listingDate, a.listingDate) || byCodeUnits(b.paperId, a.paperId),
  );
}

/** Saves the paper to the queue and records the triage, in one transaction. */
export function saveFromInbox(doc: Y.Doc, paper: PaperSnapshot, memberId: string, now: Date): boolean {
  const plan = planSave(doc, paper, memberId, now);
  const by = checkMemberId(memberId);
  const at = checkNow(now);
  const paperId = checkPaperId(paper.id);
  writeGroup(doc, () => {
    plan.write();
    rootMap(doc, ROOT.inboxTriage).set(paperId, { decision: 'saved', by, at });
  });
  return plan.added;
}

export function dismissFromInbox(doc: Y.Doc, paperId: string, memberId: string, now: Date): void {
  const id = checkPaperId(paperId);
  const by = checkMemberId(memberId);
  const at = checkNow(now);
  writeGroup(doc, () => rootMap(doc, ROOT.inboxTriage).set(id, { decision: 'dismissed', by, at }));
}

/** Undoes a triage decision (the paper returns to the inbox; a saved paper stays in the queue). */
export function clearTriage(doc: Y.Doc, paperId: string): boolean {
  const id = checkPaperId(paperId);
  const map = rootMap(doc, ROOT.inboxTriage);
  if (!map.has(id)) return false;
  writeGroup(doc, () => map.delete(id));
  return true;
}
