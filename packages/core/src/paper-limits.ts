/**
 * The most of each field a stored paper keeps. A source can send anything (a dump line with a 200 MB abstract,
 * an author list of millions); past these the field is cut and marked with "…", so one hostile record cannot
 * swell the database, the search index or every page that shows it. Each is several times what real arXiv
 * records hold (abstracts are capped by arXiv at 1,920 characters; the longest author lists run to about
 * 5,000 names).
 */
export const PAPER_LIMITS = {
  titleChars: 1_000,
  abstractChars: 20_000,
  /** Comment, journal reference, DOI, license and version sizes. */
  otherTextChars: 4_000,
  authors: 10_000,
  authorNameChars: 300,
  affiliationsPerAuthor: 20,
  affiliationChars: 500,
  /** An author list given as one string is cut to this before it is split into names. */
  authorLineChars: 2_000_000,
} as const;

const ELLIPSIS = '…';

/** The first `n` UTF-16 units of `s`, or one fewer so a surrogate pair is never split. */
export function cutAt(s: string, n: number): string {
  if (s.length <= n) return s;
  const code = s.charCodeAt(n - 1);
  return s.slice(0, code >= 0xd800 && code <= 0xdbff ? n - 1 : n);
}

/**
 * `normalise(s)` at most `max` characters long, ending in "…" when anything was cut. A huge field is cut
 * before it is normalised, since normalising is what costs; whitespace collapsing shrinks text, hence the
 * margin.
 */
export function capText(s: string, max: number, normalise: (s: string) => string): string {
  const huge = s.length > max * 4;
  const text = normalise(huge ? cutAt(s, max * 4) : s);
  if (text.length <= max && !huge) return text;
  return cutAt(text, max - ELLIPSIS.length).trimEnd() + ELLIPSIS;
}
