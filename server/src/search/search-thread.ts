import type { Worker } from 'node:worker_threads';
import { CoreError, type RelatedPapersDto, type SearchResponseDto } from '@quire/core';
import { QuireError } from '../errors.ts';
import { startWorker } from '../threads/start-worker.ts';
import type {
  SearchErrorData,
  SearchReply,
  SearchRequest,
  SearchWorkerData,
} from './search-thread-messages.ts';
import type { SearchApi, SearchPage } from './search-service.ts';

const WORKER_ENTRY = new URL('./search-worker.ts', import.meta.url);

type RequestBody = SearchRequest extends infer R ? (R extends SearchRequest ? Omit<R, 'seq'> : never) : never;

export interface SearchThreadOptions {
  log?: (line: string) => void;
  /** The index is built once this settles (the store's tags brought up to date); at once when left out. */
  buildAfter?: Promise<unknown>;
}

interface Pending {
  resolve(value: SearchReply & { kind: 'answer' }): void;
  reject(err: unknown): void;
}

/**
 * Search in a worker thread over its own read-only connection to the store's file. The server answers
 * from the first millisecond: pings and pages never wait for the index, and searches asked before it is
 * built (or before `buildAfter` lets the build start) wait for it there (`ready` says when; /api/status
 * and /api/ready report it).
 */
export class SearchThread implements SearchApi {
  readonly #worker: Worker;
  readonly #log: (line: string) => void;
  readonly #pending = new Map<number, Pending>();
  readonly #gate = new SharedArrayBuffer(4);
  readonly ready: Promise<void>;
  #seq = 0;
  #state: 'warming' | 'ready' | 'failed' | 'closed' = 'warming';
  #failure: SearchErrorData | null = null;

  constructor(dbPath: string, options: SearchThreadOptions = {}) {
    this.#log = options.log ?? (() => {});
    this.#worker = startWorker(WORKER_ENTRY, { dbPath, gate: this.#gate } satisfies SearchWorkerData);
    const open = () => this.#openGate();
    if (options.buildAfter) options.buildAfter.then(open, open);
    else open();
    this.ready = new Promise<void>((resolve, reject) => {
      this.#worker.on('message', (reply: SearchReply) => {
        switch (reply.kind) {
          case 'ready':
            this.#state = 'ready';
            this.#log(`search: indexed ${reply.papers} papers in ${Math.round(reply.durationMs)} ms`);
            resolve();
            return;
          case 'failed':
            this.#fail(reply.error);
            reject(toError(reply.error));
            return;
          case 'log':
            this.#log(reply.line);
            return;
          case 'answer':
            this.#settle(reply.seq, (p) => p.resolve(reply));
            return;
          case 'error':
            this.#settle(reply.seq, (p) => p.reject(toError(reply.error)));
            return;
        }
      });
      const stopped = (why: string) => {
        if (this.#state === 'closed') return;
        this.#fail({
          type: 'quire',
          code: 'store-error',
          message: `The search thread stopped (${why}); see the server log.`,
          status: 500,
        });
        reject(toError(this.#failure!));
      };
      this.#worker.on('error', (err) => stopped(err.message));
      this.#worker.on('exit', (code) => stopped(`exit code ${code}`));
    });
    // Start-up failures are reported through #failure to each request; nobody need await `ready`.
    this.ready.catch(() => {});
  }

  /** 'warming' until the index is built, then 'ready'; 'failed' if the thread could not build it. */
  get state(): 'warming' | 'ready' | 'failed' | 'closed' {
    return this.#state;
  }

  async search(q: string, page: SearchPage): Promise<SearchResponseDto> {
    return (await this.#call({ kind: 'search', q, page })).value as SearchResponseDto;
  }

  async related(
    id: string,
    limit: number,
    topicSizes: ReadonlyMap<string, number>,
  ): Promise<RelatedPapersDto> {
    const sizes = new Map(topicSizes);
    return (await this.#call({ kind: 'related', id, limit, topicSizes: sizes })).value as RelatedPapersDto;
  }

  /** Tells the thread the store's papers (and their tags) changed; see `SearchService.refresh`. */
  refresh(options: { full?: boolean } = {}): void {
    if (this.#state === 'failed' || this.#state === 'closed') return;
    void this.#call({ kind: 'refresh', full: options.full ?? false }).catch((err: unknown) => {
      this.#log(`search: refreshing the index failed: ${err instanceof Error ? err.message : String(err)}`);
    });
  }

  async close(): Promise<void> {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    const closing = new QuireError('store-error', 'The server is shutting down; search is closed.', 503);
    for (const pending of this.#pending.values()) pending.reject(closing);
    this.#pending.clear();
    this.#openGate();
    await this.#worker.terminate();
  }

  #openGate(): void {
    const gate = new Int32Array(this.#gate);
    Atomics.store(gate, 0, 1);
    Atomics.notify(gate, 0);
  }

  #call(body: RequestBody): Promise<SearchReply & { kind: 'answer' }> {
    if (this.#failure) return Promise.reject(toError(this.#failure));
    if (this.#state === 'closed') {
      return Promise.reject(
        new QuireError('store-error', 'The server is shutting down; search is closed.', 503),
      );
    }
    const seq = ++this.#seq;
    return new Promise((resolve, reject) => {
      this.#pending.set(seq, { resolve, reject });
      this.#worker.postMessage({ ...body, seq });
    });
  }

  #settle(seq: number, fn: (pending: Pending) => void): void {
    const pending = this.#pending.get(seq);
    if (!pending) return;
    this.#pending.delete(seq);
    fn(pending);
  }

  #fail(error: SearchErrorData): void {
    this.#state = 'failed';
    this.#failure = error;
    this.#log(`search: ${error.message}`);
    for (const pending of this.#pending.values()) pending.reject(toError(error));
    this.#pending.clear();
  }
}

function toError(error: SearchErrorData): QuireError | CoreError {
  if (error.type === 'core') return new CoreError(error.code, error.message);
  return new QuireError(error.code, error.message, error.status);
}
