/** Wilson score interval for a binomial proportion: sound at small n and near 0 or 1, unlike p ± 1.96·se. */
export function wilson(successes: number, n: number, z = 1.96): { p: number; low: number; high: number } {
  if (n === 0) return { p: NaN, low: NaN, high: NaN };
  const p = successes / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  return { p, low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

export function formatInterval(r: { p: number; low: number; high: number }): string {
  if (Number.isNaN(r.p)) return '  —  ';
  return `${r.p.toFixed(2)} [${r.low.toFixed(2)}–${r.high.toFixed(2)}]`;
}
