import { errorMessage } from '../errors.ts';
import type { SharedRateLimits } from './token-bucket.ts';

/** How long a node gathers its messages before it reports them (and hears what the others spent). */
export const DEFAULT_REPORT_MS = 50;

interface KeyState {
  perSecond: number;
  burst: number;
  /** Messages taken since the last report was sent. */
  unreported: number;
  /** Tokens the shared bucket held after this node's last report, and when it said so (ms). */
  known: number | null;
  knownAt: number;
  /** Messages taken since `known` was read: the last report's in flight plus `unreported`. */
  sinceKnown: number;
}

/**
 * Message allowances (per invite, per address) counted across nodes without a round trip per message.
 *
 * A message decides at once, on this node's estimate of the shared bucket: what it held at this node's
 * last report, refilled since, less what this node took since. Every `reportMs` the node reports what it
 * took and reads back what is left after every node's spending. So another node's messages are seen
 * within one report, and all nodes together overshoot an allowance by at most what they receive in one
 * report interval, where per-node buckets would give each node the whole allowance. A round trip per
 * message would put Redis on every keystroke's path. A key this node has never reported on is allowed
 * (its own bucket still applies) until its first report says otherwise.
 */
export class SharedMessageCounts {
  private readonly keys = new Map<string, KeyState>();
  private timer: NodeJS.Timeout | null = null;
  private outage = false;

  constructor(
    private readonly shared: SharedRateLimits,
    private readonly onOutage: (why: string) => void,
    private readonly reportMs = DEFAULT_REPORT_MS,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Counts one message against `key`; false when the shared allowance is spent as far as this node knows. */
  take(key: string, perSecond: number, burst: number): boolean {
    let state = this.keys.get(key);
    if (!state) {
      state = { perSecond, burst, unreported: 0, known: null, knownAt: 0, sinceKnown: 0 };
      this.keys.set(key, state);
    }
    if (state.known !== null) {
      const refilled = ((this.now() - state.knownAt) / 1000) * perSecond;
      const left = Math.min(burst, state.known + refilled) - state.sinceKnown;
      if (left < 1) return false;
    }
    state.unreported++;
    state.sinceKnown++;
    this.schedule();
    return true;
  }

  /**
   * Reports what was taken since the last report, and reads back what each key has left. Settles when
   * every key's answer is in; a failed report leaves the keys to this node's own buckets meanwhile.
   */
  async report(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const sent: [string, KeyState, number][] = [];
    for (const [key, state] of this.keys) {
      if (state.unreported > 0) sent.push([key, state, state.unreported]);
      else if (this.settled(state)) this.keys.delete(key); // refilled: the same as never seen
      state.unreported = 0;
    }
    await Promise.all(sent.map(([key, state, count]) => this.spend(key, state, count)));
  }

  private async spend(key: string, state: KeyState, count: number): Promise<void> {
    try {
      const left = await this.shared.spend(key, count, state.perSecond, state.burst);
      this.outage = false;
      // What this node took while the answer was on its way is not in it yet.
      state.sinceKnown -= count;
      state.known = left;
      state.knownAt = this.now();
    } catch (err) {
      // Unknown until Redis answers again, and the node's own buckets decide meanwhile; the messages
      // happened all the same, so they go with the next report.
      state.unreported += count;
      state.known = null;
      state.sinceKnown = state.unreported;
      if (!this.outage) {
        this.outage = true;
        this.onOutage(errorMessage(err));
      }
    }
  }

  /** Whether the shared bucket has surely refilled to its burst since this node last heard of it. */
  private settled(state: KeyState): boolean {
    if (state.known === null) return state.sinceKnown === 0;
    const refilled = ((this.now() - state.knownAt) / 1000) * state.perSecond;
    return state.sinceKnown === 0 && state.known + refilled >= state.burst;
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => void this.report(), this.reportMs);
    this.timer.unref();
  }

  /** Stops the timer; what was not reported is dropped with the node. */
  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
