import { describe, expect, it } from 'vitest';
import { formatAge } from './data-age.ts';

const now = Date.UTC(2026, 2, 10, 12, 0, 0);
const ago = (ms: number) => formatAge(now - ms, now);
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

describe('formatAge', () => {
  it('says "a moment ago" under a minute, and for a clock set back', () => {
    expect(ago(0)).toBe('a moment ago');
    expect(ago(59_000)).toBe('a moment ago');
    expect(formatAge(now + 5 * MIN, now)).toBe('a moment ago');
  });

  it('counts whole minutes, hours and days, singular and plural', () => {
    expect(ago(MIN)).toBe('1 minute ago');
    expect(ago(59 * MIN)).toBe('59 minutes ago');
    expect(ago(HOUR)).toBe('1 hour ago');
    expect(ago(3 * HOUR + 59 * MIN)).toBe('3 hours ago');
    expect(ago(DAY)).toBe('yesterday');
    expect(ago(2 * DAY)).toBe('2 days ago');
  });

  it('falls back to months and years for old copies', () => {
    expect(ago(45 * DAY)).toBe('1 month ago');
    expect(ago(200 * DAY)).toBe('6 months ago');
    expect(ago(800 * DAY)).toBe('2 years ago');
  });
});
