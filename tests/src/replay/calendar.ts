/**
 * Day arithmetic on YYYY-MM-DD strings and US Eastern time, which arXiv's schedule and RSS dates use.
 * Everything is computed from UTC milliseconds so the host's time zone never matters.
 */

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

export function isDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  return new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) === value;
}

export function dayToUtcMs(ymd: string): number {
  return Date.parse(`${ymd}T00:00:00Z`);
}

export function utcMsToDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export function addDays(ymd: string, days: number): string {
  return utcMsToDay(dayToUtcMs(ymd) + days * DAY_MS);
}

/** 0 = Sunday … 6 = Saturday. */
export function weekdayOf(ymd: string): number {
  return new Date(dayToUtcMs(ymd)).getUTCDay();
}

export function isWeekend(ymd: string): boolean {
  const day = weekdayOf(ymd);
  return day === 0 || day === 6;
}

/** The closest Monday–Friday strictly before `ymd`. */
export function previousWeekday(ymd: string): string {
  let day = addDays(ymd, -1);
  while (isWeekend(day)) day = addDays(day, -1);
  return day;
}

/** UTC instant at which US daylight time starts (2nd Sunday of March, 02:00 EST) or ends (1st Sunday of November, 02:00 EDT). */
function dstBoundsUtc(year: number): { start: number; end: number } {
  const nthSunday = (month: number, n: number): number => {
    const first = new Date(Date.UTC(year, month, 1)).getUTCDay();
    return 1 + ((7 - first) % 7) + (n - 1) * 7;
  };
  return {
    start: Date.UTC(year, 2, nthSunday(2, 2), 7),
    end: Date.UTC(year, 10, nthSunday(10, 1), 6),
  };
}

/** -4 during EDT, -5 during EST (the post-2007 US rules, which cover every date the corpus touches). */
export function easternOffsetHours(utcMs: number): number {
  const { start, end } = dstBoundsUtc(new Date(utcMs).getUTCFullYear());
  return utcMs >= start && utcMs < end ? -4 : -5;
}

/** The UTC instant of a wall-clock time in New York; only unambiguous times (not 01:00–03:00 on switch days) are asked for. */
export function easternToUtcMs(ymd: string, hour: number, minute = 0): number {
  const wall = dayToUtcMs(ymd) + hour * HOUR_MS + minute * 60_000;
  const standard = wall + 5 * HOUR_MS;
  return easternOffsetHours(standard) === -4 ? wall + 4 * HOUR_MS : standard;
}

const pad2 = (n: number): string => String(n).padStart(2, '0');

function clock(date: Date): string {
  return `${pad2(date.getUTCHours())}:${pad2(date.getUTCMinutes())}:${pad2(date.getUTCSeconds())}`;
}

/** arXivRaw's version date: "Thu, 12 Mar 2026 17:59:01 GMT" (day of month not padded). */
export function formatArxivRawDate(utcMs: number): string {
  const d = new Date(utcMs);
  const weekday = WEEKDAYS[d.getUTCDay()] ?? '';
  const month = MONTHS[d.getUTCMonth()] ?? '';
  return `${weekday}, ${d.getUTCDate()} ${month} ${d.getUTCFullYear()} ${clock(d)} GMT`;
}

/** RSS dates are midnight Eastern of the listing day: "Mon, 16 Mar 2026 00:00:00 -0400". */
export function formatRssMidnight(ymd: string): string {
  const offset = easternOffsetHours(easternToUtcMs(ymd, 0));
  const d = new Date(dayToUtcMs(ymd));
  const weekday = WEEKDAYS[d.getUTCDay()] ?? '';
  const month = MONTHS[d.getUTCMonth()] ?? '';
  const zone = `-${pad2(-offset)}00`;
  return `${weekday}, ${pad2(d.getUTCDate())} ${month} ${d.getUTCFullYear()} 00:00:00 ${zone}`;
}

/** ISO 8601 to the second, as OAI responseDate and Atom dates are written. */
export function isoSeconds(utcMs: number): string {
  return new Date(utcMs).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
