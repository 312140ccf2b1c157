import { onReachability, type ReachabilityEvent } from '../api/reachability.ts';

/**
 * Whether the app is working from this device's copy, and how old that copy is: from the browser's own
 * online/offline signal (which only knows about the network interface) and from the API client's actual
 * requests (which also notice a server that is down or a network that goes nowhere).
 */
export class Connectivity {
  #browserOnline = $state(true);
  #serverUnreachable = $state(false);
  /** The oldest copy shown since the server last answered; null when nothing came from the device. */
  #dataFrom = $state<number | null>(null);
  /** Plain callbacks, not state: nothing renders from them. */
  #backOnline: (() => void)[] = [];

  constructor() {
    if (typeof window === 'undefined') return;
    this.#browserOnline = navigator.onLine;
    window.addEventListener('online', () => {
      this.#browserOnline = true;
      for (const listener of this.#backOnline) listener();
    });
    window.addEventListener('offline', () => {
      this.#browserOnline = false;
    });
    onReachability((event) => this.#on(event));
  }

  /** True when the network is gone or the server did not answer the last request. */
  get offline(): boolean {
    return !this.#browserOnline || this.#serverUnreachable;
  }

  get browserOnline(): boolean {
    return this.#browserOnline;
  }

  get dataFrom(): number | null {
    return this.#dataFrom;
  }

  /** Calls `listener` each time the browser says the network is back; returns the unsubscribe. */
  onBackOnline(listener: () => void): () => void {
    this.#backOnline = [...this.#backOnline, listener];
    return () => {
      this.#backOnline = this.#backOnline.filter((l) => l !== listener);
    };
  }

  #on(event: ReachabilityEvent): void {
    switch (event.kind) {
      case 'reached':
        this.#serverUnreachable = false;
        this.#dataFrom = null;
        return;
      case 'unreachable':
        this.#serverUnreachable = true;
        return;
      case 'served-from-device':
        this.#serverUnreachable = true;
        this.#dataFrom = this.#dataFrom === null ? event.storedAt : Math.min(this.#dataFrom, event.storedAt);
        return;
    }
  }
}

export const connectivity = new Connectivity();
