import { createHash } from 'node:crypto';
import { addDays, easternToUtcMs, isWeekend, previousWeekday, utcMsToDay } from './calendar.ts';
import type { CorpusPaper } from './corpus.ts';

/**
 * Fields the corpus does not carry (v1 time, size, licence, submitter, replacements) but the wire formats
 * need. Each is derived from a hash of the id, so every response, server and run agrees on the same value.
 * None of them is real arXiv data; tests must not treat them as such.
 */

/** A stable pseudo-random integer in [0, 2^48) for a salt and an id. */
export function stableHash(salt: string, id: string): number {
  return createHash('sha256').update(`${salt}\u0000${id}`).digest().readUIntBE(0, 6);
}

/**
 * The submissions a listing day announces, as UTC instants [start, end). arXiv's cutoff is 14:00 Eastern
 * on weekdays: what arrives before the cutoff on weekday C is announced that evening and listed on the
 * next weekday, so a Tuesday listing covers Friday 14:00 to Monday 14:00 and a Monday listing covers
 * Thursday 14:00 to Friday 14:00. Holidays are ignored (the corpus window has none without a listing).
 */
export function submissionWindow(listingDay: string): { start: number; end: number } {
  const cutoffDay = previousWeekday(listingDay);
  const openDay = previousWeekday(cutoffDay);
  return { start: easternToUtcMs(openDay, 14), end: easternToUtcMs(cutoffDay, 14) };
}

/**
 * The v1 submission instant: a hash of the id picks a second inside the window that arXiv's schedule
 * maps to the paper's listing date, so a harvester that rebuilds listing dates from v1 times gets the
 * corpus date back. For the ~91 old ids cross-listed late this makes `created` disagree with the id's
 * YYMM; real arXiv would show the original submission there, which the corpus does not record.
 */
export function v1SubmittedMs(paper: Pick<CorpusPaper, 'id' | 'date'>): number {
  let window = windows.get(paper.date);
  if (!window) {
    window = submissionWindow(paper.date);
    windows.set(paper.date, window);
  }
  const seconds = Math.floor((window.end - window.start) / 1000);
  return window.start + (stableHash('v1', paper.id) % seconds) * 1000;
}

/** Listing days are few and every page asks for them thousands of times. */
const windows = new Map<string, { start: number; end: number }>();

/** The `created` day arXiv writes in OAI `arXiv` metadata: the UTC day of v1. */
export function createdDay(paper: Pick<CorpusPaper, 'id' | 'date'>): string {
  return utcMsToDay(v1SubmittedMs(paper));
}

export function sourceSizeKb(id: string): string {
  return `${40 + (stableHash('size', id) % 9000)}kb`;
}

const LICENCES: ReadonlyArray<readonly [number, string]> = [
  [50, 'http://arxiv.org/licenses/nonexclusive-distrib/1.0/'],
  [85, 'http://creativecommons.org/licenses/by/4.0/'],
  [92, 'http://creativecommons.org/licenses/by-nc-sa/4.0/'],
  [97, 'http://creativecommons.org/licenses/by-nc-nd/4.0/'],
  [100, 'http://creativecommons.org/licenses/by-sa/4.0/'],
];

/** A licence URL, in roughly the proportions seen on cs listings; the same value in OAI and RSS. */
export function licenceOf(id: string): string {
  const bucket = stableHash('licence', id) % 100;
  for (const [upTo, url] of LICENCES) if (bucket < upTo) return url;
  return LICENCES[0]?.[1] ?? '';
}

/** arXivRaw names the submitting user; the first author is the usual case. */
export function submitterOf(paper: Pick<CorpusPaper, 'authors'>): string {
  return paper.authors[0] ?? 'arXiv submitter';
}

const REPLACED_PERCENT = 50;
const REPLACE_MIN_DAYS = 7;
const REPLACE_MAX_DAYS = 20;

/**
 * The one day (if any) on which a paper's v2 is announced as a replacement: half the papers get a v2, on a
 * weekday 7–20 days after listing. Those spans hold 10 weekdays, so on any day about 5% of the papers
 * listed 7–20 days earlier show up as replacements, and a paper is never replaced twice (its guid stays v2).
 */
export function replacementDay(paper: Pick<CorpusPaper, 'id' | 'date'>): string | null {
  const hash = stableHash('replace', paper.id);
  if (hash % 100 >= REPLACED_PERCENT) return null;
  const weekdays: string[] = [];
  for (let offset = REPLACE_MIN_DAYS; offset <= REPLACE_MAX_DAYS; offset += 1) {
    const day = addDays(paper.date, offset);
    if (!isWeekend(day)) weekdays.push(day);
  }
  return weekdays[Math.floor(hash / 100) % weekdays.length] ?? null;
}

export { REPLACE_MAX_DAYS, REPLACE_MIN_DAYS };
