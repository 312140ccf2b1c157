/**
 * RFC 822 / RFC 1123 dates as arXiv writes them: "Mon, 2 Apr 2007 19:18:42 GMT" (arXivRaw versions,
 * the Kaggle snapshot) and "Mon, 16 Mar 2026 00:00:00 -0400" (RSS). A hand-written match is used
 * instead of Date.parse, whose acceptance of these forms is implementation-defined, and because the
 * listing day must be read in the date's own offset, which Date would convert away.
 */

const MONTHS: Readonly<Record<string, string>> = {
  jan: '01',
  feb: '02',
  mar: '03',
  apr: '04',
  may: '05',
  jun: '06',
  jul: '07',
  aug: '08',
  sep: '09',
  oct: '10',
  nov: '11',
  dec: '12',
};

const RFC822 =
  /^(?:[a-z]{3},?\s+)?(\d{1,2})\s+([a-z]{3})[a-z]*\s+(\d{4})(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s*(gmt|ut|utc|z|[+-]\d{4}))?)?$/i;

interface Rfc822Parts {
  day: string;
  hh: string;
  mm: string;
  ss: string;
  /** Offset east of UTC in minutes. */
  offset: number;
}

function parts(value: string): Rfc822Parts | null {
  const m = RFC822.exec(value.trim());
  if (!m) return null;
  const month = MONTHS[(m[2] ?? '').toLowerCase()];
  if (!month || !m[1] || !m[3]) return null;
  const zone = m[7] ?? 'GMT';
  let offset = 0;
  if (zone[0] === '+' || zone[0] === '-') {
    const minutes = Number(zone.slice(1, 3)) * 60 + Number(zone.slice(3, 5));
    offset = zone[0] === '-' ? -minutes : minutes;
  }
  return {
    day: `${m[3]}-${month}-${m[1].padStart(2, '0')}`,
    hh: (m[4] ?? '00').padStart(2, '0'),
    mm: m[5] ?? '00',
    ss: m[6] ?? '00',
    offset,
  };
}

/** The calendar day (YYYY-MM-DD) as written, in the date's own offset; null if unreadable. */
export function rfc822Day(value: string): string | null {
  return parts(value)?.day ?? null;
}

/** The instant as an ISO 8601 UTC timestamp ("2007-04-02T19:18:42Z"); null if unreadable. */
export function rfc822ToIso(value: string): string | null {
  const p = parts(value);
  if (!p) return null;
  const local = `${p.day}T${p.hh}:${p.mm}:${p.ss}`;
  if (p.offset === 0) return `${local}Z`;
  const ms = Date.parse(`${local}Z`) - p.offset * 60_000;
  return Number.isNaN(ms) ? null : new Date(ms).toISOString().replace('.000Z', 'Z');
}
