import { describe, expect, it } from 'vitest';
import {
  addDays,
  canonicalTimestamp,
  dayNumber,
  daysBetween,
  formatInstant,
  isYmd,
  mondayOf,
  parseInstant,
  rfc2822Day,
  weekdayOf,
  ymdOfDayNumber,
  ymdOfInstant,
} from './dates.ts';
import { CoreError } from './errors.ts';

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return error instanceof CoreError ? error.code : 'not a CoreError';
  }
  return undefined;
}

describe('calendar days', () => {
  it('recognises real days only', () => {
    expect(isYmd('2026-03-12')).toBe(true);
    expect(isYmd('2024-02-29')).toBe(true);
    expect(isYmd('2023-02-29')).toBe(false);
    expect(isYmd('1900-02-29')).toBe(false);
    expect(isYmd('2000-02-29')).toBe(true);
    expect(isYmd('2026-13-01')).toBe(false);
    expect(isYmd('2026-3-12')).toBe(false);
    expect(isYmd('2026-03-12T00:00:00Z')).toBe(false);
  });

  it('adds days across month, year and leap-day boundaries', () => {
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2023-02-28', 1)).toBe('2023-03-01');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('1970-01-01', -1)).toBe('1969-12-31');
    expect(addDays('2026-03-12', 0)).toBe('2026-03-12');
  });

  it('numbers days from 1970-01-01 and back, agreeing with Date.UTC', () => {
    expect(dayNumber('1970-01-01')).toBe(0);
    expect(dayNumber('1970-01-02')).toBe(1);
    for (let day = dayNumber('1899-12-25'); day < dayNumber('2101-01-05'); day += 13) {
      const ymd = ymdOfDayNumber(day);
      expect(Date.UTC(Number(ymd.slice(0, 4)), Number(ymd.slice(5, 7)) - 1, Number(ymd.slice(8, 10)))).toBe(
        day * 86_400_000,
      );
      expect(dayNumber(ymd)).toBe(day);
    }
  });

  it('counts days between two days', () => {
    expect(daysBetween('2026-03-01', '2026-04-01')).toBe(31);
    expect(daysBetween('2026-04-01', '2026-03-01')).toBe(-31);
  });

  it('gives weekdays with 0 = Sunday', () => {
    expect(weekdayOf('1970-01-01')).toBe(4);
    expect(weekdayOf('1969-12-31')).toBe(3);
    expect(weekdayOf('2026-03-08')).toBe(0);
    expect(weekdayOf('2026-03-12')).toBe(4);
    expect(weekdayOf('2026-03-14')).toBe(6);
  });

  it('finds the Monday starting the week', () => {
    expect(mondayOf('2026-03-09')).toBe('2026-03-09');
    expect(mondayOf('2026-03-12')).toBe('2026-03-09');
    expect(mondayOf('2026-03-15')).toBe('2026-03-09');
    expect(mondayOf('2026-03-16')).toBe('2026-03-16');
    expect(mondayOf('2026-01-01')).toBe('2025-12-29');
  });

  it('rejects malformed days with invalid-date', () => {
    expect(codeOf(() => addDays('2026-02-30', 1))).toBe('invalid-date');
    expect(codeOf(() => weekdayOf('tomorrow'))).toBe('invalid-date');
  });
});

