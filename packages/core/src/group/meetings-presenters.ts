/**
 * Who presents each meeting. The turn passes along the rotation one meeting at a time, a skipped turn going
 * to the next member; a past meeting keeps the presenter it had, whatever happens to the rotation later:
 *
 * - a member is in the rotation only for meetings that start after they joined, so joining never moves
 *   an earlier turn;
 * - reordering the rotation first records who presented every meeting held so far (`presented|<day>`,
 *   one key a meeting, so two members recording at once write the same value under their own key), and
 *   each member's app records a meeting once it has started (recordPastPresenters in meetings.ts), which
 *   also keeps past turns when a member is removed (their join date goes with them); moving the weekly
 *   meeting keeps the meetings held as dates with their presenters (setWeeklyMeeting);
 * - the turn after a recorded meeting goes to whoever follows its recorded presenter.
 */
import type * as Y from 'yjs';
import { joinKey, ROOT, rootMap, splitKey, writeGroup } from './group-doc.ts';
import { checkMemberId, checkNow } from './input-checks.ts';
import { listMembers } from './members.ts';
import { compareInstants, instantMs, isRecord, readStamp, readStringList } from './peer-values.ts';
import { checkDay, instantOfWallTime, wallTimeAt } from './zoned-time.ts';

export const PRESENTER_KEY = { rotation: 'rotation', skip: 'skip', presented: 'presented' } as const;

export interface PresenterTurn {
  presenter: string | null;
  skipped: string[];
  /** True when the presenter was recorded (a meeting held), so it no longer follows the rotation. */
  recorded: boolean;
}

interface RecordedTurn {
  presenter: string | null;
  skipped: string[];
  at: string;
}

const meetingsMap = (doc: Y.Doc): Y.Map<unknown> => rootMap(doc, ROOT.meetings);

/**
 * The presenters' order: the stored order (members who left dropped), then members it does not name yet,
 * in the order they joined, so a new member joins the rotation without anyone editing it.
 */
export function presenterRotation(doc: Y.Doc): string[] {
  const members = listMembers(doc).map((m) => m.id);
  const known = new Set(members);
  const stored = meetingsMap(doc).get(PRESENTER_KEY.rotation);
  const order = (isRecord(stored) ? readStringList(stored.order) : null) ?? [];
  const kept = [...new Set(order)].filter((id) => known.has(id));
  const inKept = new Set(kept);
  return [...kept, ...members.filter((id) => !inKept.has(id))];
}

/**
 * Skips `presenterId`'s turn at the meeting of `date`: the next member in the rotation presents, and the
 * rotation goes on from there (everyone after moves up one meeting).
 */
export function skipPresenter(
  doc: Y.Doc,
  date: string,
  presenterId: string,
  memberId: string,
  now: Date,
): void {
  const key = joinKey(PRESENTER_KEY.skip, checkDay(date, 'meeting day'), checkMemberId(presenterId));
  const stamp = { by: checkMemberId(memberId), at: checkNow(now) };
  writeGroup(doc, () => meetingsMap(doc).set(key, stamp));
}

export function unskipPresenter(doc: Y.Doc, date: string, presenterId: string): boolean {
  const key = joinKey(PRESENTER_KEY.skip, checkDay(date, 'meeting day'), checkMemberId(presenterId));
  if (!meetingsMap(doc).has(key)) return false;
  writeGroup(doc, () => meetingsMap(doc).delete(key));
  return true;
}

/** When the rotation was last reordered (ISO), or null. */
export function rotationChangedAt(doc: Y.Doc): string | null {
  return readStamp(meetingsMap(doc).get(PRESENTER_KEY.rotation))?.at ?? null;
}

/** Skipped turns as `<day>|<member>`, each with when it was skipped. */
export function skippedTurns(doc: Y.Doc): Map<string, string> {
  const skips = new Map<string, string>();
  meetingsMap(doc).forEach((value, key) => {
    const [kind, day, member] = splitKey(key, 3) ?? [];
    const stamp = readStamp(value);
    if (kind === PRESENTER_KEY.skip && day && member && stamp) skips.set(joinKey(day, member), stamp.at);
  });
  return skips;
}

