/**
 * A token bucket: up to `burst` messages at once, refilled at `perSecond`. A reconnecting client sends a
 * few messages in a row (sync step 1, step 2, awareness) and typing sends short bursts, so the burst is
 * generous while the sustained rate stops a flood.
 */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.tokens = burst;
    this.last = now();
  }

  /** Takes one token; false when the bucket is empty. */
  take(): boolean {
    const t = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((t - this.last) / 1000) * this.perSecond);
    this.last = t;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
