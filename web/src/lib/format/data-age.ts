const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

function plural(n: number, unit: string): string {
  return `${n} ${unit}${n === 1 ? '' : 's'} ago`;
}

/**
 * How long ago data was saved, for "saved 3 hours ago": coarse on purpose, since a reader on a train wants
 * to know whether the copy is from this morning or last week, not the minute. A time in the future (the
 * clock was set back since) reads as "a moment ago" rather than as nonsense.
 */
export function formatAge(savedAt: number, now: number): string {
  const ms = Math.max(0, now - savedAt);
  if (ms < MINUTE) return 'a moment ago';
  if (ms < HOUR) return plural(Math.floor(ms / MINUTE), 'minute');
  if (ms < DAY) return plural(Math.floor(ms / HOUR), 'hour');
  const days = Math.floor(ms / DAY);
  if (days === 1) return 'yesterday';
  if (days < 30) return plural(days, 'day');
  if (days < 365) return plural(Math.floor(days / 30), 'month');
  return plural(Math.floor(days / 365), 'year');
}
