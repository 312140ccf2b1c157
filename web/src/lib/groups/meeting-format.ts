/** How the group's meeting reads on screen: its day and time on the group's clock, and lead times. */
import type { Meeting } from '@quire/core/group';

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/** 1 = Monday … 7 = Sunday. */
export function weekdayName(isoWeekday: number): string {
  return WEEKDAYS[isoWeekday - 1] ?? `day ${isoWeekday}`;
}

/** "Thu 19 Mar, 18:00 (Europe/Berlin)": the meeting as its members agreed it, whatever the reader's zone. */
export function meetingWhen(meeting: Pick<Meeting, 'start' | 'timeZone'>): string {
  const date = new Date(meeting.start);
  const text = date.toLocaleString('en-GB', {
    timeZone: meeting.timeZone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
  });
  return `${text} (${meeting.timeZone})`;
}

/** "24 hours", "90 minutes", "2 days". */
export function leadText(minutes: number): string {
  if (minutes % 1440 === 0) return plural(minutes / 1440, 'day');
  if (minutes % 60 === 0) return plural(minutes / 60, 'hour');
  return plural(minutes, 'minute');
}

function plural(n: number, unit: string): string {
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}

/** The reader's own time zone, the default for a new meeting. */
export function localTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** The instant `ms` as a Date (kept out of the rune modules, whose lint wants reactive dates). */
export function dateAt(ms: number): Date {
  return new Date(ms);
}
