import { describe, expect, it } from 'vitest';
import { kappa } from './locked-eval.ts';
import { exactMcNemar, newcombePairedDifference, pairedTable } from './paired-proportions.ts';

describe('newcombePairedDifference', () => {
  it('matches an interval worked by hand', () => {
    // a=12 b=9 c=2 d=21, n=44: p1 = 21/44 = 0.4773 (Wilson 0.3375–0.6206), p2 = 14/44 = 0.3182 (0.2000–0.4656);
    // ad−bc = 234 > n/2, so φ = (234 − 22)/√(21·23·14·30 = 202,860) = 0.4707;
    // low = 0.1591 − √(0.1397² − 2·0.4707·0.1397·0.1474 + 0.1474²) = 0.0112, high = 0.1591 + 0.1363 = 0.2954.
    const r = newcombePairedDifference({ both: 12, firstOnly: 9, secondOnly: 2, neither: 21 });
    expect(r.diff).toBeCloseTo(0.1591, 4);
    expect(r.low).toBeCloseTo(0.0112, 4);
    expect(r.high).toBeCloseTo(0.2954, 4);
  });
  it('is narrow around 0 when every pair agrees', () => {
    // 30/30/0/0 of 60: both shares 0.5 (Wilson 0.3773–0.6227, half-width 0.1227); φ = (900 − 30)/900 = 0.9667,
    // so each side is 0.1227·√(2 − 2·0.9667) = 0.0317.
    const r = newcombePairedDifference({ both: 30, firstOnly: 0, secondOnly: 0, neither: 30 });
    expect(r.diff).toBe(0);
    expect(r.low).toBeCloseTo(-0.0317, 4);
    expect(r.high).toBeCloseTo(0.0317, 4);
  });
  it('takes φ as 0 when a margin is empty', () => {
    // 0/0/5/55: p1 = 0 (Wilson 0–0.0602), p2 = 5/60 (0.0361–0.1807); low = −1/12 − 0.0974 = −0.1807,
    // high = −1/12 + √(0.0472² + 0.0602²) = −0.0068.
    const r = newcombePairedDifference({ both: 0, firstOnly: 0, secondOnly: 5, neither: 55 });
    expect(r.low).toBeCloseTo(-0.1807, 4);
    expect(r.high).toBeCloseTo(-0.0068, 4);
  });
  it('has no interval without items', () => {
    expect(
      Number.isNaN(newcombePairedDifference({ both: 0, firstOnly: 0, secondOnly: 0, neither: 0 }).diff),
    ).toBe(true);
  });
});

describe('exactMcNemar', () => {
  it('doubles the binomial tail of the smaller discordant count', () => {
    // 9 vs 2: 2·(1 + 11 + 55)/2^11 = 134/2048.
    expect(exactMcNemar(9, 2)).toBeCloseTo(0.0654297, 7);
    expect(exactMcNemar(2, 9)).toBeCloseTo(0.0654297, 7);
    // 0 vs 6: 2/64.
    expect(exactMcNemar(0, 6)).toBeCloseTo(0.03125, 10);
  });
  it('is 1 when the discordant pairs split evenly or there are none', () => {
    expect(exactMcNemar(5, 5)).toBe(1);
    expect(exactMcNemar(0, 0)).toBe(1);
  });
});

describe('pairedTable and kappa', () => {
  it('counts the four cells and the agreement beyond chance', () => {
    const first = [true, true, true, false, false, false, false, true];
    const second = [true, false, false, true, false, false, false, true];
    expect(pairedTable(first, second)).toEqual({ both: 2, firstOnly: 2, secondOnly: 1, neither: 3 });
    // po = 5/8; first in 4/8, second in 3/8: pe = 0.5·0.375 + 0.5·0.625 = 0.5; kappa = 0.125/0.5 = 0.25.
    expect(kappa(first, second)).toBeCloseTo(0.25, 10);
  });
});
