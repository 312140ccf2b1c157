/**
 * What the API client learns about the server as it goes: answered, unreachable, or stood in for by this
 * device's copy. Plain events rather than state, so the client stays free of Svelte (benchmarks bundle it
 * as is); the connectivity manager turns them into what the header shows.
 */
export type ReachabilityEvent =
  | { kind: 'reached' }
  | { kind: 'unreachable' }
  /** A page was given this device's copy, stored at `storedAt` (ms since the epoch). */
  | { kind: 'served-from-device'; storedAt: number };

type Listener = (event: ReachabilityEvent) => void;

const listeners = new Set<Listener>();

export function onReachability(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function reportReachability(event: ReachabilityEvent): void {
  for (const listener of listeners) listener(event);
}