describe('instants', () => {
  it('reads ISO 8601 with Z, offsets, fractions and no zone (as UTC)', () => {
    expect(parseInstant('2026-03-12T18:03:00Z')).toBe(Date.UTC(2026, 2, 12, 18, 3, 0));
    expect(parseInstant('2026-03-12T14:03:00-04:00')).toBe(Date.UTC(2026, 2, 12, 18, 3, 0));
    expect(parseInstant('2026-03-12T19:03:00+0100')).toBe(Date.UTC(2026, 2, 12, 18, 3, 0));
    expect(parseInstant('2026-03-12T18:03:00.25Z')).toBe(Date.UTC(2026, 2, 12, 18, 3, 0, 250));
    expect(parseInstant('2026-03-12 18:03')).toBe(Date.UTC(2026, 2, 12, 18, 3, 0));
    expect(parseInstant('  2026-03-12t18:03:00z ')).toBe(Date.UTC(2026, 2, 12, 18, 3, 0));
  });

  it('reads RFC 2822 dates as arXivRaw writes them', () => {
    expect(parseInstant('Mon, 2 Apr 2007 19:18:42 GMT')).toBe(Date.UTC(2007, 3, 2, 19, 18, 42));
    expect(parseInstant('2 Apr 2007 15:18:42 -0400')).toBe(Date.UTC(2007, 3, 2, 19, 18, 42));
    expect(parseInstant('Mon, 02 Apr 2007 15:18:42 EDT')).toBe(Date.UTC(2007, 3, 2, 19, 18, 42));
    expect(parseInstant('Thu, 12 Mar 2026 18:03 UT')).toBe(Date.UTC(2026, 2, 12, 18, 3, 0));
  });

  it('rejects what it cannot read with invalid-date', () => {
    for (const bad of [
      '',
      'yesterday',
      '2026-03-12T25:00:00Z',
      '2026-02-30T10:00:00Z',
      '2026-03-12T10:00:00+25:00',
      'Mon, 2 Foo 2007 19:18:42 GMT',
      'Mon, 2 Apr 2007 19:18:42 XYZ',
      '2026-03-12',
    ]) {
      expect(
        codeOf(() => parseInstant(bad)),
        bad,
      ).toBe('invalid-date');
    }
  });

  it('explains the accepted forms in the error message', () => {
    expect(() => parseInstant('soon')).toThrow(/"soon" is not a date.*2026-03-12T18:03:00Z/);
  });

  it('formats instants at second precision unless milliseconds are present', () => {
    expect(formatInstant(Date.UTC(2026, 2, 12, 18, 3, 0))).toBe('2026-03-12T18:03:00Z');
    expect(formatInstant(Date.UTC(2026, 2, 12, 18, 3, 0, 7))).toBe('2026-03-12T18:03:00.007Z');
    expect(formatInstant(Date.UTC(1969, 11, 31, 23, 59, 59))).toBe('1969-12-31T23:59:59Z');
    expect(ymdOfInstant(Date.UTC(2026, 2, 12, 23, 59, 59))).toBe('2026-03-12');
  });

  it('reads full month names, one-digit hours and dates without a weekday', () => {
    expect(parseInstant('2 April 2007 9:18:42 GMT')).toBe(Date.UTC(2007, 3, 2, 9, 18, 42));
    expect(parseInstant('Sun, 31 Dec 2006 23:59:59 +0000')).toBe(Date.UTC(2006, 11, 31, 23, 59, 59));
  });

  it('refuses a day without a time as an instant, in either form', () => {
    expect(codeOf(() => parseInstant('2 Apr 2007'))).toBe('invalid-date');
    expect(codeOf(() => parseInstant('Sat, 31 Feb 2007 10:00:00 GMT'))).toBe('invalid-date');
  });

  it('canonicalises timestamps to UTC and keeps bare days as days', () => {
    expect(canonicalTimestamp('Mon, 2 Apr 2007 19:18:42 GMT')).toBe('2007-04-02T19:18:42Z');
    expect(canonicalTimestamp('Mon, 16 Mar 2026 22:30:00 -0400')).toBe('2026-03-17T02:30:00Z');
    expect(canonicalTimestamp('2 Apr 2007')).toBe('2007-04-02');
    expect(codeOf(() => canonicalTimestamp('yesterday'))).toBe('invalid-date');
    expect(canonicalTimestamp('2026-03-12T18:03:00.250+01:00')).toBe('2026-03-12T17:03:00.250Z');
    expect(canonicalTimestamp(' 2026-03-12 ')).toBe('2026-03-12');
    expect(codeOf(() => canonicalTimestamp('2026-02-30'))).toBe('invalid-date');
  });
});

describe('rfc2822Day', () => {
  it("gives the day as written, in the date's own offset", () => {
    expect(rfc2822Day('Mon, 16 Mar 2026 22:30:00 -0400')).toBe('2026-03-16');
    expect(rfc2822Day('Tue, 17 Mar 2026 01:30:00 +0200')).toBe('2026-03-17');
    expect(rfc2822Day('Mon, 16 Mar 2026 00:00:00 -0400')).toBe('2026-03-16');
    expect(rfc2822Day(' 2 Apr 2007 ')).toBe('2007-04-02');
  });

  it('rejects what is not a real RFC 2822 date with invalid-date', () => {
    for (const bad of [
      'Mon, 2 Foo 2007 19:18:42 GMT',
      'Sat, 31 Feb 2007',
      'Mon, 2 Apr 2007 25:00:00 GMT',
      'Mon, 2 Apr 2007 19:18:42 XYZ',
      '2026-03-16',
      'yesterday',
    ]) {
      expect(
        codeOf(() => rfc2822Day(bad)),
        bad,
      ).toBe('invalid-date');
    }
  });
});
