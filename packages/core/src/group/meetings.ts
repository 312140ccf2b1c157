/**
 * The group's meeting: a weekly slot (weekday, time, time zone) and/or one-off dates, the presenter of each
 * meeting (a rotation through the members, which the group reorders, and a member's turn skipped at one
 * meeting), and how long before a meeting voting on its pick closes.
 *
 * Storage, in the flat `meetings` map, keyed so that concurrent edits merge: `timeZone`, `weekly`, `lead`,
 * `length` and `rotation` are single values (the last write wins: each is edited as a whole); one-off
 * meetings `date|<day>`, cancelled weekly meetings `cancel|<day>`, skipped turns `skip|<day>|<member>` and
 * the presenters of meetings held `presented|<day>` are one key each, so adding one never overwrites
 * another.
 *
 * The pick of a week (its Monday key, see weekly-pick.ts) is presented at the first meeting held in that
 * week, by the meeting's own calendar day in the group's time zone.
 */
import type * as Y from 'yjs';
import { addDays, mondayOf, weekdayOf } from '../dates.ts';
import { joinKey, ROOT, rootMap, splitKey, writeGroup } from './group-doc.ts';
import { checkMemberId, checkNow, checkWeek, invalidInput } from './input-checks.ts';
import {
  latestInstant,
  presenterChangedAt,
  presenterRotation,
  presenterTurns,
  PRESENTER_KEY,
  recordedTurnValue,
} from './meetings-presenters.ts';
import { byCodeUnits, isRecord, readPositiveInt, readStamp } from './peer-values.ts';
import {
  checkDay,
  checkTimeOfDay,
  checkTimeZone,
  instantOfWallTime,
  isTimeOfDay,
  wallTimeAt,
} from './zoned-time.ts';

export { presenterRotation, skipPresenter, unskipPresenter } from './meetings-presenters.ts';

export const DEFAULT_DEADLINE_LEAD_MINUTES = 24 * 60;
export const MAX_DEADLINE_LEAD_MINUTES = 14 * 24 * 60;
export const DEFAULT_MEETING_MINUTES = 60;
export const MAX_MEETING_MINUTES = 12 * 60;
/** Meetings counted from the first: enough for twenty years of weekly meetings, and a bound on the work. */
const MAX_MEETINGS = 1100;

export interface WeeklySlot {
  /** 1 = Monday … 7 = Sunday (ISO 8601). */
  weekday: number;
  /** HH:MM on the group's clock. */
  time: string;
  /** The first day the slot applies (YYYY-MM-DD). */
  from: string;
}

export interface MeetingSchedule {
  timeZone: string | null;
  weekly: WeeklySlot | null;
  /** One-off meetings, earliest first. */
  dates: { date: string; time: string }[];
  /** Days on which the weekly meeting does not take place. */
  cancelled: string[];
  leadMinutes: number;
  lengthMinutes: number;
}

export interface Meeting {
  /** The meeting's day and time on the group's clock. */
  date: string;
  time: string;
  timeZone: string;
  /** ISO instants. */
  start: string;
  end: string;
  /** 0 for the group's first meeting. */
  number: number;
  /** The week (its Monday) whose pick is presented here. */
  week: string;
  /** Null when the group has no members to rotate through (or every one is skipped). */
  presenter: string | null;
  /** Members whose turn it was, skipped at this meeting. */
  skipped: string[];
  /** The presenter was recorded once the meeting was held (or the rotation changed after it). */
  presenterRecorded: boolean;
  oneOff: boolean;
}

const KEY = {
  timeZone: 'timeZone',
  weekly: 'weekly',
  lead: 'lead',
  length: 'length',
  date: 'date',
  cancel: 'cancel',
} as const;

const meetingsMap = (doc: Y.Doc): Y.Map<unknown> => rootMap(doc, ROOT.meetings);

/** ISO weekday of a day: 1 = Monday … 7 = Sunday. */
export function isoWeekday(ymd: string): number {
  return weekdayOf(ymd) || 7;
}

function readWeekly(value: unknown): WeeklySlot | null {
  if (!isRecord(value)) return null;
  const { weekday, time, from } = value;
  if (typeof weekday !== 'number' || !Number.isInteger(weekday) || weekday < 1 || weekday > 7) return null;
  if (!isTimeOfDay(time) || typeof from !== 'string') return null;
  try {
    return { weekday, time, from: checkDay(from, 'first day') };
  } catch {
    return null;
  }
}

