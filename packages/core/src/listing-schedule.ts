/**
 * arXiv's announcement schedule, used to estimate a paper's listing date from its v1 submission time when no
 * listing has told us. Submissions close at 14:00 US Eastern on weekdays; the window closing on day C is
 * announced at 20:00 that evening (Friday's on Sunday evening), and listing pages date it the next day.
 *
 * Holidays are ignored: arXiv publishes its holiday schedule only a few months ahead and rarely, so an
 * estimate is at most a day or two late around them, and a real listing date replaces it when one arrives.
 */
import { MS_PER_DAY, addDays, dayNumber, isYmd, parseInstant, weekdayOf, ymdOfDayNumber } from './dates.ts';

const MS_PER_HOUR = 3_600_000;
const CUTOFF_MS_OF_DAY = 14 * MS_PER_HOUR;
/**
 * A bare day has no time. 14 of a weekday's 24 hours fall before the cutoff, so "before the cutoff" is the
 * likelier guess; noon sits safely inside that part of the day under either UTC offset.
 */
const BARE_DAY_MS_OF_DAY = 12 * MS_PER_HOUR;

const SUNDAY = 0;
const FRIDAY = 5;
const SATURDAY = 6;

function nthSundayOf(year: number, month: number, n: number): number {
  const first = dayNumber(`${year}-${String(month).padStart(2, '0')}-01`);
  const firstSunday = first + ((7 - weekdayOf(ymdOfDayNumber(first))) % 7);
  return firstSunday + 7 * (n - 1);
}

function lastSundayOf(year: number, month: number): number {
  const nextFirst =
    month === 12
      ? dayNumber(`${year + 1}-01-01`)
      : dayNumber(`${year}-${String(month + 1).padStart(2, '0')}-01`);
  const last = nextFirst - 1;
  return last - weekdayOf(ymdOfDayNumber(last));
}

/**
 * Start and end (epoch ms, UTC) of US Eastern daylight time in a year. Both switches happen at 02:00 local
 * time: 07:00 UTC in spring (clocks leave EST), 06:00 UTC in autumn (clocks leave EDT). Since 2007 the
 * period runs from the second Sunday of March to the first Sunday of November; from 1987 to 2006 it ran from
 * the first Sunday of April to the last Sunday of October. arXiv began in 1991, so earlier rules never matter.
 */
function daylightPeriod(year: number): [number, number] {
  const [start, end] =
    year >= 2007
      ? [nthSundayOf(year, 3, 2), nthSundayOf(year, 11, 1)]
      : [nthSundayOf(year, 4, 1), lastSundayOf(year, 10)];
  return [start * MS_PER_DAY + 7 * MS_PER_HOUR, end * MS_PER_DAY + 6 * MS_PER_HOUR];
}

/** True when New York keeps daylight time (UTC−4) at this instant, false for standard time (UTC−5). */
export function isEasternDaylightTime(ms: number): boolean {
  const year = Number(ymdOfDayNumber(Math.floor(ms / MS_PER_DAY)).slice(0, 4));
  const [start, end] = daylightPeriod(year);
  return ms >= start && ms < end;
}

export interface EasternTime {
  /** The New York calendar day. */
  day: string;
  /** Milliseconds since New York midnight. */
  msOfDay: number;
}

export function toEasternTime(ms: number): EasternTime {
  const local = ms + (isEasternDaylightTime(ms) ? -4 : -5) * MS_PER_HOUR;
  const days = Math.floor(local / MS_PER_DAY);
  return { day: ymdOfDayNumber(days), msOfDay: local - days * MS_PER_DAY };
}

export function isWeekday(ymd: string): boolean {
  const weekday = weekdayOf(ymd);
  return weekday !== SATURDAY && weekday !== SUNDAY;
}

/** The weekday whose 14:00 ET cutoff closes the submission window holding this Eastern time. */
export function cutoffDayOf({ day, msOfDay }: EasternTime): string {
  let cutoff = isWeekday(day) && msOfDay < CUTOFF_MS_OF_DAY ? day : addDays(day, 1);
  while (!isWeekday(cutoff)) cutoff = addDays(cutoff, 1);
  return cutoff;
}

/** The listing date of the window closing on `cutoffDay`: the next day, or Monday for Friday's window. */
export function listingDateOfCutoff(cutoffDay: string): string {
  return addDays(cutoffDay, weekdayOf(cutoffDay) === FRIDAY ? 3 : 1);
}

/**
 * The listing date (YYYY-MM-DD) arXiv most likely gave a paper first submitted at `submittedV1`: an ISO 8601
 * or RFC 2822 timestamp, or a bare day (taken as noon Eastern on that day). Throws CoreError('invalid-date').
 */
export function estimateListingDate(submittedV1: string): string {
  const s = submittedV1.trim();
  const eastern: EasternTime = isYmd(s)
    ? { day: s, msOfDay: BARE_DAY_MS_OF_DAY }
    : toEasternTime(parseInstant(s));
  return listingDateOfCutoff(cutoffDayOf(eastern));
}
