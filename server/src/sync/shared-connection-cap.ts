import { errorMessage } from '../errors.ts';

/** Live connections per address counted where every node counts them (Redis, with several nodes). */
export interface SharedConnectionCounts {
  /** Takes a place when all nodes together hold fewer than `cap` for the address; false when full. */
  reserve(address: string, cap: number): Promise<boolean>;
  /** Gives back a place `reserve` took. */
  release(address: string): Promise<void>;
}

/**
 * The live-connection cap per address across nodes, beside each node's own cap (which always applies).
 *
 * While the shared count cannot answer, the node's own cap decides and the log says so once: a Redis
 * restart must not lock members out. A place taken is given back when its socket closes, also when it
 * closed while the place was being taken.
 */
export class SharedConnectionCap {
  private outage = false;

  constructor(
    private readonly counts: SharedConnectionCounts,
    private readonly onOutage: (why: string) => void,
  ) {}

  /**
   * Whether one more connection from `address` fits; when it does, its place is held until `closed`
   * settles. `closed` must settle once the socket is gone.
   */
  async admit(address: string, cap: number, closed: Promise<void>): Promise<boolean> {
    let taken: boolean;
    try {
      taken = await this.counts.reserve(address, cap);
      this.outage = false;
    } catch (err) {
      if (!this.outage) {
        this.outage = true;
        this.onOutage(errorMessage(err));
      }
      return true;
    }
    if (taken) void closed.then(() => this.counts.release(address)).catch(() => {});
    return taken;
  }
}
