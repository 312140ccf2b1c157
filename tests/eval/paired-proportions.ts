import { wilson } from './interval.ts';

/**
 * Two readings of the same items, as a paired 2×2 table: `both` judged in by both, `firstOnly` in by the first
 * and out by the second, `secondOnly` the reverse, `neither` out by both.
 */
export interface PairedTable {
  both: number;
  firstOnly: number;
  secondOnly: number;
  neither: number;
}

/**
 * The difference of the two in-shares (first − second) with Newcombe's hybrid score interval for paired
 * proportions (Newcombe 1998, method 10): the two Wilson intervals combined as for independent samples, less
 * their correlation φ, whose numerator ad − bc is shrunk by n/2 towards 0 when positive (his continuity
 * correction). Chosen over the Wald interval, which at n = 60 with few discordant pairs is too narrow, and over
 * a bootstrap, which needs no seed this way and gives the same answer on every machine.
 */
export function newcombePairedDifference(
  t: PairedTable,
  z = 1.96,
): { diff: number; low: number; high: number } {
  const { both: a, firstOnly: b, secondOnly: c, neither: d } = t;
  const n = a + b + c + d;
  if (n === 0) return { diff: NaN, low: NaN, high: NaN };
  const first = wilson(a + b, n, z);
  const second = wilson(a + c, n, z);
  const marginals = (a + b) * (c + d) * (a + c) * (b + d);
  const cross = a * d - b * c;
  const corrected = cross > n / 2 ? cross - n / 2 : cross < 0 ? cross : 0;
  const phi = marginals === 0 ? 0 : corrected / Math.sqrt(marginals);
  const diff = first.p - second.p;
  const down1 = first.p - first.low;
  const up1 = first.high - first.p;
  const down2 = second.p - second.low;
  const up2 = second.high - second.p;
  const low = diff - Math.sqrt(down1 ** 2 - 2 * phi * down1 * up2 + up2 ** 2);
  const high = diff + Math.sqrt(down2 ** 2 - 2 * phi * down2 * up1 + up1 ** 2);
  return { diff, low: Math.max(-1, low), high: Math.min(1, high) };
}

/**
 * Exact two-sided McNemar test: under "no difference" each discordant pair falls either way with probability
 * 1/2, so the p-value is twice the binomial tail of the smaller count, capped at 1.
 */
export function exactMcNemar(firstOnly: number, secondOnly: number): number {
  const m = firstOnly + secondOnly;
  const k = Math.min(firstOnly, secondOnly);
  let term = 0.5 ** m; // C(m, 0) / 2^m
  let tail = term;
  for (let i = 1; i <= k; i++) {
    term = (term * (m - i + 1)) / i;
    tail += term;
  }
  return Math.min(1, 2 * tail);
}

/** The table of two label lists over the same items, in the same order. */
export function pairedTable(first: readonly boolean[], second: readonly boolean[]): PairedTable {
  if (first.length !== second.length)
    throw new Error('Paired labels need one label of each reading per item.');
  const t: PairedTable = { both: 0, firstOnly: 0, secondOnly: 0, neither: 0 };
  first.forEach((x, i) => {
    const y = second[i] === true;
    if (x && y) t.both++;
    else if (x) t.firstOnly++;
    else if (y) t.secondOnly++;
    else t.neither++;
  });
  return t;
}
