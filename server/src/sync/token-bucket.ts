import { errorMessage } from '../errors.ts';
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
    this.refill();
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /** Whether the bucket has refilled to its burst, as if it had never been used. */
  isFull(): boolean {
    this.refill();
    return this.tokens >= this.burst;
  }

  private refill(): void {
    const t = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((t - this.last) / 1000) * this.perSecond);
    this.last = t;
  }
}

/** Most keys a `KeyedBuckets` remembers before it forgets full buckets, then the oldest. */
const MAX_KEYS = 10_000;

/**
 * One token bucket per key (an invite, a client address), shared by every connection with that key, so
 * that reconnecting or opening more sockets does not buy a fresh burst. A full bucket is the same as a
 * new one, so those are forgotten first when the map is at its cap.
 */
export class KeyedBuckets {
  private readonly buckets = new Map<string, TokenBucket>();

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    private readonly now: () => number = () => performance.now(),
    private readonly maxKeys = MAX_KEYS,
  ) {}

  /** The bucket of `key`, created full the first time. */
  get(key: string): TokenBucket {
    let bucket = this.buckets.get(key);
    if (!bucket) {
      if (this.buckets.size >= this.maxKeys) this.forget();
      bucket = new TokenBucket(this.perSecond, this.burst, this.now);
      this.buckets.set(key, bucket);
    }
    return bucket;
  }

  get size(): number {
    return this.buckets.size;
  }

  private forget(): void {
    for (const [key, bucket] of this.buckets) if (bucket.isFull()) this.buckets.delete(key);
    if (this.buckets.size >= this.maxKeys) this.buckets.delete(this.buckets.keys().next().value ?? '');
  }
}

/**
 * Token buckets kept where every node counts against them (Redis, when nodes share their groups: issue
 * 13), so N nodes do not give N times the allowance. Rejects when the shared store cannot answer.
 */
export interface SharedRateLimits {
  take(key: string, perSecond: number, burst: number): Promise<boolean>;
  /** Spends `count` tokens at once, even past empty (to minus the burst); resolves with the tokens left. */
  spend(key: string, count: number, perSecond: number, burst: number): Promise<number>;
}

/** What a connection asks before it handles a message: a bucket of its own or one counted elsewhere. */
export interface MessageLimit {
  take(): boolean;
}

/**
 * A limit counted in `shared` when there is one, else in `local` (this node's bucket for the same key).
 *
 * When the shared store cannot answer (Redis restarting, say), the node's own bucket decides: each node
 * then allows its own allowance, N times the whole for a while, but never nothing and never everything.
 * Failing closed would lock every member out of every group whenever Redis blinks, which sync itself
 * survives (catch-up from PostgreSQL); failing wide open would leave floods unchecked. `onOutage` is
 * told once per outage.
 */
export class SharedLimit {
  private outage = false;

  constructor(
    private readonly shared: Pick<SharedRateLimits, 'take'> | null,
    private readonly onOutage: (why: string) => void,
  ) {}

  async take(key: string, perSecond: number, burst: number, local: TokenBucket): Promise<boolean> {
    if (!this.shared) return local.take();
    try {
      const ok = await this.shared.take(key, perSecond, burst);
      this.outage = false;
      return ok;
    } catch (err) {
      if (!this.outage) {
        this.outage = true;
        this.onOutage(errorMessage(err));
      }
      return local.take();
    }
  }
}
