import { describe, expect, it } from 'vitest';
import { computeMomentum, momentumDays } from './compute-momentum.ts';
import { momentumSentence } from './momentum-sentence.ts';
import { codeOf } from './test-helpers.ts';

const counts = (entries: Record<string, number>): Map<string, number> => new Map(Object.entries(entries));
const none = counts({});

// 2026-05-08 is a Friday; its week starts on Monday 2026-05-04. Its four weeks before are [03-14, 04-10].
const AS_OF = '2026-05-08';
/** A store whose history reaches far before every window here, for tests about something else. */
const LONG_AGO = '2020-01-06';

describe('computeMomentum windows', () => {
  it('puts asOf−27 in the last four weeks and asOf−28 in the four before, asOf−55 in and asOf−56 out', () => {
    const m = computeMomentum({
      asOf: AS_OF,
      topicDaily: counts({
        '2026-05-09': 64, // after asOf: never counted
        '2026-05-08': 1, // asOf
        '2026-04-11': 2, // asOf − 27
        '2026-04-10': 4, // asOf − 28
        '2026-03-14': 8, // asOf − 55
        '2026-03-13': 16, // asOf − 56
      }),
      allDaily: counts({
        '2026-05-08': 200,
        '2026-04-11': 100,
        '2026-04-10': 1000,
        '2026-03-14': 1,
        '2026-03-13': 5,
      }),
      firstListingDay: LONG_AGO,
      total: 95,
    });
    expect(m.last28).toBe(3);
    expect(m.prev28).toBe(12);
    expect(m.changePct).toBe(-75);
    expect(m.allNewLast28).toBe(300);
    expect(m.allNewPrev28).toBe(1001);
    expect(m.sharePct).toBe(1);
    expect(m.total).toBe(95);
  });

  it('gives the reference numbers: 134 after 56 is up 139%, 0.8% of 16,750', () => {
    const m = computeMomentum({
      asOf: AS_OF,
      topicDaily: counts({ '2026-05-01': 134, '2026-04-01': 56 }),
      allDaily: counts({ '2026-05-01': 16_750, '2026-04-01': 16_000 }),
      firstListingDay: LONG_AGO,
      total: 616,
    });
    expect(m.changePct).toBe(139); // 100 · 78 / 56 = 139.29
    expect(m.changeWithheld).toBeNull();
    expect(m.sharePct).toBe(0.8);
    expect(m.sentence).toBe(
      '134 papers in the last four weeks, up 139% on the four weeks before. 0.8% of all new papers.',
    );
  });

  it('rounds the share to two decimals and leaves changePct null with nothing before', () => {
    const m = computeMomentum({
      asOf: AS_OF,
      topicDaily: counts({ '2026-05-01': 1 }),
      allDaily: counts({ '2026-05-01': 3, '2026-04-01': 3 }),
      firstListingDay: LONG_AGO,
      total: 1,
    });
    expect(m.sharePct).toBe(33.33);
    expect(m.changePct).toBeNull();
    expect(m.changeWithheld).toBeNull();
    expect(m.sentence).toBe(momentumSentence(m));
  });

  it('gives a share of 0 when nothing new was stored', () => {
    const m = computeMomentum({
      asOf: AS_OF,
      topicDaily: none,
      allDaily: none,
      firstListingDay: LONG_AGO,
      total: 0,
    });
    expect(m).toMatchObject({ last28: 0, prev28: 0, changePct: null, sharePct: 0, allNewLast28: 0 });
    expect(m.sentence).toBe('No papers in the last four weeks, none in the four weeks before either.');
  });
});

