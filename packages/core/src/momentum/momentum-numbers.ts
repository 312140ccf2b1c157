/**
 * The few numeric conventions that momentum's numbers and its sentence must share, so that the object and the
 * sentence never disagree (e.g. "changePct": 139 and "up 139%").
 */

/** Half away from zero: a fall of 12.5% is "down 13%", the mirror of a rise of 12.5%. */
export function roundHalfAway(x: number): number {
  return Math.sign(x) * Math.round(Math.abs(x));
}

/** Percentage change from `before` to `after`, rounded to an integer; null when there was nothing before. */
export function percentChange(after: number, before: number): number | null {
  if (before === 0) return null;
  return roundHalfAway((100 * (after - before)) / before);
}

/** 100 · part / whole, unrounded; 0 when the whole is 0. */
export function sharePercent(part: number, whole: number): number {
  return whole === 0 ? 0 : (100 * part) / whole;
}

/**
 * "1,234,567". Written by hand rather than with `toLocaleString`, whose output follows the reader's locale and
 * would make the server and the browser word the same numbers differently.
 */
export function groupThousands(n: number): string {
  const [whole = '', fraction] = String(n).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return fraction === undefined ? grouped : `${grouped}.${fraction}`;
}
