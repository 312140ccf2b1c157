import { describe, expect, it } from 'vitest';
import { rankRising, risingScore, type RisingInput } from './rising-rank.ts';
import { codeOf } from './test-helpers.ts';

/** A flat month: as many new papers overall in both windows. */
const flat = (slug: string, last28: number, prev28: number): RisingInput => ({
  slug,
  last28,
  prev28,
  allNewLast28: 10_000,
  allNewPrev28: 10_000,
});

/** A surge month: +50% new papers overall, as the corpus has. */
const surge = (slug: string, last28: number, prev28: number): RisingInput => ({
  slug,
  last28,
  prev28,
  allNewLast28: 15_000,
  allNewPrev28: 10_000,
});

const slugs = (topics: readonly { slug: string }[]): string[] => topics.map((t) => t.slug);

describe('risingScore', () => {
  it('matches the Wilson bound worked by hand for 60 after 30', () => {
    // p = 60/90, k = 1.96²/90 = 0.04268; centre = (p + k/2)/(1 + k) = 0.6598;
    // half = 1.96·√(p(1−p)/90 + k/360)/(1 + k) = 0.0956; low = 0.5642 → RR ≥ 0.5642/0.4358 = 1.295.
    const s = risingScore(flat('x', 60, 30));
    expect(s.expected).toBe(30);
    expect(s.ratio).toBe(2);
    expect(s.ratioLow).toBeCloseTo(1.295, 3);
    expect(s.score).toBeCloseTo(Math.log2(1.295), 3);
    expect(s.z).toBeCloseTo(15 / Math.sqrt(22.5), 6); // (60 − 45) / √(90 · ½ · ½)
  });

  it('scores 0 for a topic growing exactly with the overall volume', () => {
    const s = risingScore(surge('steady', 1500, 1000));
    expect(s.expected).toBe(1500);
    expect(s.ratio).toBe(1);
    expect(s.score).toBe(0);
    expect(s.z).toBeCloseTo(0, 9);
    expect(s.ratioLow).toBeLessThan(1);
    expect(s.ratioHigh).toBeGreaterThan(1);
  });

  it('discounts the overall surge: +50% is rising in a flat month, not in a +50% one', () => {
    expect(risingScore(flat('x', 1500, 1000)).score).toBeGreaterThan(0.4);
    expect(risingScore(surge('x', 1500, 1000)).score).toBe(0);
  });

  it('lets a topic that is new with enough papers rise, but not one with three', () => {
    const ten = risingScore(flat('x', 10, 0));
    expect(ten.score).toBeGreaterThan(1); // at least twice the overall pace
    expect(ten).toMatchObject({ expected: 0, ratio: null, ratioHigh: null });
    expect(risingScore(flat('x', 3, 0)).score).toBe(0);
  });

  it('scores a clearly falling topic below 0', () => {
    const s = risingScore(flat('x', 10, 100));
    expect(s.ratioHigh).toBeLessThan(1);
    expect(s.score).toBeLessThan(0);
  });

  it('scores 0 when the windows cannot be compared or hold nothing', () => {
    expect(risingScore({ ...flat('x', 10, 0), allNewPrev28: 0 })).toEqual({
      score: 0,
      expected: null,
      ratio: null,
      ratioLow: null,
      ratioHigh: null,
      z: 0,
      significant: false,
    });
    expect(risingScore(flat('x', 0, 0))).toMatchObject({
      score: 0,
      expected: 0,
      ratio: null,
      z: 0,
      significant: false,
    });
  });

  it('calls a change significant when the 95% interval of the ratio leaves out 1, either way', () => {
    // 60 after 30 in a flat month: the interval starts at 1.295 (worked above), so surely faster.
    expect(risingScore(flat('x', 60, 30))).toMatchObject({ significant: true });
    // 10 after 100: 1/11 of the papers where half were expected; surely slower, and still significant.
    expect(risingScore(flat('x', 10, 100))).toMatchObject({ significant: true });
    // 3 after 1, and the same pace as the store: the interval holds 1.
    expect(risingScore(flat('x', 3, 1))).toMatchObject({ score: 0, significant: false });
    expect(risingScore(surge('x', 1500, 1000))).toMatchObject({ score: 0, significant: false });
  });

  it('refuses counts that are not whole numbers, a missing slug and a bad z', () => {
    expect(codeOf(() => risingScore(flat('x', -1, 3)))).toBe('invalid-input');
    expect(codeOf(() => risingScore({ ...flat('x', 1, 3), allNewPrev28: 2.5 }))).toBe('invalid-input');
    expect(codeOf(() => risingScore(flat('', 1, 3)))).toBe('invalid-input');
    expect(codeOf(() => risingScore(flat('x', 1, 3), 0))).toBe('invalid-input');
  });
});

describe('rankRising', () => {
  it('ranks 3 papers after 1 below 60 after 30, though +200% beats +100%', () => {
    const ranked = rankRising([flat('lucky', 3, 1), flat('real', 60, 30)]);
    expect(slugs(ranked)).toEqual(['real', 'lucky']);
    expect(ranked[1]?.score).toBe(0);
  });

  it('ranks a big genuinely rising topic above a big steady one', () => {
    const ranked = rankRising([surge('steady', 3000, 2000), surge('rising', 3900, 2000)]);
    expect(slugs(ranked)).toEqual(['rising', 'steady']);
    expect(ranked[0]?.score).toBeGreaterThan(0);
    expect(ranked[1]?.score).toBe(0);
  });

  it('ranks by how much faster a topic at least grows, not by z', () => {
    // Broad: 15% above the overall pace on thousands; narrow: three times it on dozens.
    const broad = surge('broad', 3450, 2000);
    const narrow = surge('narrow', 45, 10);
    expect(risingScore(broad).z).toBeGreaterThan(risingScore(narrow).z);
    expect(slugs(rankRising([broad, narrow]))).toEqual(['narrow', 'broad']);
  });

  it('puts falling topics last and breaks ties by z, then last28, then slug', () => {
    const ranked = rankRising([
      flat('falling', 10, 100),
      flat('b-tie', 5, 5),
      flat('a-tie', 5, 5),
      flat('big-tie', 50, 50),
      flat('near', 8, 3),
      flat('rising', 60, 30),
    ]);
    expect(slugs(ranked)).toEqual(['rising', 'near', 'big-tie', 'a-tie', 'b-tie', 'falling']);
  });

  it('keeps extra fields and leaves the input alone', () => {
    const input = [{ ...flat('x', 60, 30), name: 'X' }];
    const ranked = rankRising(input);
    expect(ranked[0]).toMatchObject({ slug: 'x', name: 'X', last28: 60 });
    expect(input[0]).not.toHaveProperty('score');
    expect(rankRising([])).toEqual([]);
  });
});
