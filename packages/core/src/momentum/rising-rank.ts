/**
 * Rising topics: which topics are growing faster than everything else, ranked so that luck cannot win.
 *
 * Method. Take a topic's counts a = last28 and b = prev28 as Poisson, and the overall counts A = allNewLast28,
 * B = allNewPrev28 as exposures. The quantity of interest is the volume-adjusted rate ratio
 *     RR = (a / A) / (b / B),
 * how much faster the topic grew than the whole store: a topic that grew +50% in a month where everything grew
 * +50% (the corpus has such a surge) has RR = 1 and is not rising. Given n = a + b, a is Binomial(n, π) with
 * odds π / (1 − π) = RR · A / B, so "no faster than everything" is π₀ = A / (A + B). The Wilson score interval
 * for π at z = 1.96 (95%, valid also for a = 0 or a = n) maps back to an interval [RRlow, RRhigh] for RR through
 *     RR = (π / (1 − π)) · (B / A).
 * The score is the end of that interval nearest to 1, in log2, and 0 when the interval holds 1:
 *     score = log2(RRlow)   when RRlow > 1   (at least this much faster than everything, with 95% confidence)
 *           = log2(RRhigh)  when RRhigh < 1  (at least this much slower)
 *           = 0             otherwise        (indistinguishable from the overall pace).
 * So a score of 1 means "at least twice the overall pace". 3 papers after 1 has an interval from well below 1
 * to far above it, so it scores 0, below 60 after 30 (RRlow ≈ 1.29, score ≈ 0.37).
 *
 * Why not rank by the z-score of a against its expectation: z grows with the square root of the counts, so in a
 * month where everything grew +50%, a broad topic going from 2,000 to 3,450 (15% above the overall pace,
 * z ≈ 5.0) would outrank a narrow one going from 10 to 45 (three times the overall pace, z ≈ 3.3). The bound
 * ranks them the other way (0.12 against 0.61): it measures how much faster a topic is at least growing, which
 * is what a "rising" list means, and the interval's width is what keeps small topics from topping it by luck.
 * z is still returned, and breaks ties among the many topics that score 0 (nearest to significance first).
 */
import { CoreError } from '../errors.ts';
import { checkCount } from './compute-momentum.ts';

export interface RisingInput {
  slug: string;
  last28: number;
  prev28: number;
  allNewLast28: number;
  allNewPrev28: number;
}

/** The score and the pieces a page needs to explain it ("60 papers where the overall pace gives 30"). */
export interface RisingScore {
  /** log2 of the end of the 95% interval of RR nearest to 1; 0 when the interval holds 1. */
  score: number;
  /** prev28 · allNewLast28 / allNewPrev28: last28 had the topic kept the overall pace. Null when incomparable. */
  expected: number | null;
  /** last28 / expected, the volume-adjusted rate ratio RR. Null when expected is 0 or null. */
  ratio: number | null;
  /** The 95% interval of RR; null when there is nothing to compare, ratioHigh also when it is unbounded. */
  ratioLow: number | null;
  ratioHigh: number | null;
  /** (a − nπ₀) / √(nπ₀(1 − π₀)): standard deviations above the overall pace; 0 when incomparable. */
  z: number;
  /**
   * Whether the change is more than luck: the 95% interval of RR excludes 1, i.e. score ≠ 0. That is the same
   * test the score already makes, spelled out so a page need not know that 0 means "not significant". It goes
   * both ways (score > 0: surely faster than the whole store, score < 0: surely slower), because a sure fall is
   * as real a change as a sure rise. It stays meaningful when the percentage change is withheld for a short
   * previous window: RR compares the topic's share of each window, not raw counts, so fewer stored days lower
   * both a topic's count and the store's, and widen the interval rather than fake a rise.
   */
  significant: boolean;
}

/** 1.96: a two-sided 95% interval, the usual bar for "not luck". */
export const RISING_Z = 1.96;

const INCOMPARABLE = { score: 0, ratioLow: null, ratioHigh: null, z: 0, significant: false } as const;

function wilson(successes: number, n: number, z: number): [number, number] {
  const p = successes / n;
  const k = (z * z) / n;
  const centre = (p + k / 2) / (1 + k);
  const half = (z * Math.sqrt((p * (1 - p)) / n + k / (4 * n))) / (1 + k);
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

function check(topic: RisingInput): void {
  if (typeof topic.slug !== 'string' || topic.slug === '') {
    throw new CoreError('invalid-input', 'A topic to rank has no slug; give each topic its slug.');
  }
  for (const key of ['last28', 'prev28', 'allNewLast28', 'allNewPrev28'] as const) {
    checkCount(`${key} of topic "${topic.slug}"`, topic[key]);
  }
}

/**
 * The rising score of one topic (see the module comment). With no papers at all in one of the two windows
 * (A = 0 or B = 0, e.g. an as-of day at the start of the store) the windows cannot be compared and the score
 * is 0; with a = b = 0 there is no evidence either way and the score is 0. Throws
 * CoreError('invalid-input') for a count that is not a whole number, a missing slug or a z that is not positive.
 */
export function risingScore(topic: RisingInput, z: number = RISING_Z): RisingScore {
  if (!(z > 0 && Number.isFinite(z))) {
    throw new CoreError('invalid-input', `z is ${String(z)}; give a positive number such as 1.96 (95%).`);
  }
  check(topic);
  const { last28: a, prev28: b, allNewLast28: A, allNewPrev28: B } = topic;
  if (A === 0 || B === 0) return { ...INCOMPARABLE, expected: null, ratio: null };
  const expected = (b * A) / B;
  const ratio = expected === 0 ? null : a / expected;
  const n = a + b;
  if (n === 0) return { ...INCOMPARABLE, expected, ratio };

  const pi0 = A / (A + B);
  const toRatio = (pi: number): number => (pi / (1 - pi)) * (B / A);
  const [low, high] = wilson(a, n, z);
  const ratioLow = toRatio(low);
  const ratioHigh = high >= 1 ? null : toRatio(high);
  let score = 0;
  if (ratioLow > 1) score = Math.log2(ratioLow);
  else if (ratioHigh !== null && ratioHigh < 1) score = Math.log2(ratioHigh);
  const zScore = (a - n * pi0) / Math.sqrt(n * pi0 * (1 - pi0));
  return { score, expected, ratio, ratioLow, ratioHigh, z: zScore, significant: score !== 0 };
}

/**
 * Topics by rising score, highest first; ties (above all, the many topics at 0) by z, then by last28, then by slug,
 * so that the order is the same wherever it is computed. Extra fields of the input (a name, say) are kept.
 */
export function rankRising<T extends RisingInput>(
  topics: readonly T[],
  z: number = RISING_Z,
): (T & RisingScore)[] {
  return topics
    .map((topic) => ({ ...topic, ...risingScore(topic, z) }))
    .sort(
      (x, y) =>
        y.score - x.score ||
        y.z - x.z ||
        y.last28 - x.last28 ||
        (x.slug < y.slug ? -1 : x.slug > y.slug ? 1 : 0),
    );
}
