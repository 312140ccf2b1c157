import { describe, expect, it } from 'vitest';
import { wilson } from './interval.ts';

describe('wilson', () => {
  it('matches 95% intervals worked by hand', () => {
    // 81 of 100, worked by hand from the formula: centre 0.7984, half-width 0.0763.
    const r = wilson(81, 100);
    expect(r.low).toBeCloseTo(0.722, 3);
    expect(r.high).toBeCloseTo(0.875, 3);
    // 0 of 10: 0–0.278.
    expect(wilson(0, 10).high).toBeCloseTo(0.278, 3);
    expect(wilson(0, 10).low).toBe(0);
  });
  it('has no interval without observations', () => {
    expect(Number.isNaN(wilson(0, 0).p)).toBe(true);
  });
});