function readRecordedTurn(value: unknown): RecordedTurn | null {
  const stamp = readStamp(value);
  if (!stamp || !isRecord(value)) return null;
  const presenter = value.presenter;
  if (presenter !== null && (typeof presenter !== 'string' || presenter === '')) return null;
  return { presenter, skipped: readStringList(value.skipped) ?? [], at: stamp.at };
}

/** The presenters recorded for meetings held, by meeting day. */
export function recordedTurns(doc: Y.Doc): Map<string, RecordedTurn> {
  const turns = new Map<string, RecordedTurn>();
  meetingsMap(doc).forEach((value, key) => {
    const [kind, day] = splitKey(key, 2) ?? [];
    const turn = kind === PRESENTER_KEY.presented && day ? readRecordedTurn(value) : null;
    if (day && turn) turns.set(day, turn);
  });
  return turns;
}

export function recordedTurnValue(
  turn: Pick<PresenterTurn, 'presenter' | 'skipped'>,
  by: string,
  at: string,
): Record<string, unknown> {
  return { presenter: turn.presenter, skipped: turn.skipped, by, at };
}

/**
 * A function that gives each meeting's presenter, called once per meeting in order from the group's first
 * (each turn depends on the ones before it).
 */
export function presenterTurns(
  doc: Y.Doc,
  zone: string,
): (day: { date: string; time: string }) => PresenterTurn {
  const rotation = presenterRotation(doc);
  const joined = new Map(
    listMembers(doc).map((m) => {
      const ms = instantMs(m.joinedAt) ?? 0;
      return [m.id, { ms, day: wallTimeAt(ms, zone).date }] as const;
    }),
  );
  const skips = skippedTurns(doc);
  const recorded = recordedTurns(doc);
  let pos = 0;
  let last: string | null = null;
  return (day) => {
    let startMs: number | null = null;
    const joinedBy = (id: string): boolean => {
      const j = joined.get(id);
      if (!j || j.day < day.date) return true;
      if (j.day > day.date) return false;
      startMs ??= instantOfWallTime(day.date, day.time, zone);
      return j.ms <= startMs;
    };
    const eligible = rotation.filter(joinedBy);
    const anchor = last === null ? -1 : eligible.indexOf(last);
    if (anchor >= 0) pos = anchor + 1;
    const record = recorded.get(day.date);
    if (record) {
      if (record.presenter !== null) {
        last = record.presenter;
        const i = eligible.indexOf(last);
        // A recorded presenter no longer in the group leaves the turn with whoever followed the one before.
        if (i >= 0) pos = i + 1;
      }
      return { presenter: record.presenter, skipped: record.skipped, recorded: true };
    }
    const skipped: string[] = [];
    for (let tries = 0; tries < eligible.length; tries++) {
      const candidate = eligible[pos % eligible.length] ?? null;
      pos++;
      if (candidate === null) break;
      if (!skips.has(joinKey(day.date, candidate))) {
        last = candidate;
        return { presenter: candidate, skipped, recorded: false };
      }
      skipped.push(candidate);
    }
    return { presenter: null, skipped, recorded: false };
  };
}

/**
 * The latest change to what decides a meeting's presenter (ISO), or null: its recorded turn, else the
 * rotation's order, the skips up to that day and the joins before it.
 */
export function presenterChangedAt(doc: Y.Doc, meeting: { date: string; start: string }): string | null {
  const record = recordedTurns(doc).get(meeting.date);
  if (record) return record.at;
  const stamps = [rotationChangedAt(doc)];
  for (const [key, at] of skippedTurns(doc))
    if ((splitKey(key, 2)?.[0] ?? '') <= meeting.date) stamps.push(at);
  for (const m of listMembers(doc))
    if (compareInstants(m.joinedAt, meeting.start) <= 0) stamps.push(m.joinedAt);
  return latestInstant(stamps);
}

export function latestInstant(stamps: readonly (string | null | undefined)[]): string | null {
  let latest: string | null = null;
  for (const s of stamps) {
    if (s && instantMs(s) !== null && (latest === null || compareInstants(s, latest) > 0)) latest = s;
  }
  return latest;
}
