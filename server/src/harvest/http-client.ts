import { QuireError, errorMessage } from '../errors.ts';

/**
 * One polite HTTP client for every arXiv source. arXiv's terms allow one request every 3 seconds and one
 * connection at a time across OAI-PMH, RSS and the query API, so all sources share one instance: requests
 * are queued and spaced, 503/429 are retried after their Retry-After, and transient failures (5xx, resets,
 * time-outs, truncated bodies) are retried with exponential backoff.
 */
export interface HttpClientOptions {
  /** Minimum time between the starts of two requests. arXiv asks for 3 s. */
  minIntervalMs?: number;
  /** Retries after the first attempt for transient failures. */
  maxRetries?: number;
  /** First backoff delay; doubled on each retry up to maxBackoffMs. */
  baseBackoffMs?: number;
  maxBackoffMs?: number;
  /** A Retry-After longer than this fails the request instead of blocking the client for hours. */
  maxRetryAfterMs?: number;
  /** Per-request time-out, including reading the body. */
  timeoutMs?: number;
  userAgent?: string;
  /** Injected for tests that must not wait real seconds. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  now?: () => number;
  /** Told about every wait so a CLI can show it ("arXiv asked us to wait 10 s"). */
  onWait?: (event: WaitEvent) => void;
}

export interface WaitEvent {
  url: string;
  reason: 'rate-limit' | 'retry-after' | 'backoff';
  ms: number;
  attempt: number;
  detail?: string;
}

export interface HttpResponse {
  url: string;
  status: number;
  body: string;
  headers: Headers;
}

const DEFAULTS = {
  minIntervalMs: 3000,
  maxRetries: 5,
  baseBackoffMs: 2000,
  maxBackoffMs: 120_000,
  maxRetryAfterMs: 15 * 60_000,
  timeoutMs: 120_000,
  userAgent: 'Quire/0.1 (local-first reading-group app; polite harvester)',
};

export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Retry-After is either delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | null, nowMs: number): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, at - nowMs);
}

class TransientError extends Error {
  constructor(
    message: string,
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
  }
}

export class PoliteHttpClient {
  private readonly opts: Required<Omit<HttpClientOptions, 'onWait'>> & Pick<HttpClientOptions, 'onWait'>;
  private queue: Promise<unknown> = Promise.resolve();
  private lastStart = Number.NEGATIVE_INFINITY;

  constructor(options: HttpClientOptions = {}) {
    this.opts = {
      ...DEFAULTS,
      sleep: abortableSleep,
      now: () => Date.now(),
      ...options,
    };
  }

  /** GET a URL as text, queued behind every other request of this client. */
  get(url: string, signal?: AbortSignal): Promise<HttpResponse> {
    const run = this.queue.then(() => this.getWithRetries(url, signal));
    // The queue must survive a failed request, so the chain continues whatever `run` does.
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async getWithRetries(url: string, signal?: AbortSignal): Promise<HttpResponse> {
    for (let attempt = 0; ; attempt += 1) {
      await this.waitForSlot(url, attempt, signal);
      try {
        return await this.attempt(url, signal);
      } catch (err) {
        if (!(err instanceof TransientError) || signal?.aborted) throw err;
        if (attempt >= this.opts.maxRetries) {
          throw new QuireError(
            'source-unreachable',
            `${url} still failed after ${attempt + 1} attempts (${err.message}). Check the source URL and the network, then run the harvest again; stored papers are safe.`,
          );
        }
        const backoff = Math.min(this.opts.maxBackoffMs, this.opts.baseBackoffMs * 2 ** attempt);
        const ms = err.retryAfterMs ?? backoff;
        if (ms > this.opts.maxRetryAfterMs) {
          throw new QuireError(
            'source-unreachable',
            `${url} asked us to wait ${Math.round(ms / 1000)} s, longer than the ${Math.round(this.opts.maxRetryAfterMs / 1000)} s limit. Try again later.`,
          );
        }
        this.opts.onWait?.({
          url,
          reason: err.retryAfterMs === null ? 'backoff' : 'retry-after',
          ms,
          attempt: attempt + 1,
          detail: err.message,
        });
        await this.opts.sleep(ms, signal);
      }
    }
  }

  private async waitForSlot(url: string, attempt: number, signal?: AbortSignal): Promise<void> {
    const wait = this.lastStart + this.opts.minIntervalMs - this.opts.now();
    if (wait > 0) {
      this.opts.onWait?.({ url, reason: 'rate-limit', ms: wait, attempt });
      await this.opts.sleep(wait, signal);
    }
    this.lastStart = this.opts.now();
  }

  private async attempt(url: string, signal?: AbortSignal): Promise<HttpResponse> {
    const timeout = AbortSignal.timeout(this.opts.timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    let res: Response;
    let body: string;
    try {
      res = await fetch(url, { headers: { 'user-agent': this.opts.userAgent }, signal: combined });
      body = await res.text();
    } catch (err) {
      if (signal?.aborted) throw err;
      if (timeout.aborted) throw new TransientError(`no complete answer within ${this.opts.timeoutMs} ms`);
      // Connection refused, reset, or a body cut short (undici reports "terminated").
      const cause = (err as { cause?: unknown }).cause;
      throw new TransientError(cause ? `${errorMessage(err)}: ${errorMessage(cause)}` : errorMessage(err));
    }
    if (res.status === 503 || res.status === 429) {
      const retryAfter = parseRetryAfter(res.headers.get('retry-after'), this.opts.now());
      throw new TransientError(`HTTP ${res.status}`, retryAfter);
    }
    if (res.status >= 500) throw new TransientError(`HTTP ${res.status}`);
    return { url, status: res.status, body, headers: res.headers };
  }
}
