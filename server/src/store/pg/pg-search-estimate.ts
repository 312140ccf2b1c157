import { roundedTotal } from '../search-reader.ts';

/*
 * A search's total past the exact count (EXACT_TOTAL_UP_TO) on PostgreSQL: a reader is told "about N", so
 * the matches are not read to the last one to count them ("task specific" at 10x: 16,000 papers' positions
 * checked; a typed prefix with a hundred completions: every match read from the vectors).
 */

/**
 * How many match when the newest `window` of them (by id: arXiv numbers its papers in order) reached back
 * to id `lowest`: the window over the share of the indexed papers from `lowest` on, that share read from
 * `sample`, indexed papers' ids sampled at random, newest first. Assumes the matches are spread evenly over
 * the ids, as papers on a subject are over the years (SQLite assumes the same of its docs). At least
 * `atLeast` (those known to match), rounded as SQLite's (roundedTotal).
 */
export function estimateFromWindow(
  window: number,
  lowest: string,
  sample: readonly string[],
  atLeast: number,
): number {
  // Sampled ids at or above `lowest`: the sample is newest first, so they are its head.
  let reached = 0;
  let hi = sample.length;
  while (reached < hi) {
    const mid = (reached + hi) >> 1;
    if ((sample[mid] ?? '') >= lowest) reached = mid + 1;
    else hi = mid;
  }
  // Half a sampled id at least: a window reaching no sampled id spans less than one id's share.
  const share = Math.min(1, Math.max(0.5, reached) / Math.max(1, sample.length));
  return roundedTotal(Math.max(atLeast, window / share));
}
