import type { Worker } from 'node:worker_threads';
import { CompiledTaxonomy } from '@quire/core';
import { QuireError } from '../errors.ts';
import { startWorker } from '../threads/start-worker.ts';
import type { ImportTagging } from './import-tagging.ts';
import { prepareLines, type PreparedLine } from './prepare-lines.ts';

const WORKER_ENTRY = new URL('./prepare-worker.ts', import.meta.url);

export interface PrepareRequest {
  seq: number;
  lines: string[];
}

export interface PrepareReply {
  seq: number;
  prepared: PreparedLine[];
  /** The thread's CPU time so far (threadCpuMs). */
  cpuMs: number | null;
}

/** Turns batches of dump lines into papers ready to store, answering in the order they were asked. */
export interface LinePreparer {
  prepare(lines: string[]): Promise<PreparedLine[]>;
  close(): Promise<void>;
}

/**
 * Prepares on the calling thread, without search terms (the store computes them as it writes); tags too
 * with `tagging`, the engine compiled on first use.
 */
export function prepareHere(tagging: ImportTagging | null): LinePreparer {
  let engine: CompiledTaxonomy | undefined;
  return {
    prepare: (lines) => {
      if (tagging) engine ??= new CompiledTaxonomy(tagging.taxonomy, tagging.stats);
      return Promise.resolve(prepareLines(lines, false, engine));
    },
    close: () => Promise.resolve(),
  };
}

interface Waiting {
  resolve(prepared: PreparedLine[]): void;
  reject(err: unknown): void;
}

/**
 * Prepares in a worker thread, search terms included, so that on two cores the parsing and normalising of
 * the next batches and their terms run while this thread writes the current one to SQLite: the writes
 * alone are then the import's pace. Batches are answered in order (one thread, first asked first done).
 */
export class PrepareThread implements LinePreparer {
  readonly #worker: Worker;
  readonly #waiting = new Map<number, Waiting>();
  #seq = 0;
  #failure: QuireError | null = null;
  #closed = false;
  #cpuMs: number | null = null;

  constructor() {
    this.#worker = startWorker(WORKER_ENTRY, {});
    this.#worker.on('message', (reply: PrepareReply) => {
      this.#cpuMs = reply.cpuMs;
      const waiting = this.#waiting.get(reply.seq);
      this.#waiting.delete(reply.seq);
      waiting?.resolve(reply.prepared);
    });
    this.#worker.on('error', (err) => this.#fail(`it failed: ${err.message}`));
    this.#worker.on('exit', (code) => {
      if (!this.#closed) this.#fail(`it stopped (exit code ${code})`);
    });
  }

  prepare(lines: string[]): Promise<PreparedLine[]> {
    if (this.#failure) return Promise.reject(this.#failure);
    const seq = ++this.#seq;
    return new Promise((resolve, reject) => {
      this.#waiting.set(seq, { resolve, reject });
      this.#worker.postMessage({ seq, lines } satisfies PrepareRequest);
    });
  }

  /** The thread's CPU time as of its last answer (null where the system does not say). */
  get cpuMs(): number | null {
    return this.#cpuMs;
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#worker.terminate();
    this.#fail('the import ended');
  }

  #fail(why: string): void {
    this.#failure ??= new QuireError(
      'store-error',
      `The import's parse thread is gone (${why}), so no more lines could be read; the batches stored so far stay stored, and importing the file again continues after them.`,
    );
    for (const waiting of this.#waiting.values()) waiting.reject(this.#failure);
    this.#waiting.clear();
  }
}
