/**
 * Calendar days ("YYYY-MM-DD") and instants (epoch milliseconds), computed by hand so that core needs no
 * time-zone database and gives the same answer in Node and in every browser. `Date.parse` is avoided on
 * purpose: how it reads RFC 2822 and zone-less strings differs between engines.
 */
import { CoreError } from './errors.ts';

export const MS_PER_DAY = 86_400_000;
const MS_PER_MINUTE = 60_000;

const YMD = /^(\d{4})-(\d{2})-(\d{2})$/;
const ISO_INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;
// The time may be left out ("2 Apr 2007"); such a date names a day, not an instant.
const RFC2822_DATE =
  /^(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun),?\s+)?(\d{1,2})\s+([A-Za-z]{3,9})\s+(\d{4})(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([A-Z]{1,3}|[+-]\d{4})?)?$/i;

const MONTHS = 'january february march april may june july august september october november december'.split(
  ' ',
);

/** Offsets in minutes of the zone names RFC 2822 allows; arXivRaw writes GMT. */
const RFC2822_ZONES: Record<string, number> = {
  gmt: 0,
  ut: 0,
  utc: 0,
  z: 0,
  est: -300,
  edt: -240,
  cst: -360,
  cdt: -300,
  mst: -420,
  mdt: -360,
  pst: -480,
  pdt: -420,
};

export interface CivilDate {
  year: number;
  month: number;
  day: number;
}

