/**
 * Calendar days as the API gives them (YYYY-MM-DD), formatted without going through `Date`, so no time
 * zone can move a listing day to the day before.
 */
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function parts(ymd: string): [number, number, number] | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(ymd);
  if (!m) return null;
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

/** "2026-03-16" → "Mar 16". */
export function shortDay(ymd: string): string {
  const p = parts(ymd);
  return p ? `${MONTHS[p[1] - 1] ?? '?'} ${p[2]}` : ymd;
}

/** "2026-03-16" → "Mar 16, 2026". */
export function longDay(ymd: string): string {
  const p = parts(ymd);
  return p ? `${shortDay(ymd)}, ${p[0]}` : ymd;
}

/** "2026-03-16" → "Week of Mar 16", the reference site's chart label. */
export function weekLabel(weekStart: string): string {
  return `Week of ${shortDay(weekStart)}`;
}

export function count(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}