function readZone(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  try {
    return checkTimeZone(value);
  } catch {
    return null;
  }
}

function readMinutes(value: unknown, max: number, fallback: number): number {
  const n = readPositiveInt(value);
  return n !== null && n <= max ? n : fallback;
}

export function meetingSchedule(doc: Y.Doc): MeetingSchedule {
  const map = meetingsMap(doc);
  const dates: { date: string; time: string }[] = [];
  const cancelled: string[] = [];
  map.forEach((value, key) => {
    const [kind, day] = splitKey(key, 2) ?? [];
    if (day === undefined) return;
    try {
      checkDay(day, 'day');
    } catch {
      return;
    }
    if (kind === KEY.date && isRecord(value) && isTimeOfDay(value.time))
      dates.push({ date: day, time: value.time });
    if (kind === KEY.cancel && readStamp(value)) cancelled.push(day);
  });
  return {
    timeZone: readZone(map.get(KEY.timeZone)),
    weekly: readWeekly(map.get(KEY.weekly)),
    dates: dates.sort((a, b) => byCodeUnits(a.date, b.date)),
    cancelled: cancelled.sort(byCodeUnits),
    leadMinutes: readMinutes(map.get(KEY.lead), MAX_DEADLINE_LEAD_MINUTES, DEFAULT_DEADLINE_LEAD_MINUTES),
    lengthMinutes: readMinutes(map.get(KEY.length), MAX_MEETING_MINUTES, DEFAULT_MEETING_MINUTES),
  };
}

/**
 * Sets the weekly meeting, and the time zone every meeting of the group is read in. `from` (the first day
 * it applies) defaults to the group's today, so earlier weeks keep no meeting they never had; the meetings
 * already held are kept as dates (read in the new time zone, if it changes).
 */
export function setWeeklyMeeting(
  doc: Y.Doc,
  slot: { weekday: number; time: string; timeZone: string; from?: string },
  memberId: string,
  now: Date,
): WeeklySlot {
  const { weekday } = slot;
  if (!Number.isInteger(weekday) || weekday < 1 || weekday > 7) {
    throw invalidInput(`${String(weekday)} is not a weekday; give 1 for Monday through 7 for Sunday.`);
  }
  const time = checkTimeOfDay(slot.time);
  const timeZone = checkTimeZone(slot.timeZone);
  const by = checkMemberId(memberId);
  const at = checkNow(now);
  const from =
    slot.from === undefined ? wallTimeAt(now.getTime(), timeZone).date : checkDay(slot.from, 'first day');
  // The meetings held under the old slot stay where they were, as dates of their own, with their
  // presenters: moving the meeting to another day or time changes what comes, not what was.
  const held = meetingsBetween(doc, 0, now.getTime());
  const unrecorded = held.filter((m) => !m.presenterRecorded);
  writeGroup(doc, () => {
    for (const m of held) {
      if (!m.oneOff) meetingsMap(doc).set(joinKey(KEY.date, m.date), { time: m.time, by, at });
    }
    for (const m of unrecorded) {
      meetingsMap(doc).set(joinKey(PRESENTER_KEY.presented, m.date), recordedTurnValue(m, by, at));
    }
    meetingsMap(doc).set(KEY.timeZone, timeZone);
    meetingsMap(doc).set(KEY.weekly, { weekday, time, from, by, at });
  });
  return { weekday, time, from };
}

/** Stops the weekly meeting; one-off dates stay. */
export function clearWeeklyMeeting(doc: Y.Doc): boolean {
  if (!meetingsMap(doc).has(KEY.weekly)) return false;
  writeGroup(doc, () => meetingsMap(doc).delete(KEY.weekly));
  return true;
}

export function setMeetingTimeZone(doc: Y.Doc, timeZone: string): string {
  const zone = checkTimeZone(timeZone);
  writeGroup(doc, () => meetingsMap(doc).set(KEY.timeZone, zone));
  return zone;
}

