import { prefixEnd } from './search-match.ts';
import { readVarints } from './sqlite-varints.ts';

/**
 * Looking a long list of spellings up in FTS5's vocabulary (typo candidates: about 55 per letter of the
 * word). Each term looked up on its own costs a seek in every segment of the index, found or not (at
 * 10x, 19 segments, 18 µs a term: 13-16 ms for a 12-14 letter word's 650-750 spellings; at 100x about
 * 85 µs). Spellings that share a prefix are read instead by one range scan of the vocabulary from that
 * prefix, which costs a seek per segment once and then the terms that are indexed in the range, few
 * for a long enough prefix; the found ones are kept if they were asked for. The answer is the same.
 */

export interface TermDocs {
  term: string;
  docs: number;
}

/** Fewer terms than this are looked up one by one: a range scan would not pay for itself. */
export const RANGE_FROM = 64;
/** The shortest prefix read as a range: a shorter one spans too much of the vocabulary. */
export const MIN_RANGE_PREFIX = 4;
/**
 * The share of the terms a prefix must start at least to be read as a range: for a word's spellings, a
 * prefix of about the word's first third (every spelling edited after it starts with it). Measured at 10x
 * over 14 misspelt words: 0.4 saved 20%, 0.6 29%, 0.7 10% of the point lookups' CPU.
 */
export const RANGE_SHARE = 0.6;
/**
 * Indexed terms read from one range at most. A range holding more stops there, and the asked-for terms
 * past the last one read are looked up one by one, so a common prefix never reads a large share of the
 * vocabulary (each term read counts its papers).
 */
export const RANGE_TERMS = 200;

/**
 * Segments an index may hold for every term to be looked up one by one: one seek each, as after a bulk
 * import's merge (at 10x, a 12-14 letter word's one-edit spellings: 1.5 ms of CPU one by one, 3-14 ms
 * through the ranges, whose terms are each counted by a walk of their lists).
 */
export const POINT_READS_UP_TO = 1;

const ASCII = /^[ -~]+$/;

/** How the vocabulary is read: asked terms one by one, or indexed terms in [from, to) up to `limit`. */
export interface VocabularyReads {
  terms(terms: readonly string[]): TermDocs[];
  range(from: string, to: string, limit: number): TermDocs[];
}

/**
 * Papers holding each of `terms` that is indexed (the others left out), reading shared prefixes as ranges
 * unless `segments` (the index's, see `segmentsIn`) is at most POINT_READS_UP_TO: then a term costs one
 * seek, and a range costs more than the seeks it saves (each term read in it has its papers counted).
 */
export function lookUpTerms(
  terms: readonly string[],
  read: VocabularyReads,
  segments = Infinity,
): TermDocs[] {
  const prefix = terms.length < RANGE_FROM || segments <= POINT_READS_UP_TO ? null : sharedPrefix(terms);
  // Only a printable-ASCII prefix is read as a range: a prefix cut in UTF-16 units can split a surrogate pair
  // (SQLite then reads an empty range), and JavaScript's string order differs from SQLite's byte order
  // beyond the Basic Multilingual Plane, so `t > through` below would misjudge what the range covered.
  if (prefix === null || !ASCII.test(prefix)) return read.terms(terms);
  const asked = new Set(terms);
  const inRange = read.range(prefix, prefixEnd(prefix), RANGE_TERMS + 1);
  const covered = inRange.slice(0, RANGE_TERMS);
  // A full range stops at its last term read: asked terms after it are read one by one.
  const through = inRange.length > RANGE_TERMS ? (covered.at(-1)?.term ?? prefix) : null;
  const rest = terms.filter((t) => !t.startsWith(prefix) || (through !== null && t > through));
  return [...covered.filter((t) => asked.has(t.term)), ...(rest.length === 0 ? [] : read.terms(rest))];
}

/**
 * The longest prefix (at least MIN_RANGE_PREFIX characters) that at least RANGE_SHARE of `terms` start
 * with, or null. For a word's one-edit spellings, every spelling edited after the prefix starts with it.
 */
export function sharedPrefix(terms: readonly string[]): string | null {
  let best: string | null = null;
  for (let length = MIN_RANGE_PREFIX; ; length++) {
    const counts = new Map<string, number>();
    for (const t of terms) {
      if (t.length < length) continue;
      const p = t.slice(0, length);
      counts.set(p, (counts.get(p) ?? 0) + 1);
    }
    let top: string | null = null;
    let most = 0;
    for (const [p, n] of counts) {
      if (n > most) [top, most] = [p, n];
    }
    if (top === null || most < RANGE_SHARE * terms.length) return best;
    best = top;
  }
}

/** FTS5's structure record starts with this after its 4-byte cookie when it is in its second form. */
const STRUCTURE_V2 = [0xff, 0x00, 0x00, 0x01] as const;

/**
 * How many segments an FTS5 index holds, from its structure record (the `_data` row 10, part of FTS5's file
 * format): a 4-byte cookie, the second form's 4-byte marker, then the levels and the segments as SQLite
 * varints. A record too short to say is read as many segments.
 */
export function segmentsIn(structure: Uint8Array | undefined): number {
  if (structure === undefined || structure.length < 6) return Infinity;
  const at = STRUCTURE_V2.every((b, i) => structure[4 + i] === b) ? 8 : 4;
  const [, segments] = readVarints(structure.subarray(at), 2);
  return segments ?? Infinity;
}
