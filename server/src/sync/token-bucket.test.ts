import { describe, expect, it } from 'vitest';
import { TokenBucket } from './token-bucket.ts';

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
