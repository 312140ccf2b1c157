/**
 * Closing a week records its pick; the history lists past picks and when each was discussed. The discussed
 * mark has its own key (`<week>|discussed`), apart from the pick, so closing and discussing never overwrite
 * each other when done on different devices.
 */
import type * as Y from 'yjs';
import { joinKey, ROOT, rootMap, splitKey, writeGroup } from './group-doc.ts';
import { checkMemberId, checkNow, checkWeek, invalidInput } from './input-checks.ts';
import { byCodeUnits, compareInstants, readStamp } from './peer-values.ts';
import { queuedPaper, readStatus } from './queue-records.ts';
import { planStatus, type PlannedWrite } from './queue.ts';
import { readClosedPick, weekTally, type ClosedPick, type WeekTally } from './weekly-pick.ts';

export interface PickRecord extends ClosedPick {
  discussedBy: string | null;
  discussedAt: string | null;
}

function withDiscussed(doc: Y.Doc, pick: ClosedPick): PickRecord {
  const stamp = readStamp(rootMap(doc, ROOT.pickWeeks).get(joinKey(pick.week, 'discussed')));
  return { ...pick, discussedBy: stamp?.by ?? null, discussedAt: stamp?.at ?? null };
}

export function pickOf(doc: Y.Doc, week: string): PickRecord | null {
  const pick = readClosedPick(doc, checkWeek(week));
  return pick ? withDiscussed(doc, pick) : null;
}

/** Every closed week, latest week first. */
export function pickHistory(doc: Y.Doc): PickRecord[] {
  const picks: PickRecord[] = [];
  rootMap(doc, ROOT.pickWeeks).forEach((_value, key) => {
    const [week, field] = splitKey(key, 2) ?? [];
    if (field !== 'pick' || week === undefined) return;
    const pick = readClosedPick(doc, week);
    if (pick) picks.push(withDiscussed(doc, pick));
  });
  return picks.sort((a, b) => byCodeUnits(b.week, a.week));
}

/**
 * Closes the week with the current winner (see `compareCandidates`) and puts that paper to "reading" when
 * it was still "queued". Any member may close at any time: the deadline only stops voting, the group decides
 * when to close. Refused without candidates or when the week is closed already.
 */
export function closeWeek(doc: Y.Doc, week: string, memberId: string, now: Date): PickRecord {
  const tally = weekTally(doc, week);
  const by = checkMemberId(memberId);
  const at = checkNow(now);
  if (tally.closed)
    throw invalidInput(`The week of ${tally.week} is closed already; reopen it to close it again.`);
  if (!tally.candidates[0]) {
    throw invalidInput(
      `Nobody has nominated a paper for the week of ${tally.week}; nominate one before closing.`,
    );
  }
  return writePick(doc, tally, by, at, false, now);
}

/**
 * Records the pick of a week whose deadline has passed, once: the app of whichever member sees it first
 * writes it, so every member (and the calendar feed) shows the same winner and it is kept even if the
 * deadline moves later. Counted from the votes cast by the deadline, stamped with the deadline itself, so
 * two members' apps recording it at once write the same pick. Null when there is nothing to record yet.
 */
export function recordDeadlinePick(doc: Y.Doc, week: string, memberId: string, now: Date): PickRecord | null {
  const tally = weekTally(doc, week);
  const by = checkMemberId(memberId);
  const at = checkNow(now);
  if (tally.closed || tally.deadline === null || compareInstants(at, tally.deadline) <= 0) return null;
  if (!tally.candidates[0]) return null;
  return writePick(doc, tally, by, tally.deadline, true, now);
}

function writePick(
  doc: Y.Doc,
  tally: WeekTally,
  by: string,
  at: string,
  atDeadline: boolean,
  now: Date,
): PickRecord {
  const winner = tally.candidates[0];
  if (!winner) throw invalidInput(`The week of ${tally.week} has no candidates to pick from.`);
  const entry = queuedPaper(doc, winner.paperId);
  const title = entry?.paper.title ?? winner.paperId;
  const record = { paperId: winner.paperId, title, approvals: winner.approvals, by, at, atDeadline };
  const status = readStatus(rootMap(doc, ROOT.queueStatus).get(winner.paperId))?.status ?? 'queued';
  const startReading: PlannedWrite | null =
    entry && status === 'queued' ? planStatus(doc, winner.paperId, 'reading', by, now) : null;
  writeGroup(doc, () => {
    rootMap(doc, ROOT.pickWeeks).set(joinKey(tally.week, 'pick'), record);
    startReading?.write();
  });
  return {
    week: tally.week,
    paperId: winner.paperId,
    title,
    approvals: winner.approvals,
    closedBy: by,
    closedAt: at,
    atDeadline,
    discussedBy: null,
    discussedAt: null,
  };
}

/** Undoes closing (votes and nominations were kept, so voting simply resumes). */
export function reopenWeek(doc: Y.Doc, week: string): boolean {
  const w = checkWeek(week);
  const map = rootMap(doc, ROOT.pickWeeks);
  if (!map.has(joinKey(w, 'pick'))) return false;
  writeGroup(doc, () => {
    map.delete(joinKey(w, 'pick'));
    map.delete(joinKey(w, 'discussed'));
  });
  return true;
}

/**
 * Marks the week's pick discussed: recorded in the history, and the queued paper's status becomes
 * "discussed", which remembers the arXiv version discussed (see version-change.ts).
 */
export function markDiscussed(doc: Y.Doc, week: string, memberId: string, now: Date): PickRecord {
  const w = checkWeek(week);
  const by = checkMemberId(memberId);
  const at = checkNow(now);
  const pick = readClosedPick(doc, w);
  if (!pick) throw invalidInput(`The week of ${w} has no pick yet; close the week first.`);
  const status = queuedPaper(doc, pick.paperId) ? planStatus(doc, pick.paperId, 'discussed', by, now) : null;
  writeGroup(doc, () => {
    rootMap(doc, ROOT.pickWeeks).set(joinKey(w, 'discussed'), { by, at });
    status?.write();
  });
  return { ...pick, discussedBy: by, discussedAt: at };
}