describe('computeMomentum weekly series', () => {
  it('counts Monday-to-Sunday weeks, oldest first, the last cut off after a mid-week asOf', () => {
    const m = computeMomentum({
      asOf: AS_OF,
      weeks: 3,
      topicDaily: counts({
        '2026-04-19': 100, // Sunday before the first week
        '2026-04-20': 1, // Monday, first week
        '2026-04-26': 2, // Sunday, first week
        '2026-04-27': 4,
        '2026-05-03': 8,
        '2026-05-04': 16, // Monday of asOf's week
        '2026-05-08': 32, // asOf (Friday)
        '2026-05-09': 64, // Saturday after asOf
        '2026-05-10': 128, // Sunday after asOf
      }),
      allDaily: none,
      firstListingDay: LONG_AGO,
      total: 355,
    });
    expect(m.weekly).toEqual([
      { weekStart: '2026-04-20', count: 3 },
      { weekStart: '2026-04-27', count: 12 },
      { weekStart: '2026-05-04', count: 48 },
    ]);
  });

  it('gives 12 weeks by default, the first starting 11 Mondays before asOf’s', () => {
    const m = computeMomentum({
      asOf: AS_OF,
      topicDaily: none,
      allDaily: none,
      firstListingDay: LONG_AGO,
      total: 0,
    });
    expect(m.weekly).toHaveLength(12);
    expect(m.weekly[0]?.weekStart).toBe('2026-02-16');
    expect(m.weekly[11]?.weekStart).toBe('2026-05-04');
  });

  it('makes the last week a single day when asOf is a Monday, and crosses year ends', () => {
    const m = computeMomentum({
      asOf: '2026-01-05', // Monday
      weeks: 2,
      topicDaily: counts({ '2025-12-29': 1, '2026-01-04': 2, '2026-01-05': 4, '2026-01-06': 8 }),
      allDaily: none,
      firstListingDay: LONG_AGO,
      total: 15,
    });
    expect(m.weekly).toEqual([
      { weekStart: '2025-12-29', count: 3 },
      { weekStart: '2026-01-05', count: 4 },
    ]);
  });
});

describe('momentumDays', () => {
  it('spans the earlier of the previous window and the first week, up to asOf', () => {
    expect(momentumDays(AS_OF)).toEqual({ from: '2026-02-16', to: AS_OF });
    expect(momentumDays(AS_OF, 4)).toEqual({ from: '2026-03-14', to: AS_OF });
  });
});

describe('computeMomentum validation', () => {
  const ok = { asOf: AS_OF, topicDaily: none, allDaily: none, firstListingDay: LONG_AGO, total: 0 };

  it('refuses an as-of that is not a calendar day', () => {
    expect(codeOf(() => computeMomentum({ ...ok, asOf: '2026-02-30' }))).toBe('invalid-date');
    expect(codeOf(() => computeMomentum({ ...ok, asOf: '08/05/2026' }))).toBe('invalid-date');
    expect(codeOf(() => computeMomentum({ ...ok, asOf: '2026-05-08T00:00:00Z' }))).toBe('invalid-date');
    expect(codeOf(() => momentumDays('yesterday'))).toBe('invalid-date');
  });

  it('refuses a first listing day that is not a calendar day, and takes null for an empty store', () => {
    expect(codeOf(() => computeMomentum({ ...ok, firstListingDay: '2026-13-01' }))).toBe('invalid-date');
    expect(codeOf(() => computeMomentum({ ...ok, firstListingDay: '' }))).toBe('invalid-date');
    expect(codeOf(() => computeMomentum({ ...ok, firstListingDay: null }))).toBeUndefined();
  });

  it('refuses weeks that are not a whole number from 1 to 520', () => {
    for (const weeks of [0, -1, 1.5, 521, Number.NaN]) {
      expect(codeOf(() => computeMomentum({ ...ok, weeks }))).toBe('invalid-input');
    }
    expect(codeOf(() => computeMomentum({ ...ok, weeks: 520 }))).toBeUndefined();
  });

  it('refuses counts that are not whole numbers of papers', () => {
    expect(codeOf(() => computeMomentum({ ...ok, total: -1 }))).toBe('invalid-input');
    expect(codeOf(() => computeMomentum({ ...ok, topicDaily: counts({ '2026-05-01': 1.5 }) }))).toBe(
      'invalid-input',
    );
    expect(codeOf(() => computeMomentum({ ...ok, allDaily: counts({ '2026-04-01': -2 }) }))).toBe(
      'invalid-input',
    );
  });
});
