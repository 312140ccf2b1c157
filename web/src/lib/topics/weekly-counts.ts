/**
 * Words and runs for a topic's weekly series, shared by the chart and the sparklines, so that a week the store
 * does not reach (count null) reads "no data" everywhere and is never drawn or said as 0 papers.
 */
import type { WeekCount } from '@quire/core';
import { shortDay } from '../format/dates.ts';

export const NO_DATA = 'no data';

/** The table cell and tooltip text of one week. */
export function weekCountText(count: number | null): string {
  return count === null ? NO_DATA : count.toLocaleString('en-US');
}

/** The largest count, 0 when there is none; no-data weeks do not take part. */
export function maxCount(weekly: readonly WeekCount[]): number {
  return weekly.reduce((max, w) => Math.max(max, w.count ?? 0), 0);
}

/** Consecutive no-data weeks as [first index, length], so each run is drawn and labelled once. */
export function noDataRuns(weekly: readonly WeekCount[]): [number, number][] {
  const runs: [number, number][] = [];
  weekly.forEach((w, i) => {
    if (w.count !== null) return;
    const last = runs[runs.length - 1];
    if (last && last[0] + last[1] === i) last[1] += 1;
    else runs.push([i, 1]);
  });
  return runs;
}

/**
 * "Papers per week, Feb 23 to May 11: no data for the first 3 weeks, then 0, 5, 8". Leading no-data weeks
 * (the usual case: weeks before the store's first listing day) are said once rather than week by week.
 */
export function weeklyLabel(weekly: readonly WeekCount[]): string {
  const first = weekly[0];
  const last = weekly[weekly.length - 1];
  if (!first || !last) return 'No weekly papers yet';
  const range = `Papers per week, ${shortDay(first.weekStart)} to ${shortDay(last.weekStart)}`;
  const lead = weekly.findIndex((w) => w.count !== null);
  if (lead === -1) return `${range}: ${NO_DATA}`;
  const rest = weekly
    .slice(lead)
    .map((w) => weekCountText(w.count))
    .join(', ');
  if (lead === 0) return `${range}: ${rest}`;
  return `${range}: ${NO_DATA} for the first ${lead === 1 ? 'week' : `${lead} weeks`}, then ${rest}`;
}
