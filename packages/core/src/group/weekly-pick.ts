/**
 * The weekly pick: members nominate queued papers for a week, approve as many as the group allows
 * (approval voting), and the winner follows from the document alone, so every peer computes the same one.
 *
 * Storage, one writer per key: nominations `<week>|<paperId>|<memberId>` → ISO time, votes
 * `<week>|<memberId>|<paperId>` → ISO time cast, and `<week>|deadline` / `<week>|pick` in the weeks map.
 * A member voting from two offline devices may end up with more votes than allowed; only their earliest
 * `votesPerMember` votes (by time cast, then paper id) count, so the cap holds after any merge.
 *
 * The deadline is the week's own (`<week>|deadline`) or else the one its meeting gives (meetings.ts). Voting
 * closes by itself then: every peer computes the same closed week from the document and its clock, and
 * votes or nominations stamped after the deadline (a device with a wrong clock) never count.
 */
import type * as Y from 'yjs';
import { mondayOf, ymdOfInstant } from '../dates.ts';
import { joinKey, ROOT, rootMap, splitKey, writeGroup } from './group-doc.ts';
import {
  checkInstant,
  checkMemberId,
  checkNow,
  checkPaperId,
  checkWeek,
  invalidInput,
} from './input-checks.ts';
import {
  byCodeUnits,
  compareInstants,
  instantMs,
  isRecord,
  readInstant,
  readNonEmpty,
  readPaperId,
  readPositiveInt,
  readString,
} from './peer-values.ts';
import { meetingDeadline, nextMeeting } from './meetings.ts';
import { queuedPapers } from './queue-records.ts';

export const DEFAULT_VOTES_PER_MEMBER = 3;
export const MAX_VOTES_PER_MEMBER = 20;

export interface Candidate {
  paperId: string;
  /** The first nominator and when; the earliest nomination breaks ties. */
  nominatedBy: string;
  nominatedAt: string;
  nominators: string[];
  approvals: number;
  voters: string[];
}

/** A week once closed: the pick, with what it had when the week closed. */
export interface ClosedPick {
  week: string;
  paperId: string;
  title: string;
  approvals: number;
  closedBy: string;
  closedAt: string;
  /** True when recorded because the deadline passed, not closed by a member. */
  atDeadline: boolean;
}

export interface WeekTally {
  week: string;
  votesPerMember: number;
  deadline: string | null;
  /** Where the deadline comes from: set for this week, or the meeting's lead time. */
  deadlineSource: 'week' | 'meeting' | null;
  /** Ranked: the first is the current winner. */
  candidates: Candidate[];
  /** The winner by the votes now in the document; null without candidates. */
  winner: string | null;
  /** Set once the week is closed; it may differ from `winner` if votes changed after closing. */
  closed: ClosedPick | null;
}

/** The Monday (UTC) that starts the week holding `date`, YYYY-MM-DD: the key of that week. */
export function weekKeyOf(date: Date): string {
  checkNow(date);
  return mondayOf(ymdOfInstant(date.getTime()));
}

/**
 * The week whose pick the group is choosing at `now`: the week of the next meeting (voting for a Monday
 * meeting happens the week before), or the current week when the group has no meeting.
 */
export function pickWeekAt(doc: Y.Doc, now: Date): string {
  return nextMeeting(doc, now)?.week ?? weekKeyOf(now);
}

export function votesPerMember(doc: Y.Doc): number {
  const value = readPositiveInt(rootMap(doc, ROOT.meta).get('votesPerMember'));
  return value !== null && value <= MAX_VOTES_PER_MEMBER ? value : DEFAULT_VOTES_PER_MEMBER;
}

/** Applies to counting at once, every week not yet closed: a member's earliest votes up to the cap count. */
export function setVotesPerMember(doc: Y.Doc, count: number): void {
  if (!Number.isInteger(count) || count < 1 || count > MAX_VOTES_PER_MEMBER) {
    throw invalidInput(
      `${String(count)} is not a number of votes; allow each member from 1 to ${MAX_VOTES_PER_MEMBER} votes a week.`,
    );
  }
  writeGroup(doc, () => rootMap(doc, ROOT.meta).set('votesPerMember', count));
}

export function readClosedPick(doc: Y.Doc, week: string): ClosedPick | null {
  const value = rootMap(doc, ROOT.pickWeeks).get(joinKey(week, 'pick'));
  if (!isRecord(value)) return null;
  const paperId = readPaperId(value.paperId);
  const closedBy = readNonEmpty(value.by);
  const closedAt = readInstant(value.at);
  if (paperId === null || closedBy === null || closedAt === null) return null;
  const approvals =
    typeof value.approvals === 'number' && value.approvals >= 0 ? Math.floor(value.approvals) : 0;
  const title = readString(value.title) ?? paperId;
  return { week, paperId, title, approvals, closedBy, closedAt, atDeadline: value.atDeadline === true };
}

