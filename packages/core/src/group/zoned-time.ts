/**
 * Wall-clock times in a named time zone, through Intl alone (every browser and Node has the IANA zones):
 * a meeting is "Thursdays at 18:00 Europe/Berlin", so its instant moves with the zone's DST changes.
 */
import { isYmd, MS_PER_DAY } from '../dates.ts';
import { invalidInput } from './input-checks.ts';

const HM = /^([01]\d|2[0-3]):([0-5]\d)$/;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The IANA name as Intl spells it ("europe/berlin" → "Europe/Berlin"); refuses a zone Intl does not know. */
export function checkTimeZone(timeZone: string): string {
  try {
    if (typeof timeZone !== 'string' || timeZone.trim() === '') throw new RangeError('empty');
    return formatter(timeZone.trim()).resolvedOptions().timeZone;
  } catch {
    throw invalidInput(
      `${JSON.stringify(timeZone)} is not a time zone this browser knows; give an IANA name such as "Europe/Berlin" or "America/New_York".`,
    );
  }
}

/** A time of day "HH:MM" (24-hour). */
export function checkTimeOfDay(time: string): string {
  if (typeof time !== 'string' || !HM.test(time)) {
    throw invalidInput(`${JSON.stringify(time)} is not a time of day; write it as HH:MM, such as "18:00".`);
  }
  return time;
}

export function checkDay(ymd: string, what: string): string {
  if (typeof ymd !== 'string' || !isYmd(ymd)) {
    throw invalidInput(`The ${what} ${JSON.stringify(ymd)} is not a date; write it as YYYY-MM-DD.`);
  }
  return ymd;
}

export function isTimeOfDay(value: unknown): value is string {
  return typeof value === 'string' && HM.test(value);
}

export interface WallTime {
  /** YYYY-MM-DD */
  date: string;
  /** HH:MM */
  time: string;
}

function wallParts(ms: number, timeZone: string): Record<string, number> {
  const parts: Record<string, number> = {};
  for (const p of formatter(timeZone).formatToParts(new Date(ms))) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  return parts;
}

/** How far the zone's wall clock is ahead of UTC at the instant `ms`. */
function offsetAt(ms: number, timeZone: string): number {
  const p = wallParts(ms, timeZone);
  const wall = Date.UTC(
    p.year ?? 1970,
    (p.month ?? 1) - 1,
    p.day ?? 1,
    p.hour ?? 0,
    p.minute ?? 0,
    p.second ?? 0,
  );
  return wall - Math.floor(ms / 1000) * 1000;
}

const pad = (n: number | undefined): string => String(n ?? 0).padStart(2, '0');

/** The date and time the zone's clocks show at the instant `ms`. */
export function wallTimeAt(ms: number, timeZone: string): WallTime {
  const p = wallParts(ms, timeZone);
  return { date: `${String(p.year)}-${pad(p.month)}-${pad(p.day)}`, time: `${pad(p.hour)}:${pad(p.minute)}` };
}

/**
 * The instant at which the zone's clocks show `date` `time`. Around a DST change a wall time can happen
 * twice (autumn: the first is taken) or never (spring: the clocks skip it; the time is read with the offset
 * before the change, which lands just after the gap, as calendar apps do).
 */
export function instantOfWallTime(date: string, time: string, timeZone: string): number {
  const [y, m, d] = date.split('-').map(Number);
  const [hh, mm] = time.split(':').map(Number);
  const asUtc = Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1, hh ?? 0, mm ?? 0);
  // At most one change falls within a day of any wall time, so the offsets a day either side are the
  // only two it can have.
  const before = offsetAt(asUtc - MS_PER_DAY, timeZone);
  const after = offsetAt(asUtc + MS_PER_DAY, timeZone);
  const fits = [asUtc - before, asUtc - after].filter((ms) => asUtc - offsetAt(ms, timeZone) === ms);
  return fits.length > 0 ? Math.min(...fits) : asUtc - before;
}
