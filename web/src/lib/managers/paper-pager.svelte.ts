import { describeError } from '../api/api-error.ts';
import type { Fetch, PaperResult } from '../api/client.ts';
import { paperCache, type PaperCache } from '../api/paper-cache.ts';

export const PAGE_SIZE = 20;

export interface PaperPagerOptions {
  fetch: Fetch;
  pageSize?: number;
  cache?: PaperCache;
  /** Papers already fetched for the start of the list (by the page's load function). */
  initial?: PaperResult[];
}

/**
 * A long list of papers known by id (a topic's, newest first), fetched a page at a time as the reader asks
 * for more, so that a topic with thousands of papers costs one page of requests.
 */
export class PaperPager {
  readonly ids: readonly string[];
  readonly pageSize: number;
  /** The papers shown so far, in list order; a paper the server could not give keeps its slot. */
  items = $state.raw<PaperResult[]>([]);
  loading = $state(false);
  error = $state<string | null>(null);
  readonly #fetch: Fetch;
  readonly #cache: PaperCache;
  readonly #abort = new AbortController();

  constructor(ids: readonly string[], options: PaperPagerOptions) {
    this.ids = ids;
    this.pageSize = options.pageSize ?? PAGE_SIZE;
    this.#fetch = options.fetch;
    this.#cache = options.cache ?? paperCache;
    this.items = options.initial ?? [];
  }

  get shown(): number {
    return this.items.length;
  }

  get hasMore(): boolean {
    return this.items.length < this.ids.length;
  }

  loadMore(): Promise<void> {
    return this.showAtLeast(this.items.length + this.pageSize);
  }

  /** Fetches until `count` papers are shown (or all of them); used to restore a list on going back. */
  async showAtLeast(count: number): Promise<void> {
    const target = Math.min(count, this.ids.length);
    if (this.loading || target <= this.items.length) return;
    this.loading = true;
    this.error = null;
    try {
      const more = await this.#cache.getMany(this.#fetch, this.ids.slice(this.items.length, target), {
        signal: this.#abort.signal,
      });
      if (!this.#abort.signal.aborted) this.items = [...this.items, ...more];
    } catch (err) {
      if (!this.#abort.signal.aborted) this.error = describeError(err);
    } finally {
      this.loading = false;
    }
  }

  /** Stops requests in flight; call when the list leaves the page. */
  destroy(): void {
    this.#abort.abort();
  }
}