/** The deadline set for this week alone, without the meeting's default. */
export function ownPickDeadline(doc: Y.Doc, week: string): string | null {
  return readInstant(rootMap(doc, ROOT.pickWeeks).get(joinKey(checkWeek(week), 'deadline')));
}

/** The time voting closes: the week's own deadline, else the meeting's; null when neither is set. */
export function pickDeadline(doc: Y.Doc, week: string): string | null {
  return ownPickDeadline(doc, week) ?? meetingDeadline(doc, week);
}

/**
 * Sets the time after which votes and nominations for the week are refused; null clears it, and the
 * meeting's deadline (if any) applies again.
 */
export function setPickDeadline(doc: Y.Doc, week: string, deadline: string | null): void {
  const w = checkWeek(week);
  const key = joinKey(w, 'deadline');
  const value = deadline === null ? null : checkInstant(deadline, 'deadline');
  writeGroup(doc, () => {
    if (value === null) rootMap(doc, ROOT.pickWeeks).delete(key);
    else rootMap(doc, ROOT.pickWeeks).set(key, value);
  });
}

/**
 * The tie-break, documented because every peer must agree: most approvals first; on a tie, the candidate
 * nominated first (earliest nomination time in the document); then the smaller arXiv id, comparing the
 * normal ids as strings code unit by code unit ("2604.00001" < "2604.00002" < "hep-th/9901001").
 */
export function compareCandidates(a: Candidate, b: Candidate): number {
  return (
    b.approvals - a.approvals ||
    (instantMs(a.nominatedAt) ?? 0) - (instantMs(b.nominatedAt) ?? 0) ||
    byCodeUnits(a.paperId, b.paperId)
  );
}

/** True for a stamp that counts: none after the deadline. */
function beforeDeadline(at: string, deadline: string | null): boolean {
  return deadline === null || compareInstants(at, deadline) <= 0;
}

function nominations(doc: Y.Doc, week: string): Map<string, { memberId: string; at: string }[]> {
  const queued = new Set(queuedPapers(doc).map((q) => q.paper.id));
  const deadline = pickDeadline(doc, week);
  const byPaper = new Map<string, { memberId: string; at: string }[]>();
  rootMap(doc, ROOT.pickNominations).forEach((value, key) => {
    const [w, paperId, memberId] = splitKey(key, 3) ?? [];
    const at = readInstant(value);
    // A paper taken out of the queue stops being a candidate.
    if (w !== week || paperId === undefined || !queued.has(paperId) || !memberId || at === null) return;
    if (!beforeDeadline(at, deadline)) return;
    byPaper.set(paperId, [...(byPaper.get(paperId) ?? []), { memberId, at }]);
  });
  for (const list of byPaper.values()) {
    list.sort((a, b) => compareInstants(a.at, b.at) || byCodeUnits(a.memberId, b.memberId));
  }
  return byPaper;
}

/** Each member's counted votes: for current candidates, earliest first, at most the cap. */
function countedVotes(doc: Y.Doc, week: string, candidates: ReadonlySet<string>): Map<string, string[]> {
  const cast = new Map<string, { paperId: string; at: string }[]>();
  const deadline = pickDeadline(doc, week);
  rootMap(doc, ROOT.pickVotes).forEach((value, key) => {
    const [w, memberId, paperId] = splitKey(key, 3) ?? [];
    const at = readInstant(value);
    if (w !== week || !memberId || paperId === undefined || !candidates.has(paperId) || at === null) return;
    if (!beforeDeadline(at, deadline)) return;
    cast.set(memberId, [...(cast.get(memberId) ?? []), { paperId, at }]);
  });
  const cap = votesPerMember(doc);
  const counted = new Map<string, string[]>();
  for (const [memberId, votes] of cast) {
    votes.sort((a, b) => compareInstants(a.at, b.at) || byCodeUnits(a.paperId, b.paperId));
    counted.set(
      memberId,
      votes.slice(0, cap).map((v) => v.paperId),
    );
  }
  return counted;
}

