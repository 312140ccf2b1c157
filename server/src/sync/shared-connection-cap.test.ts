import { describe, expect, it } from 'vitest';
import { SharedConnectionCap, type SharedConnectionCounts } from './shared-connection-cap.ts';

/** One node's view of a shared count, kept in memory, whose calls can be made to fail. */
class Counts implements SharedConnectionCounts {
  readonly byAddress = new Map<string, number>();
  readonly calls: string[] = [];
  failReleases = 0;
  failReserves = 0;
  #onSet: (() => void) | null = null;

  reserve(address: string, cap: number): Promise<boolean> {
    this.calls.push(`reserve ${address}`);
    if (this.failReserves > 0) {
      this.failReserves -= 1;
      return Promise.reject(new Error('connection refused'));
    }
    const held = this.byAddress.get(address) ?? 0;
    if (held >= cap) return Promise.resolve(false);
    this.byAddress.set(address, held + 1);
    return Promise.resolve(true);
  }

  release(address: string): Promise<void> {
    this.calls.push(`release ${address}`);
    if (this.failReleases > 0) {
      this.failReleases -= 1;
      return Promise.reject(new Error('connection reset'));
    }
    this.byAddress.set(address, (this.byAddress.get(address) ?? 0) - 1);
    return Promise.resolve();
  }

  set(address: string, held: number): Promise<void> {
    this.calls.push(`set ${address} ${held}`);
    this.byAddress.set(address, held);
    this.#onSet?.();
    return Promise.resolve();
  }

  /** Settles at the next `set`. */
  nextSet(): Promise<void> {
    return new Promise((resolve) => (this.#onSet = resolve));
  }
}

/** A socket's close, settled by the test. */
function socket(): { closed: Promise<void>; close(): void } {
  let close = () => {};
  const closed = new Promise<void>((resolve) => (close = resolve));
  return { closed, close };
}

/** Lets the promise callbacks queued so far run. */
const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('the live-connection cap across nodes', () => {
  it('writes its own count again when a release is lost, so the place does not stay taken', async () => {
    const counts = new Counts();
    const cap = new SharedConnectionCap(counts, () => {});
    const a = socket();
    const b = socket();
    expect(await cap.admit('10.0.0.1', 2, a.closed)).toBe(true);
    expect(await cap.admit('10.0.0.1', 2, b.closed)).toBe(true);
    expect(await cap.admit('10.0.0.1', 2, socket().closed)).toBe(false);

    counts.failReleases = 1;
    const written = counts.nextSet();
    a.close();
    await written;
    // One socket still open, so one place: the second admit's, held by b.
    expect(counts.calls.at(-1)).toBe('set 10.0.0.1 1');
    expect(counts.byAddress.get('10.0.0.1')).toBe(1);
    expect(await cap.admit('10.0.0.1', 2, socket().closed)).toBe(true);
    cap.close();
  });

  it('settles an address before taking a place for it again', async () => {
    const counts = new Counts();
    const cap = new SharedConnectionCap(counts, () => {});
    const a = socket();
    expect(await cap.admit('10.0.0.2', 1, a.closed)).toBe(true);
    counts.failReleases = 1;
    a.close();
    await flush();
    expect(counts.byAddress.get('10.0.0.2')).toBe(1);
    // Before the retry's timer: the admit itself corrects the count first, so the cap of one admits it.
    expect(await cap.admit('10.0.0.2', 1, socket().closed)).toBe(true);
    expect(counts.calls.slice(-2)).toEqual(['set 10.0.0.2 0', 'reserve 10.0.0.2']);
    cap.close();
  });

  it('admits during an outage, says so once, and writes the places it holds when Redis is back', async () => {
    const counts = new Counts();
    const outages: string[] = [];
    const cap = new SharedConnectionCap(counts, (why) => outages.push(why));
    expect(await cap.admit('10.0.0.3', 5, socket().closed)).toBe(true);
    expect(await cap.admit('10.0.0.3', 5, socket().closed)).toBe(true);
    // Redis restarts empty and does not answer meanwhile.
    counts.byAddress.clear();
    counts.failReserves = 2;
    expect(await cap.admit('10.0.0.4', 1, socket().closed)).toBe(true);
    expect(await cap.admit('10.0.0.4', 1, socket().closed)).toBe(true);
    expect(outages).toEqual(['connection refused']);

    const written = counts.nextSet();
    expect(await cap.admit('10.0.0.5', 1, socket().closed)).toBe(true);
    await written;
    expect(counts.byAddress.get('10.0.0.3')).toBe(2);
    cap.close();
  });
});