function invalidDate(input: string): CoreError {
  return new CoreError(
    'invalid-date',
    `${JSON.stringify(input)} is not a date Quire understands; give a day such as "2026-03-12", an ISO 8601 ` +
      `timestamp such as "2026-03-12T18:03:00Z" or an RFC 2822 date such as "Thu, 12 Mar 2026 18:03:00 GMT".`,
  );
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function isValidCivil(year: number, month: number, day: number): boolean {
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

// Days since 1970-01-01 in the proleptic Gregorian calendar (H. Hinnant's days-from-civil method).
function daysFromCivil({ year, month, day }: CivilDate): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

function civilFromDays(days: number): CivilDate {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shifted = Math.floor((5 * dayOfYear + 2) / 153); // months counted from March
  const day = dayOfYear - Math.floor((153 * shifted + 2) / 5) + 1;
  const month = shifted < 10 ? shifted + 3 : shifted - 9;
  return { year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

/** True for a real calendar day written "YYYY-MM-DD" ("2026-02-30" is false). */
export function isYmd(s: string): boolean {
  const m = YMD.exec(s);
  return m !== null && isValidCivil(Number(m[1]), Number(m[2]), Number(m[3]));
}

export function parseYmd(ymd: string): CivilDate {
  const m = YMD.exec(ymd);
  const civil = m && { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) };
  if (!civil || !isValidCivil(civil.year, civil.month, civil.day)) throw invalidDate(ymd);
  return civil;
}

export function formatYmd({ year, month, day }: CivilDate): string {
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
}

/** Days since 1970-01-01; the inverse of `ymdOfDayNumber`. */
export function dayNumber(ymd: string): number {
  return daysFromCivil(parseYmd(ymd));
}

// Momentum turns the same few hundred day numbers into strings for every topic of the list (50,000 calls
// for one GET /api/topics); remembered, each is worked out once. Bounded so no caller can grow it for ever.
const YMD_OF_DAY = new Map<number, string>();
const YMD_OF_DAY_KEPT = 8192;

export function ymdOfDayNumber(days: number): string {
  let ymd = YMD_OF_DAY.get(days);
  if (ymd === undefined) {
    ymd = formatYmd(civilFromDays(days));
    if (YMD_OF_DAY.size >= YMD_OF_DAY_KEPT) YMD_OF_DAY.clear();
    YMD_OF_DAY.set(days, ymd);
  }
  return ymd;
}

export function addDays(ymd: string, n: number): string {
  return ymdOfDayNumber(dayNumber(ymd) + n);
}

/** Whole days from `from` to `to`; negative when `to` is earlier. */
export function daysBetween(from: string, to: string): number {
  return dayNumber(to) - dayNumber(from);
}

/** 0 = Sunday … 6 = Saturday, as `Date.prototype.getDay`. */
export function weekdayOf(ymd: string): number {
  // 1970-01-01 was a Thursday (4).
  return (((dayNumber(ymd) + 4) % 7) + 7) % 7;
}

/** The Monday starting the week that holds `ymd` (weeks run Monday to Sunday). */
export function mondayOf(ymd: string): string {
  return addDays(ymd, -((weekdayOf(ymd) + 6) % 7));
}

/** The UTC calendar day of an instant. */
export function ymdOfInstant(ms: number): string {
  return ymdOfDayNumber(Math.floor(ms / MS_PER_DAY));
}

/** A date as written: its calendar day, its wall-clock time and the offset it was written in. */
interface WrittenDate {
  civil: CivilDate;
  /** Milliseconds since the local midnight; null when only a day was written. */
  msOfDay: number | null;
  /** Minutes east of UTC. */
  offset: number;
}

function offsetMinutes(zone: string): number | null {
  if (/^[+-]\d{2}:?\d{2}$/.test(zone)) {
    const digits = zone.replace(':', '');
    const hours = Number(digits.slice(1, 3));
    const minutes = Number(digits.slice(3, 5));
    if (hours > 23 || minutes > 59) return null;
    return (zone.startsWith('-') ? -1 : 1) * (hours * 60 + minutes);
  }
  return RFC2822_ZONES[zone.toLowerCase()] ?? null;
}

/** "Apr" or "April" → 4; 0 for anything else. */
function monthNumber(name: string): number {
  const lower = name.toLowerCase();
  return MONTHS.findIndex((month) => month === lower || month.slice(0, 3) === lower) + 1;
}

/** Null unless every part names something real: the day, the time of day and the zone. */
function writtenDate(
  civil: CivilDate,
  clock: readonly [string | undefined, string | undefined, string | undefined] | null,
  fraction: number,
  zone: string | undefined,
): WrittenDate | null {
  const offset = zone === undefined ? 0 : offsetMinutes(zone);
  if (offset === null || !isValidCivil(civil.year, civil.month, civil.day)) return null;
  if (clock === null) return { civil, msOfDay: null, offset };
  const [hour, minute, second] = [Number(clock[0]), Number(clock[1]), Number(clock[2] ?? 0)];
  if (hour > 23 || minute > 59 || second > 59) return null;
  return { civil, msOfDay: ((hour * 60 + minute) * 60 + second) * 1000 + fraction, offset };
}

function readIso(s: string): WrittenDate | null {
  const m = ISO_INSTANT.exec(s);
  if (!m) return null;
  const civil = { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) };
  const fraction = m[7] ? Math.floor(Number(`0.${m[7]}`) * 1000) : 0;
  return writtenDate(civil, [m[4], m[5], m[6]], fraction, m[8]);
}

/**
 * RFC 2822 (and RFC 822 / 1123) dates as arXiv writes them: "Mon, 2 Apr 2007 19:18:42 GMT" (arXivRaw, the
 * Kaggle snapshot), "Mon, 16 Mar 2026 00:00:00 -0400" (RSS). Full month names and a missing time are accepted.
 */
function readRfc2822(s: string): WrittenDate | null {
  const m = RFC2822_DATE.exec(s);
  if (!m) return null;
  const civil = { year: Number(m[3]), month: monthNumber(m[2] ?? ''), day: Number(m[1]) };
  return writtenDate(civil, m[4] === undefined ? null : [m[4], m[5], m[6]], 0, m[7]);
}

function instantOfWritten({ civil, msOfDay, offset }: WrittenDate): number {
  return daysFromCivil(civil) * MS_PER_DAY + (msOfDay ?? 0) - offset * MS_PER_MINUTE;
}

/**
 * Reads an ISO 8601 timestamp ("2026-03-12T18:03:00Z", "…+01:00") or an RFC 2822 date as arXivRaw writes it
 * ("Mon, 2 Apr 2007 19:18:42 GMT") into epoch milliseconds. A timestamp without a zone is read as UTC,
 * because every arXiv interface that gives times gives them in UTC/GMT. A day without a time is not an instant
 * and is refused, in either form.
 */
export function parseInstant(input: string): number {
  const s = input.trim();
  const date = readIso(s) ?? readRfc2822(s);
  if (date === null || date.msOfDay === null) throw invalidDate(input);
  return instantOfWritten(date);
}

/**
 * The calendar day an RFC 2822 date is written in, read in the date's own offset rather than converted to UTC:
 * "Mon, 16 Mar 2026 22:30:00 -0400" is 2026-03-16, though it is already the 17th in UTC. arXiv's listing feeds
 * name the listing day this way. Throws CoreError('invalid-date').
 */
export function rfc2822Day(input: string): string {
  const date = readRfc2822(input.trim());
  if (date === null) throw invalidDate(input);
  return formatYmd(date.civil);
}

/** "2026-03-12T18:03:00Z": seconds precision, as the sources give it; milliseconds only when non-zero. */
export function formatInstant(ms: number): string {
  const days = Math.floor(ms / MS_PER_DAY);
  const msOfDay = ms - days * MS_PER_DAY;
  const seconds = Math.floor(msOfDay / 1000);
  const millis = msOfDay % 1000;
  const time = `${pad(Math.floor(seconds / 3600), 2)}:${pad(Math.floor(seconds / 60) % 60, 2)}:${pad(seconds % 60, 2)}`;
  return `${ymdOfDayNumber(days)}T${time}${millis ? `.${pad(millis, 3)}` : ''}Z`;
}

/**
 * A source's submission date in the one form the store keeps: a bare day ("2026-03-12", or an RFC 2822 date
 * without a time) stays a day (inventing a time would claim precision nobody had), anything else becomes a
 * UTC timestamp. Throws CoreError('invalid-date').
 */
export function canonicalTimestamp(input: string): string {
  const s = input.trim();
  if (YMD.test(s)) return formatYmd(parseYmd(s));
  const date = readIso(s) ?? readRfc2822(s);
  if (date === null) throw invalidDate(input);
  return date.msOfDay === null ? formatYmd(date.civil) : formatInstant(instantOfWritten(date));
}

/** Epoch milliseconds of a day (its UTC midnight) or a timestamp; for ordering mixed values. */
export function instantOfDayOrTimestamp(input: string): number {
  const s = input.trim();
  return YMD.test(s) ? dayNumber(s) * MS_PER_DAY : parseInstant(s);
}
