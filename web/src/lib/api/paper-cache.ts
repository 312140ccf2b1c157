import {
  fetchPaper,
  fetchPapers,
  type Fetch,
  type ManyOptions,
  type PaperResult,
  type RequestOptions,
} from './client.ts';
import type { PaperView } from './types.ts';

/**
 * Papers fetched during this visit, so that going back to a topic page or opening a paper from a card does
 * not ask the server again. Bounded: the oldest entries leave first.
 */
export class PaperCache {
  readonly #papers = new Map<string, PaperView>();
  readonly #limit: number;

  constructor(limit = 2000) {
    this.#limit = limit;
  }

  peek(id: string): PaperView | undefined {
    return this.#papers.get(id);
  }

  put(paper: PaperView): void {
    this.#papers.delete(paper.id);
    this.#papers.set(paper.id, paper);
    if (this.#papers.size > this.#limit) {
      const oldest = this.#papers.keys().next();
      if (!oldest.done) this.#papers.delete(oldest.value);
    }
  }

  async get(fetchFn: Fetch, id: string, options?: RequestOptions): Promise<PaperView> {
    const hit = this.#papers.get(id);
    if (hit) return hit;
    const paper = await fetchPaper(fetchFn, id, options);
    this.put(paper);
    return paper;
  }

  /** The papers of `ids` in order, fetching only those not already held. */
  async getMany(fetchFn: Fetch, ids: readonly string[], options?: ManyOptions): Promise<PaperResult[]> {
    const held = new Map<string, PaperView>();
    const missing: string[] = [];
    for (const id of ids) {
      const paper = this.#papers.get(id);
      if (paper) held.set(id, paper);
      else missing.push(id);
    }
    const fetched = new Map<string, PaperResult>();
    for (const result of await fetchPapers(fetchFn, missing, options)) {
      fetched.set(result.id, result);
      if ('paper' in result) this.put(result.paper);
    }
    // fetchPapers answers every id it was given, so each id is in one of the two maps.
    return ids.map((id): PaperResult => {
      const paper = held.get(id);
      return paper ? { id, paper } : (fetched.get(id) as PaperResult);
    });
  }
}

/** The one cache of the running app. */
export const paperCache = new PaperCache();
