import { once } from 'node:events';
import type { Worker } from 'node:worker_threads';
import { QuireError, errorMessage } from '../errors.ts';
import { startWorker } from '../threads/start-worker.ts';
import type { StoreSource } from '../store/stores.ts';
import type { RetagReport } from './retag.ts';
import type { TagReply, TagWorkerData } from './tag-thread-messages.ts';

const WORKER_ENTRY = new URL('./tag-worker.ts', import.meta.url);

export interface TagThreadOptions {
  log?: (line: string) => void;
  /** Called on the server's thread after every run that wrote tags, to drop caches built on the old ones. */
  onTagged?: (report: RetagReport) => void;
  /** A failed run (the store locked by another writer past its timeout, say) is tried again this long after, doubling up to 10 minutes. */
  retryAfterMs?: number;
}

const MAX_RETRY_MS = 600_000;

export interface TagProgress {
  done: number;
  total: number;
}

interface Run {
  seq: number;
  promise: Promise<RetagReport>;
  resolve(report: RetagReport): void;
  reject(err: unknown): void;
}

/**
 * Tagging in a worker thread over its own read-write connection to the store (the SQLite file, or
 * PostgreSQL). It starts by
 * bringing every tag up to date (a full re-tag after a taxonomy or engine change takes seconds to
 * minutes), and the server listens meanwhile: `warming` is true until that first run ends, and pages
 * read the tags as they are committed, batch by batch. Runs never overlap: one asked for during a run
 * starts when it ends, and every ask made meanwhile shares it.
 */
export class TagThread {
  readonly #worker: Worker;
  readonly #log: (line: string) => void;
  readonly #onTagged: (report: RetagReport) => void;
  readonly #retryAfterMs: number;
  #failures = 0;
  #retry: NodeJS.Timeout | null = null;
  #lastError: string | null = null;
  readonly #stop = new SharedArrayBuffer(4);
  readonly #exited: Promise<unknown>;
  /** Resolves when the first run, started with the thread, has ended (rejects if it failed). */
  readonly ready: Promise<RetagReport>;
  #seq = 0;
  #running: Run | null = null;
  #queued: Run | null = null;
  #progress: TagProgress | null = null;
  #alive: 'running' | 'failed' | 'closed' = 'running';
  #warmed = false;