/** A one-off meeting (or, on a weekly meeting's day, that day's meeting at another time). */
export function addMeetingDate(doc: Y.Doc, date: string, time: string, memberId: string, now: Date): void {
  const day = checkDay(date, 'meeting day');
  const hm = checkTimeOfDay(time);
  const by = checkMemberId(memberId);
  const at = checkNow(now);
  if (meetingSchedule(doc).timeZone === null) {
    throw invalidInput('The group has no time zone yet; set the meeting’s time zone before adding dates.');
  }
  writeGroup(doc, () => {
    meetingsMap(doc).set(joinKey(KEY.date, day), { time: hm, by, at });
    meetingsMap(doc).delete(joinKey(KEY.cancel, day));
  });
}

/** Removes a one-off meeting, or cancels the weekly meeting of that day (holidays). */
export function cancelMeeting(doc: Y.Doc, date: string, memberId: string, now: Date): void {
  const day = checkDay(date, 'meeting day');
  const stamp = { by: checkMemberId(memberId), at: checkNow(now) };
  const weekly = meetingSchedule(doc).weekly;
  writeGroup(doc, () => {
    meetingsMap(doc).delete(joinKey(KEY.date, day));
    if (weekly && isoWeekday(day) === weekly.weekday) meetingsMap(doc).set(joinKey(KEY.cancel, day), stamp);
  });
}

/** Brings back a cancelled weekly meeting. */
export function restoreMeeting(doc: Y.Doc, date: string): boolean {
  const key = joinKey(KEY.cancel, checkDay(date, 'meeting day'));
  if (!meetingsMap(doc).has(key)) return false;
  writeGroup(doc, () => meetingsMap(doc).delete(key));
  return true;
}

/** How long before each meeting voting on its pick closes, unless the week has a deadline of its own. */
export function setDeadlineLead(doc: Y.Doc, minutes: number): void {
  if (!Number.isInteger(minutes) || minutes < 1 || minutes > MAX_DEADLINE_LEAD_MINUTES) {
    throw invalidInput(
      `${String(minutes)} minutes is not a lead time; close voting 1 minute to ${MAX_DEADLINE_LEAD_MINUTES / 1440} days before the meeting.`,
    );
  }
  writeGroup(doc, () => meetingsMap(doc).set(KEY.lead, minutes));
}

export function setMeetingLength(doc: Y.Doc, minutes: number): void {
  if (!Number.isInteger(minutes) || minutes < 1 || minutes > MAX_MEETING_MINUTES) {
    throw invalidInput(
      `${String(minutes)} minutes is not a meeting length; give 1 to ${MAX_MEETING_MINUTES} minutes.`,
    );
  }
  writeGroup(doc, () => meetingsMap(doc).set(KEY.length, minutes));
}

/** Reorders the rotation: `order` names members; anyone left out keeps their place after them. */
export function setPresenterRotation(
  doc: Y.Doc,
  order: readonly string[],
  memberId: string,
  now: Date,
): string[] {
  const ids = order.map(checkMemberId);
  if (new Set(ids).size !== ids.length)
    throw invalidInput('The rotation names a member twice; name each once.');
  const by = checkMemberId(memberId);
  const at = checkNow(now);
  // Read before the new order is written: the meetings held so far keep the presenters they had.
  const held = unrecordedTurns(doc, now);
  writeGroup(doc, () => {
    for (const m of held)
      meetingsMap(doc).set(joinKey(PRESENTER_KEY.presented, m.date), recordedTurnValue(m, by, at));
    meetingsMap(doc).set(PRESENTER_KEY.rotation, { order: ids, by, at });
  });
  return presenterRotation(doc);
}

function unrecordedTurns(doc: Y.Doc, now: Date): Meeting[] {
  return meetingsBetween(doc, 0, now.getTime()).filter((m) => !m.presenterRecorded);
}

/**
 * Records who presented each meeting that has started by `now` and has no recorded presenter yet, so
 * later changes to the rotation or the members leave it as it was; each member's app calls it as
 * meetings pass. Returns how many it recorded (none: nothing written).
 */
export function recordPastPresenters(doc: Y.Doc, memberId: string, now: Date): number {
  const by = checkMemberId(memberId);
  const at = checkNow(now);
  const held = unrecordedTurns(doc, now);
  if (held.length === 0) return 0;
  writeGroup(doc, () => {
    for (const m of held)
      meetingsMap(doc).set(joinKey(PRESENTER_KEY.presented, m.date), recordedTurnValue(m, by, at));
  });
  return held.length;
}