export function weekTally(doc: Y.Doc, week: string): WeekTally {
  const w = checkWeek(week);
  const nominated = nominations(doc, w);
  const votes = countedVotes(doc, w, new Set(nominated.keys()));
  const candidates: Candidate[] = [];
  for (const [paperId, noms] of nominated) {
    const first = noms[0];
    if (!first) continue;
    const voters = [...votes].filter(([, papers]) => papers.includes(paperId)).map(([m]) => m);
    candidates.push({
      paperId,
      nominatedBy: first.memberId,
      nominatedAt: first.at,
      nominators: noms.map((n) => n.memberId),
      approvals: voters.length,
      voters: voters.sort(byCodeUnits),
    });
  }
  candidates.sort(compareCandidates);
  const own = ownPickDeadline(doc, w);
  const deadline = own ?? meetingDeadline(doc, w);
  return {
    week: w,
    votesPerMember: votesPerMember(doc),
    deadline,
    deadlineSource: own !== null ? 'week' : deadline !== null ? 'meeting' : null,
    candidates,
    winner: candidates[0]?.paperId ?? null,
    closed: readClosedPick(doc, w),
  };
}

/** The member's counted votes for the week, earliest first. */
export function votesOf(doc: Y.Doc, week: string, memberId: string): string[] {
  const w = checkWeek(week);
  const candidates = new Set(nominations(doc, w).keys());
  return countedVotes(doc, w, candidates).get(checkMemberId(memberId)) ?? [];
}

function checkOpen(doc: Y.Doc, week: string, at: string, action: string): void {
  if (readClosedPick(doc, week)) {
    throw invalidInput(`The week of ${week} is closed; reopen it before you ${action}.`);
  }
  const deadline = pickDeadline(doc, week);
  if (deadline !== null && compareInstants(at, deadline) > 0) {
    throw invalidInput(
      `Voting for the week of ${week} ended at ${deadline}; move the deadline to ${action}.`,
    );
  }
}

export function nominate(doc: Y.Doc, week: string, paperId: string, memberId: string, now: Date): void {
  const w = checkWeek(week);
  const id = checkPaperId(paperId);
  const by = checkMemberId(memberId);
  const at = checkNow(now);
  if (!queuedPapers(doc).some((q) => q.paper.id === id)) {
    throw invalidInput(`The paper ${id} is not in the queue; save it to the queue before nominating it.`);
  }
  checkOpen(doc, w, at, 'nominate');
  const key = joinKey(w, id, by);
  if (rootMap(doc, ROOT.pickNominations).has(key)) return;
  writeGroup(doc, () => rootMap(doc, ROOT.pickNominations).set(key, at));
}

/** Withdraws the member's own nomination; the paper stays a candidate while anyone else nominated it. */
export function withdrawNomination(
  doc: Y.Doc,
  week: string,
  paperId: string,
  memberId: string,
  now: Date,
): boolean {
  const w = checkWeek(week);
  const key = joinKey(w, checkPaperId(paperId), checkMemberId(memberId));
  checkOpen(doc, w, checkNow(now), 'withdraw a nomination');
  const map = rootMap(doc, ROOT.pickNominations);
  if (!map.has(key)) return false;
  writeGroup(doc, () => map.delete(key));
  return true;
}

/** Approves a candidate. Refused (CoreError 'invalid-input') beyond the group's votes per member. */
export function castVote(doc: Y.Doc, week: string, paperId: string, memberId: string, now: Date): void {
  const w = checkWeek(week);
  const id = checkPaperId(paperId);
  const by = checkMemberId(memberId);
  const at = checkNow(now);
  checkOpen(doc, w, at, 'vote');
  const candidates = new Set(nominations(doc, w).keys());
  if (!candidates.has(id)) {
    throw invalidInput(
      `The paper ${id} is not nominated for the week of ${w}; nominate it before voting for it.`,
    );
  }
  const mine = countedVotes(doc, w, candidates).get(by) ?? [];
  if (mine.includes(id)) return;
  const cap = votesPerMember(doc);
  if (mine.length >= cap) {
    throw invalidInput(
      `You have used all ${cap} of your votes for the week of ${w}; take one back before voting for another.`,
    );
  }
  writeGroup(doc, () => rootMap(doc, ROOT.pickVotes).set(joinKey(w, by, id), at));
}

export function retractVote(doc: Y.Doc, week: string, paperId: string, memberId: string, now: Date): boolean {
  const w = checkWeek(week);
  const key = joinKey(w, checkMemberId(memberId), checkPaperId(paperId));
  checkOpen(doc, w, checkNow(now), 'take back a vote');
  const map = rootMap(doc, ROOT.pickVotes);
  if (!map.has(key)) return false;
  writeGroup(doc, () => map.delete(key));
  return true;
}
