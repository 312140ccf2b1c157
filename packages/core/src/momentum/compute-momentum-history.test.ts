import { describe, expect, it } from 'vitest';
import { computeMomentum } from './compute-momentum.ts';
import type { MomentumInput } from './momentum-types.ts';

const counts = (entries: Record<string, number>): Map<string, number> => new Map(Object.entries(entries));

// A Friday. Last four weeks: [2026-04-11, 2026-05-08]; the four weeks before: [2026-03-14, 2026-04-10].
const AS_OF = '2026-05-08';
const LONG_AGO = '2020-01-06';

/** 45 papers after 20, one listing day in each window, 5,000 new papers overall in the last four weeks. */
const base: MomentumInput = {
  asOf: AS_OF,
  topicDaily: counts({ '2026-05-01': 45, '2026-04-01': 20 }),
  allDaily: counts({ '2026-05-01': 5000, '2026-04-01': 4000 }),
  firstListingDay: LONG_AGO,
  total: 65,
};

describe('computeMomentum withholds the change when the four weeks before start before the store', () => {
  it('gives no change, says why, and keeps the counts, when the store starts inside the four weeks before', () => {
    const m = computeMomentum({ ...base, firstListingDay: '2026-03-16' });
    expect(m.changePct).toBeNull();
    expect(m.changeWithheld).toBe('before-first-listing');
    expect(m).toMatchObject({ last28: 45, prev28: 20, sharePct: 0.9, allNewPrev28: 4000 });
    expect(m.sentence).toBe(
      '45 papers in the last four weeks. 0.9% of all new papers. Not enough history yet for a change.',
    );
  });

  it('compares from a first listing day on asOf − 55 exactly, and withholds from asOf − 54', () => {
    const onStart = computeMomentum({ ...base, firstListingDay: '2026-03-14' });
    expect(onStart.changeWithheld).toBeNull();
    expect(onStart.changePct).toBe(125); // 100 · 25 / 20
    expect(onStart.sentence).toBe(
      '45 papers in the last four weeks, up 125% on the four weeks before. 0.9% of all new papers.',
    );
    expect(computeMomentum({ ...base, firstListingDay: '2026-03-15' }).changeWithheld).toBe(
      'before-first-listing',
    );
  });

  it('never calls a topic new, nor down to nothing, when the store starts inside the last four weeks', () => {
    const recent = {
      ...base,
      firstListingDay: '2026-04-20',
      allDaily: counts({ '2026-05-01': 3000 }),
    };
    const fresh = computeMomentum({ ...recent, topicDaily: counts({ '2026-05-01': 3 }), total: 3 });
    expect(fresh).toMatchObject({ changePct: null, changeWithheld: 'before-first-listing' });
    expect(fresh.sentence).toBe(
      '3 papers in the last four weeks. 0.1% of all new papers. Not enough history yet for a change.',
    );
    const quiet = computeMomentum({ ...recent, topicDaily: counts({}), total: 0 });
    expect(quiet.sentence).toBe('No papers in the last four weeks. Not enough history yet for a change.');
  });

  it('withholds for a store with no listing day at all', () => {
    const m = computeMomentum({
      ...base,
      topicDaily: counts({}),
      allDaily: counts({}),
      firstListingDay: null,
    });
    expect(m).toMatchObject({ changePct: null, changeWithheld: 'before-first-listing', last28: 0 });
    expect(m.sentence).toBe('No papers in the last four weeks. Not enough history yet for a change.');
  });
});

describe('computeMomentum withholds the change when the four weeks before have fewer listing days', () => {
  // 60 papers after 30; three listing days in the last four weeks, 3,000 new papers in all (a share of 2.0%).
  const lastDays = { '2026-04-20': 1000, '2026-04-21': 1000, '2026-05-01': 1000 };
  const input = (prevDays: Record<string, number>): MomentumInput => ({
    ...base,
    topicDaily: counts({ '2026-05-01': 60, '2026-04-01': 30 }),
    allDaily: counts({ ...lastDays, ...prevDays }),
    total: 90,
  });

  it('gives no change with two listing days before against three', () => {
    const m = computeMomentum(input({ '2026-03-20': 1000, '2026-04-01': 1000 }));
    expect(m.changePct).toBeNull();
    expect(m.changeWithheld).toBe('fewer-listing-days');
    expect(m).toMatchObject({ last28: 60, prev28: 30, allNewPrev28: 2000 });
    expect(m.sentence).toBe(
      '60 papers in the last four weeks. 2.0% of all new papers. ' +
        'Not enough listing days in the four weeks before for a change.',
    );
  });

  it('does not count a day with no new papers as a listing day', () => {
    const m = computeMomentum(input({ '2026-03-20': 1000, '2026-03-21': 0, '2026-04-01': 1000 }));
    expect(m.changeWithheld).toBe('fewer-listing-days');
  });

  it('compares with as many listing days before, or more', () => {
    const same = computeMomentum(input({ '2026-03-20': 1000, '2026-03-27': 1000, '2026-04-01': 1000 }));
    expect(same.changeWithheld).toBeNull();
    expect(same.changePct).toBe(100);
    expect(same.sentence).toBe(
      '60 papers in the last four weeks, up 100% on the four weeks before. 2.0% of all new papers.',
    );
    const more = input({ '2026-03-16': 1, '2026-03-20': 1, '2026-03-27': 1, '2026-04-01': 1 });
    expect(computeMomentum(more).changePct).toBe(100);
  });
});

describe('computeMomentum keeps the reference shape when the history suffices', () => {
  it('words 134 after 56 exactly as the reference, with a store starting on asOf − 55', () => {
    const m = computeMomentum({
      asOf: AS_OF,
      topicDaily: counts({ '2026-05-01': 134, '2026-04-01': 56 }),
      allDaily: counts({ '2026-05-01': 16_750, '2026-04-01': 16_000 }),
      firstListingDay: '2026-03-14',
      total: 190,
    });
    expect(m).toMatchObject({ changePct: 139, changeWithheld: null, sharePct: 0.8 });
    expect(m.sentence).toBe(
      '134 papers in the last four weeks, up 139% on the four weeks before. 0.8% of all new papers.',
    );
  });
});

describe('computeMomentum marks weeks before the store as no data', () => {
  // Four weeks: Mondays 04-13, 04-20, 04-27 and 05-04 (cut off after Friday 05-08).
  const weekly = (firstListingDay: string | null) =>
    computeMomentum({
      ...base,
      weeks: 4,
      topicDaily: counts({ '2026-04-22': 2, '2026-05-05': 5 }),
      firstListingDay,
    }).weekly;

  it('gives null for a week wholly before the first listing day, 0 for a stored week without papers', () => {
    expect(weekly('2026-04-22')).toEqual([
      { weekStart: '2026-04-13', count: null },
      { weekStart: '2026-04-20', count: 2 }, // holds the first listing day (a Wednesday)
      { weekStart: '2026-04-27', count: 0 },
      { weekStart: '2026-05-04', count: 5 },
    ]);
  });

  it('counts a week whose Sunday is the first listing day, and not the week before a Monday one', () => {
    expect(weekly('2026-04-19')[0]).toEqual({ weekStart: '2026-04-13', count: 0 });
    expect(weekly('2026-04-20')[0]).toEqual({ weekStart: '2026-04-13', count: null });
  });

  it('gives every week null for a store with no listing day, and none for a long history', () => {
    expect(weekly(null).map((w) => w.count)).toEqual([null, null, null, null]);
    expect(weekly(LONG_AGO).map((w) => w.count)).toEqual([0, 2, 0, 5]);
  });
});
