import type { Worker } from 'node:worker_threads';
import type { CompileOptions, CompiledTaxonomy, PaperTag, TaggablePaper, Taxonomy } from '@quire/core';
import type { EncodedTag } from '../store/tag-store.ts';
import { QuireError } from '../errors.ts';
import { startWorker } from '../threads/start-worker.ts';
import type { TagPoolReply, TagPoolRequest, TagPoolData } from './tag-pool-messages.ts';

const WORKER_ENTRY = new URL('./tag-pool-worker.ts', import.meta.url);

/** Tags pages of papers: each paper's tags, in the page's order. */
export interface PageTagger {
  tag(papers: readonly TaggablePaper[]): Promise<(PaperTag | EncodedTag)[][]>;
  close(): Promise<void>;
}

/** Tags on the calling thread with an engine compiled there. */
export function tagHere(engine: CompiledTaxonomy): PageTagger {
  return {
    tag: (papers) => Promise.resolve(papers.map((p) => engine.tag(p))),
    close: () => Promise.resolve(),
  };
}

interface Waiting {
  resolve(tags: EncodedTag[][]): void;
  reject(err: unknown): void;
}

/**
 * Tags in worker threads, each with its own engine compiled from the same taxonomy and statistics as the
 * calling thread's would be, so the tags are the same; the calling thread meanwhile reads the next page
 * and writes the last one's tags. Pages go to the threads in turn and are answered in the order asked.
 */
export class TagPool implements PageTagger {
  readonly #workers: Worker[];
  readonly #waiting = new Map<number, Waiting>();
  #seq = 0;
  #failure: QuireError | null = null;
  #closed = false;
  readonly #cpuMs: (number | null)[];

  constructor(threads: number, taxonomy: Taxonomy, stats: CompileOptions) {
    const data: TagPoolData = { taxonomy, stats };
    this.#cpuMs = Array.from({ length: Math.max(1, threads) }, () => null);
    this.#workers = Array.from({ length: Math.max(1, threads) }, (_, i) => {
      const worker = startWorker(WORKER_ENTRY, data);
      worker.on('message', (reply: TagPoolReply) => {
        this.#cpuMs[i] = reply.cpuMs;
        this.#receive(reply);
      });
      worker.on('error', (err) => this.#fail(`it failed: ${err.message}`));
      worker.on('exit', (code) => {
        if (!this.#closed) this.#fail(`it stopped (exit code ${code})`);
      });
      return worker;
    });
  }

  tag(papers: readonly TaggablePaper[]): Promise<EncodedTag[][]> {
    if (this.#failure) return Promise.reject(this.#failure);
    const seq = ++this.#seq;
    const worker = this.#workers[seq % this.#workers.length];
    // Only what the engine reads: a stored paper also carries when it was written.
    const request: TagPoolRequest = {
      seq,
      papers: papers.map(({ id, title, abstract, categories }) => ({ id, title, abstract, categories })),
    };
    const answered = new Promise<EncodedTag[][]>((resolve, reject) => {
      this.#waiting.set(seq, { resolve, reject });
    });
    worker?.postMessage(request);
    return answered;
  }

  /** The threads' CPU time together, as of each one's last answer (null where the system does not say). */
  get cpuMs(): number | null {
    let sum = 0;
    for (const ms of this.#cpuMs) {
      if (ms === null) return null;
      sum += ms;
    }
    return sum;
  }

  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all(this.#workers.map((w) => w.terminate()));
    this.#fail('the re-tag ended');
  }

  #receive(reply: TagPoolReply): void {
    const waiting = this.#waiting.get(reply.seq);
    this.#waiting.delete(reply.seq);
    if (!waiting) return;
    if ('error' in reply) {
      waiting.reject(new QuireError('store-error', `Tagging a page of papers failed: ${reply.error}`));
    } else waiting.resolve(reply.tags);
  }

  #fail(why: string): void {
    this.#failure ??= new QuireError(
      'store-error',
      `A tagging thread is gone (${why}); the pages tagged so far stay stored, and the next re-tag goes on from the papers still stale.`,
    );
    for (const waiting of this.#waiting.values()) waiting.reject(this.#failure);
    this.#waiting.clear();
  }
}
