/**
 * What a search looks for in the index, independent of the engine: SQLite renders it as an FTS5
 * expression (fts5-match.ts), PostgreSQL as a tsquery (pg/pg-tsquery.ts). Terms are core's index terms
 * (`columnTerms`): runs of letters and digits, already folded.
 */

export type SearchColumn = 'title' | 'authors' | 'abstract';

export type Match =
  /** A term, or with `prefix` any term starting with it. */
  | { kind: 'word'; term: string; prefix: boolean }
  /** Terms next to each other, in this order, within one column. */
  | { kind: 'phrase'; terms: readonly string[] }
  | { kind: 'all'; of: readonly Match[] }
  | { kind: 'any'; of: readonly Match[] }
  /** `of` matched within these columns only. */
  | { kind: 'columns'; columns: readonly SearchColumn[]; of: Match }
  /** Papers `of` matches that `not` does not. */
  | { kind: 'without'; of: Match; not: Match };

export const word = (term: string, prefix = false): Match => ({ kind: 'word', term, prefix });
export const phrase = (terms: readonly string[]): Match => ({ kind: 'phrase', terms });
export const allOf = (of: readonly Match[]): Match =>
  of.length === 1 && of[0] ? of[0] : { kind: 'all', of };
export const anyOf = (of: readonly Match[]): Match =>
  of.length === 1 && of[0] ? of[0] : { kind: 'any', of };
export const inColumns = (columns: readonly SearchColumn[], of: Match): Match => ({
  kind: 'columns',
  columns,
  of,
});
export const without = (of: Match, not: Match): Match => ({ kind: 'without', of, not });

/**
 * The smallest string greater than every string starting with `prefix` (for a range scan of terms), in
 * the engines' order: SQLite and PostgreSQL's "C" collation compare UTF-8 bytes, which is code point
 * order. So the last code point is stepped, not the last UTF-16 unit: stepping a low surrogate gave a
 * lone surrogate, which the engines read as U+FFFD, below the prefix (an empty range).
 */
export function prefixEnd(prefix: string): string {
  const points = [...prefix];
  for (let i = points.length - 1; i >= 0; i--) {
    let next = (points[i]?.codePointAt(0) ?? 0) + 1;
    if (next >= 0xd800 && next <= 0xdfff) next = 0xe000;
    if (next <= 0x10ffff) return points.slice(0, i).join('') + String.fromCodePoint(next);
  }
  // Only U+10FFFF: nothing is above its run, so the range ends past the longest term a column holds.
  return prefix + '\u{10FFFF}'.repeat(64);
}