/** Every meeting day from the first, in order, up to `untilDay` (inclusive). */
function meetingDays(
  schedule: MeetingSchedule,
  untilDay: string,
): { date: string; time: string; oneOff: boolean }[] {
  const byDay = new Map<string, { date: string; time: string; oneOff: boolean }>();
  const { weekly } = schedule;
  if (weekly) {
    const cancelled = new Set(schedule.cancelled);
    let day = addDays(weekly.from, (weekly.weekday - isoWeekday(weekly.from) + 7) % 7);
    for (let i = 0; i < MAX_MEETINGS && day <= untilDay; i++, day = addDays(day, 7)) {
      if (!cancelled.has(day)) byDay.set(day, { date: day, time: weekly.time, oneOff: false });
    }
  }
  for (const d of schedule.dates) if (d.date <= untilDay) byDay.set(d.date, { ...d, oneOff: true });
  return [...byDay.values()].sort((a, b) => byCodeUnits(a.date, b.date)).slice(0, MAX_MEETINGS);
}

/**
 * The meetings starting from `fromMs` to `toMs` (epoch ms), each with its presenter (see
 * meetings-presenters.ts: turns are counted from the group's first meeting).
 */
export function meetingsBetween(doc: Y.Doc, fromMs: number, toMs: number): Meeting[] {
  const schedule = meetingSchedule(doc);
  const zone = schedule.timeZone;
  if (zone === null) return [];
  const turnOf = presenterTurns(doc, zone);
  // A day either side: the zone's calendar day can differ from UTC's.
  const untilDay = addDays(wallTimeAt(toMs, zone).date, 1);
  const fromDay = addDays(wallTimeAt(fromMs, zone).date, -1);
  const meetings: Meeting[] = [];
  for (const [number, day] of meetingDays(schedule, untilDay).entries()) {
    const turn = turnOf(day);
    // Presenters count every meeting from the first; only those near the window need their instant.
    if (day.date < fromDay) continue;
    const startMs = instantOfWallTime(day.date, day.time, zone);
    if (startMs < fromMs || startMs > toMs) continue;
    meetings.push({
      date: day.date,
      time: day.time,
      timeZone: zone,
      start: new Date(startMs).toISOString(),
      end: new Date(startMs + schedule.lengthMinutes * 60_000).toISOString(),
      number,
      week: mondayOf(day.date),
      presenter: turn.presenter,
      skipped: turn.skipped,
      presenterRecorded: turn.recorded,
      oneOff: day.oneOff,
    });
  }
  return meetings;
}

const WEEK_MS = 7 * 86_400_000;

/** The first meeting that has not started at `now`, or null. */
export function nextMeeting(doc: Y.Doc, now: Date): Meeting | null {
  const ms = now.getTime();
  for (const horizon of [WEEK_MS * 5, WEEK_MS * 60]) {
    const next = meetingsBetween(doc, ms, ms + horizon)[0];
    if (next) return next;
  }
  return null;
}

/** The meeting at which the week's pick is presented: the first one held in that week. */
export function meetingOfWeek(doc: Y.Doc, week: string): Meeting | null {
  const w = checkWeek(week);
  const zone = meetingSchedule(doc).timeZone;
  if (zone === null) return null;
  // The week on the group's clock lies within these UTC bounds whatever the zone's offset.
  const fromMs = instantOfWallTime(w, '00:00', zone) - 86_400_000;
  const toMs = fromMs + WEEK_MS + 2 * 86_400_000;
  return meetingsBetween(doc, fromMs, toMs).find((m) => m.week === w) ?? null;
}

/** The deadline the meeting gives the week's pick, ISO; null when no meeting falls in that week. */
export function meetingDeadline(doc: Y.Doc, week: string): string | null {
  const meeting = meetingOfWeek(doc, week);
  if (!meeting) return null;
  const lead = meetingSchedule(doc).leadMinutes;
  return new Date(Date.parse(meeting.start) - lead * 60_000).toISOString();
}

/**
 * The latest change to a meeting as a calendar shows it, its time or its presenter (ISO), or null when
 * nothing says when: calendar apps update an event when this moves (the feed's SEQUENCE and LAST-MODIFIED).
 */
export function meetingChangedAt(doc: Y.Doc, meeting: Meeting): string | null {
  const map = meetingsMap(doc);
  const slot = meeting.oneOff ? map.get(joinKey(KEY.date, meeting.date)) : map.get(KEY.weekly);
  return latestInstant([readStamp(slot)?.at, presenterChangedAt(doc, meeting)]);
}
