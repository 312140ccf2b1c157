import { describe, expect, it } from 'vitest';
import { KeyedBuckets, SharedLimit, TokenBucket } from './token-bucket.ts';

describe('TokenBucket', () => {
  it('allows a burst, refuses past it and refills at the rate', () => {
    let ms = 0;
    const bucket = new TokenBucket(10, 3, () => ms);
    expect([bucket.take(), bucket.take(), bucket.take(), bucket.take()]).toEqual([true, true, true, false]);
    ms += 100; // one token at 10 per second
    expect([bucket.take(), bucket.take()]).toEqual([true, false]);
    ms += 60_000; // refills up to the burst, no further
    expect([bucket.take(), bucket.take(), bucket.take(), bucket.take()]).toEqual([true, true, true, false]);
  });
});

describe('KeyedBuckets', () => {
  it('gives every user of a key the same bucket and forgets full buckets first at its cap', () => {
    let ms = 0;
    const buckets = new KeyedBuckets(1, 2, () => ms, 2);
    expect([buckets.get('a').take(), buckets.get('a').take(), buckets.get('a').take()]).toEqual([
      true,
      true,
      false,
    ]);
    buckets.get('b');
    buckets.get('c'); // at the cap: 'b' is full and goes, 'a' (empty) stays
    expect(buckets.size).toBe(2);
    expect(buckets.get('a').take()).toBe(false);
    ms += 60_000;
    expect(buckets.get('a').take()).toBe(true);
  });
});

describe('SharedLimit', () => {
  it('counts in the shared store, and in the node’s own bucket while that store cannot answer', async () => {
    const t = 0;
    const local = new TokenBucket(1, 2, () => t);
    let away = false;
    const asked: string[] = [];
    const shared = {
      take: (key: string) => {
        asked.push(key);
        return away ? Promise.reject(new Error('Connection is closed.')) : Promise.resolve(false);
      },
    };
    const outages: string[] = [];
    const limit = new SharedLimit(shared, (why) => outages.push(why));
    // The shared count refuses: the local bucket, full, is not consulted.
    expect(await limit.take('k', 1, 2, local)).toBe(false);
    away = true;
    // Away: the node's own bucket decides (two at once), and the outage is told once.
    expect([await limit.take('k', 1, 2, local), await limit.take('k', 1, 2, local)]).toEqual([true, true]);
    expect(await limit.take('k', 1, 2, local)).toBe(false);
    expect(outages).toEqual(['Connection is closed.']);
    expect(asked).toHaveLength(4);
    expect(await new SharedLimit(null, () => {}).take('k', 1, 2, new TokenBucket(1, 1, () => t))).toBe(true);
  });
});
