import { describe, expect, it } from 'vitest';
import { CoreError } from './errors.ts';
import {
  cutoffDayOf,
  estimateListingDate,
  isEasternDaylightTime,
  listingDateOfCutoff,
  toEasternTime,
} from './listing-schedule.ts';

const HOUR = 3_600_000;

describe('US Eastern daylight time', () => {
  it('starts at 07:00 UTC on the second Sunday of March (2026-03-08)', () => {
    expect(isEasternDaylightTime(Date.UTC(2026, 2, 8, 6, 59, 59))).toBe(false);
    expect(isEasternDaylightTime(Date.UTC(2026, 2, 8, 7, 0, 0))).toBe(true);
  });

  it('ends at 06:00 UTC on the first Sunday of November (2026-11-01)', () => {
    expect(isEasternDaylightTime(Date.UTC(2026, 10, 1, 5, 59, 59))).toBe(true);
    expect(isEasternDaylightTime(Date.UTC(2026, 10, 1, 6, 0, 0))).toBe(false);
  });

  it('follows the 1987–2006 rule (first Sunday of April to last Sunday of October) before 2007', () => {
    expect(isEasternDaylightTime(Date.UTC(2006, 2, 20, 12))).toBe(false);
    expect(isEasternDaylightTime(Date.UTC(2006, 3, 2, 6, 59))).toBe(false);
    expect(isEasternDaylightTime(Date.UTC(2006, 3, 2, 7, 0))).toBe(true);
    expect(isEasternDaylightTime(Date.UTC(2006, 9, 29, 5, 59))).toBe(true);
    expect(isEasternDaylightTime(Date.UTC(2006, 9, 29, 6, 0))).toBe(false);
  });

  it('converts to the New York day and time', () => {
    expect(toEasternTime(Date.UTC(2026, 2, 13, 2, 30))).toEqual({ day: '2026-03-12', msOfDay: 22.5 * HOUR });
    expect(toEasternTime(Date.UTC(2026, 0, 15, 17, 0))).toEqual({ day: '2026-01-15', msOfDay: 12 * HOUR });
  });
});

describe('cutoff and listing days', () => {
  it('closes each window at 14:00 on a weekday', () => {
    expect(cutoffDayOf({ day: '2026-03-12', msOfDay: 14 * HOUR - 1 })).toBe('2026-03-12');
    expect(cutoffDayOf({ day: '2026-03-12', msOfDay: 14 * HOUR })).toBe('2026-03-13');
    expect(cutoffDayOf({ day: '2026-03-13', msOfDay: 15 * HOUR })).toBe('2026-03-16');
    expect(cutoffDayOf({ day: '2026-03-14', msOfDay: 10 * HOUR })).toBe('2026-03-16');
  });

  it('lists the next day, or Monday for the window closing on Friday', () => {
    expect(listingDateOfCutoff('2026-03-09')).toBe('2026-03-10');
    expect(listingDateOfCutoff('2026-03-12')).toBe('2026-03-13');
    expect(listingDateOfCutoff('2026-03-13')).toBe('2026-03-16');
  });
});

describe('estimateListingDate', () => {
  // March 2026 after the 8th is EDT (UTC−4): 14:00 ET = 18:00 UTC.
  it.each([
    ['Thursday 13:59 ET → Friday', '2026-03-12T17:59:00Z', '2026-03-13'],
    ['Thursday 14:00 ET exactly → Monday', '2026-03-12T18:00:00Z', '2026-03-16'],
    ['Thursday 14:01 ET → Monday', '2026-03-12T18:01:00Z', '2026-03-16'],
    ['Friday 13:00 ET → Monday', '2026-03-13T17:00:00Z', '2026-03-16'],
    ['Friday 15:00 ET → Tuesday', '2026-03-13T19:00:00Z', '2026-03-17'],
    ['Saturday → Tuesday', '2026-03-14T16:00:00Z', '2026-03-17'],
    ['Sunday 22:00 ET → Tuesday', '2026-03-16T02:00:00Z', '2026-03-17'],
    ['Monday 13:59 ET → Tuesday', '2026-03-16T17:59:00Z', '2026-03-17'],
    ['Monday 14:00 ET → Wednesday', '2026-03-16T18:00:00Z', '2026-03-18'],
    ['Tuesday morning → Wednesday', '2026-03-17T13:00:00Z', '2026-03-18'],
    ['Wednesday morning → Thursday', '2026-03-18T13:00:00Z', '2026-03-19'],
  ])('%s', (_label, submitted, listing) => {
    expect(estimateListingDate(submitted)).toBe(listing);
  });

  it('uses the New York day when it differs from the UTC day', () => {
    // Friday 02:30 UTC is Thursday 22:30 EDT, after Thursday's cutoff.
    expect(estimateListingDate('2026-03-13T02:30:00Z')).toBe('2026-03-16');
    // Saturday 03:00 UTC is Friday 23:00 EDT.
    expect(estimateListingDate('2026-03-14T03:00:00Z')).toBe('2026-03-17');
  });

  it('switches offset at the March 2026 daylight-time boundary', () => {
    // Friday 2026-03-06 18:59 UTC is 13:59 EST: before the cutoff.
    expect(estimateListingDate('2026-03-06T18:59:00Z')).toBe('2026-03-09');
    // Monday 2026-03-02 18:30 UTC is 13:30 EST: before the cutoff.
    expect(estimateListingDate('2026-03-02T18:30:00Z')).toBe('2026-03-03');
    // Monday 2026-03-09 18:30 UTC is 14:30 EDT: after it.
    expect(estimateListingDate('2026-03-09T18:30:00Z')).toBe('2026-03-11');
  });

  it('switches offset at the November 2026 daylight-time boundary', () => {
    // Friday 2026-10-30 18:30 UTC is 14:30 EDT: after Friday's cutoff, so the Monday window.
    expect(estimateListingDate('2026-10-30T18:30:00Z')).toBe('2026-11-03');
    // Monday 2026-11-02 18:30 UTC is 13:30 EST: before the cutoff.
    expect(estimateListingDate('2026-11-02T18:30:00Z')).toBe('2026-11-03');
    // Sunday 2026-11-01, either side of the switch, waits for Monday's window.
    expect(estimateListingDate('2026-11-01T05:30:00Z')).toBe('2026-11-03');
    expect(estimateListingDate('2026-11-01T06:30:00Z')).toBe('2026-11-03');
  });

  it('reads RFC 2822 dates and offsets', () => {
    // Monday 2 April 2007, 15:18 EDT (2007 was the first year of the March rule): after the cutoff.
    expect(estimateListingDate('Mon, 2 Apr 2007 19:18:42 GMT')).toBe('2007-04-04');
    expect(estimateListingDate('2026-03-12T13:59:00-04:00')).toBe('2026-03-13');
    expect(estimateListingDate('2026-03-12T19:01:00+01:00')).toBe('2026-03-16');
  });

  it('takes a bare day as before that day’s cutoff', () => {
    expect(estimateListingDate('2026-03-12')).toBe('2026-03-13');
    expect(estimateListingDate('2026-03-13')).toBe('2026-03-16');
    expect(estimateListingDate('2026-03-14')).toBe('2026-03-17');
    expect(estimateListingDate('2026-03-15')).toBe('2026-03-17');
  });

  it('rejects unreadable dates with invalid-date', () => {
    for (const bad of ['', 'last Thursday', '2026-02-30', '2026-03-12T24:30:00Z']) {
      expect(() => estimateListingDate(bad), bad).toThrow(
        expect.objectContaining({ name: 'CoreError', code: 'invalid-date' }) as CoreError,
      );
    }
  });
});