  /** `source`: the SQLite file's path, or where the store is. */
  constructor(source: string | StoreSource, options: TagThreadOptions = {}) {
    this.#log = options.log ?? (() => {});
    this.#onTagged = options.onTagged ?? (() => {});
    this.#retryAfterMs = options.retryAfterMs ?? 30_000;
    const at: StoreSource = typeof source === 'string' ? { engine: 'sqlite', dbPath: source } : source;
    this.#worker = startWorker(WORKER_ENTRY, { source: at, stop: this.#stop } satisfies TagWorkerData);
    // once() rejects if 'error' comes first; close() only needs to know the thread is gone, and an
    // unawaited rejection here would take the whole server down with the thread.
    this.#exited = once(this.#worker, 'exit').catch(() => {});
    this.#worker.on('message', (reply: TagReply) => this.#receive(reply));
    this.#worker.on('error', (err) => this.#fail(`the tag thread failed: ${err.message}`));
    this.#worker.on('exit', (code) => {
      if (this.#alive !== 'closed') this.#fail(`the tag thread stopped (exit code ${code})`);
    });
    this.ready = this.retag();
    // A first run that failed is over too: the server is not left warming for ever (the log says why).
    const warmed = () => {
      this.#warmed = true;
    };
    this.ready.then(warmed, warmed);
  }

  /** 'warming' until the start-up run has ended, then 'ready'; 'failed' once the thread has died. */
  get state(): 'warming' | 'ready' | 'failed' | 'closed' {
    if (this.#alive !== 'running') return this.#alive;
    return this.#warmed ? 'ready' : 'warming';
  }

  /** Why the last run failed, until one succeeds (it is retried in the background); null otherwise. */
  get lastError(): string | null {
    return this.#lastError;
  }

  /** How far the current run has got, or null between runs. */
  get progress(): TagProgress | null {
    return this.#progress;
  }

  /** Tags what is stale (new or changed papers, changed topics). Resolves when those tags are committed. */
  retag(): Promise<RetagReport> {
    if (this.#alive !== 'running') {
      return Promise.reject(
        new QuireError('unavailable', 'The tag thread is not running; see the server log.'),
      );
    }
    if (this.#queued) return this.#queued.promise;
    const run = this.#newRun();
    if (this.#running) this.#queued = run;
    else this.#start(run);
    return run.promise;
  }

  /** Stops a run between two batches (what it has committed stays; the rest is done at the next start). */
  async close(): Promise<void> {
    if (this.#alive === 'closed') return;
    const failed = this.#alive === 'failed';
    this.#alive = 'closed';
    if (this.#retry) clearTimeout(this.#retry);
    const closing = new QuireError('unavailable', 'The server is shutting down; tagging stopped.');
    for (const run of [this.#running, this.#queued]) run?.reject(closing);
    this.#running = this.#queued = null;
    if (failed) return;
    Atomics.store(new Int32Array(this.#stop), 0, 1);
    this.#worker.postMessage({ kind: 'stop' });
    await this.#exited;
  }

  #newRun(): Run {
    let resolve!: (report: RetagReport) => void;
    let reject!: (err: unknown) => void;
    const promise = new Promise<RetagReport>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    // Callers that do not wait (a harvest's follow-up) must not see an unhandled rejection at shutdown.
    promise.catch(() => {});
    return { seq: ++this.#seq, promise, resolve, reject };
  }

  #start(run: Run): void {
    this.#running = run;
    this.#worker.postMessage({ kind: 'retag', seq: run.seq });
  }

  #receive(reply: TagReply): void {
    const run = this.#running;
    if (!run || run.seq !== reply.seq) return;
    switch (reply.kind) {
      case 'progress':
        this.#progress = { done: reply.done, total: reply.total };
        return;
      case 'done':
        this.#finish();
        this.#failures = 0;
        this.#lastError = null;
        try {
          if (reply.report.stalePapers > 0) {
            this.#log(
              `tags: tagged ${reply.report.stalePapers} of ${reply.report.papers} papers in ${Math.round(reply.report.durationMs)} ms`,
            );
            this.#onTagged(reply.report);
          }
        } catch (err) {
          this.#log(`tags: after tagging: ${errorMessage(err)}`);
        } finally {
          // Whatever the follow-up did, the run is over: the server must not stay warming for ever.
          run.resolve(reply.report);
        }
        return;
      case 'error': {
        this.#finish();
        this.#lastError = reply.message;
        const delay = Math.min(MAX_RETRY_MS, this.#retryAfterMs * 2 ** this.#failures);
        this.#failures++;
        this.#log(`tags: tagging failed: ${reply.message}; trying again in ${Math.round(delay / 1000)} s`);
        this.#retry ??= setTimeout(() => {
          this.#retry = null;
          if (this.#alive === 'running') void this.retag().catch(() => {});
        }, delay);
        this.#retry.unref();
        run.reject(new QuireError('store-error', `Tagging failed: ${reply.message}`));
        return;
      }
    }
  }

  #finish(): void {
    this.#progress = null;
    this.#running = null;
    const next = this.#queued;
    this.#queued = null;
    if (next) this.#start(next);
  }

  #fail(why: string): void {
    if (this.#alive !== 'running') return;
    this.#alive = 'failed';
    this.#log(`tags: ${why}; see the server log.`);
    const error = new QuireError('unavailable', `Tagging is not running: ${why}.`);
    for (const run of [this.#running, this.#queued]) run?.reject(error);
    this.#running = this.#queued = null;
    this.#progress = null;
  }
}
