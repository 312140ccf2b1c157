import { describe, expect, it } from 'vitest';
import { SharedMessageCounts } from './shared-message-counts.ts';
import type { SharedRateLimits } from './token-bucket.ts';

/** A shared bucket per key held in memory, on the test's clock, spent as the Redis script spends it. */
function sharedStore(now: () => number) {
  const buckets = new Map<string, { tokens: number; at: number }>();
  let away = false;
  const store: SharedRateLimits = {
    take: () => Promise.reject(new Error('not used here')),
    spend: (key, count, perSecond, burst) => {
      if (away) return Promise.reject(new Error('Connection is closed.'));
      const b = buckets.get(key) ?? { tokens: burst, at: now() };
      const tokens = Math.min(burst, b.tokens + ((now() - b.at) / 1000) * perSecond);
      const left = Math.max(-burst, tokens - count);
      buckets.set(key, { tokens: left, at: now() });
      return Promise.resolve(left);
    },
  };
  return { store, goAway: () => (away = true), comeBack: () => (away = false) };
}

const takeN = (counts: SharedMessageCounts, n: number): boolean[] =>
  Array.from({ length: n }, () => counts.take('k', 1, 10));

describe('SharedMessageCounts', () => {
  it('refuses on one node once the messages another node reported spend the allowance', async () => {
    let t = 0;
    const now = () => t;
    const { store } = sharedStore(now);
    const a = new SharedMessageCounts(store, () => {}, 60_000, now);
    const b = new SharedMessageCounts(store, () => {}, 60_000, now);
    // Neither node has heard anything yet: each allows on its own.
    expect(takeN(a, 6).every(Boolean)).toBe(true);
    await a.report();
    expect(takeN(b, 3).every(Boolean)).toBe(true);
    await b.report(); // 10 - 6 - 3: one left, as b now knows
    expect(takeN(b, 2)).toEqual([true, false]);
    // Refilled at 1 a second: two seconds later b may send two more.
    t += 2000;
    expect(takeN(b, 3)).toEqual([true, true, false]);
    a.close();
    b.close();
  });

  it('leaves the decision to the node’s own buckets while the shared store cannot answer, told once', async () => {
    const t = 0;
    const now = () => t;
    const { store, goAway, comeBack } = sharedStore(now);
    const outages: string[] = [];
    const counts = new SharedMessageCounts(store, (why) => outages.push(why), 60_000, now);
    takeN(counts, 10);
    await counts.report();
    expect(counts.take('k', 1, 10)).toBe(false);
    goAway();
    await counts.report(); // nothing new to report: what it knew stands
    expect(counts.take('k', 1, 10)).toBe(false);
    // A report that fails forgets the shared count rather than refusing everyone for ever.
    const other = new SharedMessageCounts(store, (why) => outages.push(why), 60_000, now);
    expect(other.take('k', 1, 10)).toBe(true);
    await other.report();
    expect(takeN(other, 3)).toEqual([true, true, true]);
    await other.report();
    expect(outages).toEqual(['Connection is closed.']);
    comeBack();
    await other.report(); // the 4 it could not report spend past empty: refused again
    expect(other.take('k', 1, 10)).toBe(false);
    counts.close();
    other.close();
  });
});
