import { errorMessage } from '../errors.ts';

/** Live connections per address counted where every node counts them (Redis, with several nodes). */
export interface SharedConnectionCounts {
  /** Takes a place when all nodes together hold fewer than `cap` for the address; false when full. */
  reserve(address: string, cap: number): Promise<boolean>;
  /** Gives back a place `reserve` took. */
  release(address: string): Promise<void>;
  /** Says this node holds exactly `held` places for the address (what a lost release or restart left wrong). */
  set(address: string, held: number): Promise<void>;
}

/** A count found wrong is written again this long after a failure, doubling up to SETTLE_MAX_MS. */
const SETTLE_FIRST_MS = 500;
const SETTLE_MAX_MS = 30_000;

/**
 * The live-connection cap per address across nodes, beside each node's own cap (which always applies).
 *
 * While the shared count cannot answer, the node's own cap decides and the log says so once: a Redis
 * restart must not lock members out. A place taken is given back when its socket closes, also when it
 * closed while the place was being taken. The node knows how many places it holds per address; where
 * the shared count may disagree (a release that failed, or Redis back after an outage, its counts
 * perhaps lost), it writes its own count again until that succeeds, so a lost release does not keep a
 * place taken until the node stops.
 */
export class SharedConnectionCap {
  private outage = false;
  /** Places this node holds per address: reserved, socket not yet closed. */
  private readonly held = new Map<string, number>();
  /** Reserves in flight per address: a count written meanwhile could miss the one being taken. */
  private readonly reserving = new Map<string, number>();
  /** Addresses whose shared count may be wrong for this node. */
  private readonly unsettled = new Set<string>();
  private settleTimer: NodeJS.Timeout | null = null;
  private settleDelayMs = SETTLE_FIRST_MS;
  private closed = false;

  constructor(
    private readonly counts: SharedConnectionCounts,
    private readonly onOutage: (why: string) => void,
  ) {}

  /**
   * Whether one more connection from `address` fits; when it does, its place is held until `closed`
   * settles. `closed` must settle once the socket is gone.
   */
  async admit(address: string, cap: number, closed: Promise<void>): Promise<boolean> {
    if (this.unsettled.has(address)) await this.settle();
    let taken: boolean;
    bump(this.reserving, address, 1);
    try {
      taken = await this.counts.reserve(address, cap);
    } catch (err) {
      if (!this.outage) {
        this.outage = true;
        this.onOutage(errorMessage(err));
      }
      return true;
    } finally {
      bump(this.reserving, address, -1);
    }
    if (this.outage) {
      // Back after an outage: Redis may have restarted empty, so every place held is written again.
      this.outage = false;
      for (const held of this.held.keys()) this.unsettled.add(held);
      this.scheduleSettle(0);
    }
    if (taken) {
      bump(this.held, address, 1);
      const release = () => this.release(address);
      void closed.then(release, release);
    }
    return taken;
  }

  /** Stops retrying; what is still unsettled stays so (a dead node's counts are dropped by the others). */
  close(): void {
    this.closed = true;
    if (this.settleTimer) clearTimeout(this.settleTimer);
    this.settleTimer = null;
  }

  private async release(address: string): Promise<void> {
    bump(this.held, address, -1);
    try {
      await this.counts.release(address);
    } catch {
      this.unsettled.add(address);
      this.scheduleSettle(this.settleDelayMs);
    }
  }

  /** Writes this node's count for every unsettled address; what fails is tried again later. */
  private async settle(): Promise<void> {
    let failed = false;
    for (const address of [...this.unsettled]) {
      if ((this.reserving.get(address) ?? 0) > 0) continue;
      try {
        await this.counts.set(address, this.held.get(address) ?? 0);
        this.unsettled.delete(address);
      } catch {
        failed = true;
      }
    }
    if (this.unsettled.size === 0) {
      this.settleDelayMs = SETTLE_FIRST_MS;
      return;
    }
    if (failed) this.settleDelayMs = Math.min(this.settleDelayMs * 2, SETTLE_MAX_MS);
    this.scheduleSettle(this.settleDelayMs);
  }

  private scheduleSettle(ms: number): void {
    if (this.closed || this.settleTimer) return;
    this.settleTimer = setTimeout(() => {
      this.settleTimer = null;
      void this.settle();
    }, ms);
    this.settleTimer.unref();
  }
}

function bump(map: Map<string, number>, key: string, by: number): void {
  const next = (map.get(key) ?? 0) + by;
  if (next > 0) map.set(key, next);
  else map.delete(key);
}
