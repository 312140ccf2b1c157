import { describe, expect, it } from 'vitest';
import { KeyedBuckets, TokenBucket } from './token-bucket.ts';

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
