/**
 * A topic's momentum as of a day: the last four weeks against the four before, its share of everything new,
 * and a weekly series. Pure, over precomputed daily counts, so server (SQL) and browser (cache) agree.
 * The as-of day is always given: the corpus ends in May 2026, so "today" would leave every window empty.
 */
import { CoreError } from '../errors.ts';
import { dayNumber, isYmd, mondayOf, ymdOfDayNumber } from '../dates.ts';
import type { ChangeWithheld, DailyCounts, Momentum, MomentumInput, WeekCount } from './momentum-types.ts';
import { percentChange, sharePercent } from './momentum-numbers.ts';
import { momentumSentence } from './momentum-sentence.ts';

/** Four weeks, so that each window holds every weekday equally often and arXiv's weekly rhythm cancels out. */
export const WINDOW_DAYS = 28;
export const DEFAULT_WEEKS = 12;
/** Ten years of weeks: far more than a chart shows, small enough that a mistyped `weeks` cannot hang a page. */
export const MAX_WEEKS = 520;

function invalidInput(message: string): CoreError {
  return new CoreError('invalid-input', message);
}

/** Throws unless `n` is a whole number of papers. */
export function checkCount(what: string, n: number): void {
  if (!Number.isSafeInteger(n) || n < 0) {
    throw invalidInput(`${what} is ${String(n)}; counts of papers are whole numbers, 0 or more.`);
  }
}

function checkDay(what: string, day: string): void {
  if (typeof day !== 'string' || !isYmd(day)) {
    throw new CoreError(
      'invalid-date',
      `The ${what} ${JSON.stringify(day)} is not a calendar day; give it as YYYY-MM-DD, e.g. "2026-05-08".`,
    );
  }
}

function checkAsOf(asOf: string): void {
  checkDay('as-of day', asOf);
}

function checkFirstListingDay(day: string | null): void {
  if (day !== null) checkDay('first listing day', day);
}

function checkWeeks(weeks: number): void {
  if (!Number.isInteger(weeks) || weeks < 1 || weeks > MAX_WEEKS) {
    throw invalidInput(`weeks is ${String(weeks)}; ask for a whole number of weeks from 1 to ${MAX_WEEKS}.`);
  }
}

/** Sum of the counts over the day numbers [from, to], both included. */
function sumDays(counts: DailyCounts, from: number, to: number, what: string): number {
  let sum = 0;
  for (let day = from; day <= to; day++) {
    const ymd = ymdOfDayNumber(day);
    const n = counts.get(ymd);
    if (n === undefined) continue;
    checkCount(`The ${what} count for ${ymd}`, n);
    sum += n;
  }
  return sum;
}

/** Days in [from, to] with at least one new paper stored: the days arXiv announced and the store holds. */
function listingDays(allDaily: DailyCounts, from: number, to: number): number {
  let days = 0;
  for (let day = from; day <= to; day++) if ((allDaily.get(ymdOfDayNumber(day)) ?? 0) > 0) days++;
  return days;
}

/**
 * `weeks` Monday-to-Sunday weeks, oldest first, the last one holding asOf and cut off after it. `first` is the
 * first listing day's number, Infinity when there is none; weeks ending before it were never stored.
 */
function weeklySeries(topicDaily: DailyCounts, asOf: string, weeks: number, first: number): WeekCount[] {
  const end = dayNumber(asOf);
  const lastMonday = dayNumber(mondayOf(asOf));
  const series: WeekCount[] = [];
  for (let i = weeks - 1; i >= 0; i--) {
    const start = lastMonday - 7 * i;
    const stop = Math.min(start + 6, end);
    const count = stop < first ? null : sumDays(topicDaily, start, stop, 'topic');
    series.push({ weekStart: ymdOfDayNumber(start), count });
  }
  return series;
}

/**
 * Why the two windows cannot be compared, or null when they can. A previous window reaching before the store
 * would read its unstored days as zeros, and one with fewer listing days would make the extra days look like
 * growth; either way the percentage would claim more than the data holds.
 */
function withheldChange(allDaily: DailyCounts, end: number, first: number): ChangeWithheld | null {
  const prevStart = end - (2 * WINDOW_DAYS - 1);
  if (prevStart < first) return 'before-first-listing';
  const prevDays = listingDays(allDaily, prevStart, end - WINDOW_DAYS);
  const lastDays = listingDays(allDaily, end - (WINDOW_DAYS - 1), end);
  return prevDays < lastDays ? 'fewer-listing-days' : null;
}

/**
 * The days computeMomentum reads for this as-of day and series length, both included, so that a caller can
 * load exactly those daily counts (the earlier of the previous window's start and the first week's Monday).
 */
export function momentumDays(asOf: string, weeks: number = DEFAULT_WEEKS): { from: string; to: string } {
  checkAsOf(asOf);
  checkWeeks(weeks);
  const end = dayNumber(asOf);
  const firstMonday = dayNumber(mondayOf(asOf)) - 7 * (weeks - 1);
  return { from: ymdOfDayNumber(Math.min(end - (2 * WINDOW_DAYS - 1), firstMonday)), to: asOf };
}

/**
 * Momentum as of `asOf`. Throws CoreError('invalid-date') for an as-of or first listing day that is not a
 * day, and CoreError('invalid-input') for a count that is not a whole number or a `weeks` out of range.
 */
export function computeMomentum(input: MomentumInput): Momentum {
  const { asOf, topicDaily, allDaily, total, firstListingDay } = input;
  const weeks = input.weeks ?? DEFAULT_WEEKS;
  checkAsOf(asOf);
  checkFirstListingDay(firstListingDay);
  checkCount('The total', total);
  checkWeeks(weeks);

  const end = dayNumber(asOf);
  const first = firstListingDay === null ? Number.POSITIVE_INFINITY : dayNumber(firstListingDay);
  const last28 = sumDays(topicDaily, end - (WINDOW_DAYS - 1), end, 'topic');
  const prev28 = sumDays(topicDaily, end - (2 * WINDOW_DAYS - 1), end - WINDOW_DAYS, 'topic');
  const allNewLast28 = sumDays(allDaily, end - (WINDOW_DAYS - 1), end, 'all-papers');
  const allNewPrev28 = sumDays(allDaily, end - (2 * WINDOW_DAYS - 1), end - WINDOW_DAYS, 'all-papers');
  const changeWithheld = withheldChange(allDaily, end, first);
  return {
    last28,
    prev28,
    changePct: changeWithheld === null ? percentChange(last28, prev28) : null,
    changeWithheld,
    sharePct: Math.round(sharePercent(last28, allNewLast28) * 100) / 100,
    allNewLast28,
    allNewPrev28,
    total,
    weekly: weeklySeries(topicDaily, asOf, weeks, first),
    sentence: momentumSentence({ last28, prev28, allNewLast28, changeWithheld }),
  };
}
