import type { Worker } from 'node:worker_threads';
import { CoreError, type RelatedPapersDto, type SearchResponseDto } from '@quire/core';
import { QuireError } from '../errors.ts';
import type { SearchSource } from '../store/search-reader.ts';
import { startWorker } from '../threads/start-worker.ts';
import type { SearchApi, SearchPage } from './search-api.ts';
import type {
  SearchErrorData,
  SearchReply,
  SearchRequest,
  SearchWorkerData,
} from './search-thread-messages.ts';

const WORKER_ENTRY = new URL('./search-worker.ts', import.meta.url);

type RequestBody = SearchRequest extends infer R ? (R extends SearchRequest ? Omit<R, 'seq'> : never) : never;

export interface SearchThreadOptions {
  log?: (line: string) => void;
}

interface Pending {
  resolve(value: SearchReply & { kind: 'answer' }): void;
  reject(err: unknown): void;
}

/**
 * Search in a worker thread over its own reader of the store (see search-worker.ts).
 * It answers from the start: the index is on disk and written with the papers. Requests sent before the
 * thread has loaded wait in its queue.
 */
export class SearchThread implements SearchApi {
  readonly #worker: Worker;
  readonly #log: (line: string) => void;
  readonly #pending = new Map<number, Pending>();
  #seq = 0;
  #state: 'ready' | 'failed' | 'closed' = 'ready';
  #failure: SearchErrorData | null = null;

  /** `source`: the SQLite file's path, or where the PostgreSQL index is. */
  constructor(source: string | SearchSource, options: SearchThreadOptions = {}) {
    this.#log = options.log ?? (() => {});
    const at: SearchSource = typeof source === 'string' ? { engine: 'sqlite', dbPath: source } : source;
    this.#worker = startWorker(WORKER_ENTRY, { source: at } satisfies SearchWorkerData);
    this.#worker.on('message', (reply: SearchReply) => {
      switch (reply.kind) {
        case 'failed':
          this.#fail(reply.error);
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
      if (this.#state === 'closed' || this.#state === 'failed') return;
      this.#fail({
        type: 'quire',
        code: 'unavailable',
        message: `The search thread stopped (${why}); see the server log.`,
      });
    };
    this.#worker.on('error', (err) => stopped(err.message));
    this.#worker.on('exit', (code) => stopped(`exit code ${code}`));
  }

  /** 'failed' if the thread could not open the store or stopped; its requests are answered with why. */
  get state(): 'ready' | 'failed' | 'closed' {
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

  async close(): Promise<void> {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    const closing = new QuireError('unavailable', 'The server is shutting down; search is closed.');
    for (const pending of this.#pending.values()) pending.reject(closing);
    this.#pending.clear();
    await this.#worker.terminate();
  }

  #call(body: RequestBody): Promise<SearchReply & { kind: 'answer' }> {
    if (this.#failure) return Promise.reject(toError(this.#failure));
    if (this.#state === 'closed') {
      return Promise.reject(new QuireError('unavailable', 'The server is shutting down; search is closed.'));
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
  return new QuireError(error.code, error.message);
}
