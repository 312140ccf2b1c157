import { describe, expect, it } from 'vitest';
import { codeOf } from './test-helpers.ts';
import { checkTimeZone, instantOfWallTime, wallTimeAt } from './zoned-time.ts';

const iso = (ms: number): string => new Date(ms).toISOString();

describe('wall-clock times in a time zone', () => {
  it('follows the zone across its DST change', () => {
    // Berlin moves from UTC+1 to UTC+2 on 2026-03-29; New York from UTC-5 to UTC-4 on 2026-03-08.
    expect(iso(instantOfWallTime('2026-03-26', '18:00', 'Europe/Berlin'))).toBe('2026-03-26T17:00:00.000Z');
    expect(iso(instantOfWallTime('2026-04-02', '18:00', 'Europe/Berlin'))).toBe('2026-04-02T16:00:00.000Z');
    expect(iso(instantOfWallTime('2026-03-02', '09:00', 'America/New_York'))).toBe(
      '2026-03-02T14:00:00.000Z',
    );
    expect(iso(instantOfWallTime('2026-03-09', '09:00', 'America/New_York'))).toBe(
      '2026-03-09T13:00:00.000Z',
    );
    expect(iso(instantOfWallTime('2026-07-01', '00:15', 'Asia/Kolkata'))).toBe('2026-06-30T18:45:00.000Z');
  });

  it('reads a skipped time just after the gap and a repeated time as its first occurrence', () => {
    expect(iso(instantOfWallTime('2026-03-29', '02:30', 'Europe/Berlin'))).toBe('2026-03-29T01:30:00.000Z');
    expect(iso(instantOfWallTime('2026-10-25', '02:30', 'Europe/Berlin'))).toBe('2026-10-25T00:30:00.000Z');
  });

  it('gives the day and time the zone shows, and round-trips', () => {
    const ms = Date.parse('2026-03-29T22:30:00Z');
    expect(wallTimeAt(ms, 'Europe/Berlin')).toEqual({ date: '2026-03-30', time: '00:30' });
    expect(wallTimeAt(ms, 'America/Los_Angeles')).toEqual({ date: '2026-03-29', time: '15:30' });
    for (const zone of ['Europe/Berlin', 'America/New_York', 'Australia/Sydney', 'UTC']) {
      const { date, time } = wallTimeAt(ms, zone);
      expect(instantOfWallTime(date, time, zone)).toBe(ms);
    }
  });

  it('knows IANA zones and refuses others', () => {
    expect(checkTimeZone('europe/berlin')).toBe('Europe/Berlin');
    expect(codeOf(() => checkTimeZone('Mars/Olympus'))).toBe('invalid-input');
    expect(codeOf(() => checkTimeZone(''))).toBe('invalid-input');
  });
});
