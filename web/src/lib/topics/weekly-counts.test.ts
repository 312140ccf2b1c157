import { describe, expect, it } from 'vitest';
import { maxCount, noDataRuns, weekCountText, weeklyLabel } from './weekly-counts.ts';

const week = (weekStart: string, count: number | null) => ({ weekStart, count });

describe('weekly counts for the chart and sparklines', () => {
  it('says "no data" for a week the store does not reach, and 0 for a stored week without papers', () => {
    expect(weekCountText(null)).toBe('no data');
    expect(weekCountText(0)).toBe('0');
    expect(weekCountText(1234)).toBe('1,234');
  });

  it('says leading no-data weeks once, then the counts', () => {
    const weekly = [
      week('2026-02-23', null),
      week('2026-03-02', null),
      week('2026-03-09', null),
      week('2026-03-16', 0),
      week('2026-03-23', 5),
    ];
    expect(weeklyLabel(weekly)).toBe(
      'Papers per week, Feb 23 to Mar 23: no data for the first 3 weeks, then 0, 5',
    );
    expect(weeklyLabel(weekly.slice(2))).toBe(
      'Papers per week, Mar 9 to Mar 23: no data for the first week, then 0, 5',
    );
    expect(weeklyLabel(weekly.slice(3))).toBe('Papers per week, Mar 16 to Mar 23: 0, 5');
    expect(weeklyLabel(weekly.slice(0, 2))).toBe('Papers per week, Feb 23 to Mar 2: no data');
    expect(weeklyLabel([])).toBe('No weekly papers yet');
  });

  it('finds runs of no-data weeks and leaves them out of the largest count', () => {
    const weekly = [week('a', null), week('b', null), week('c', 3), week('d', null), week('e', 1)];
    expect(noDataRuns(weekly)).toEqual([
      [0, 2],
      [3, 1],
    ]);
    expect(maxCount(weekly)).toBe(3);
    expect(maxCount([week('a', null)])).toBe(0);
  });
});
