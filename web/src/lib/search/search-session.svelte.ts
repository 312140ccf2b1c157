import type { SearchResponseDto, SearchResultDto } from '@quire/core';
import { ApiError, describeError } from '../api/api-error.ts';
import { searchPapers, type Fetch } from '../api/client.ts';

/** Results per request, and per "Load more". */
export const PAGE_SIZE = 20;
/** How long typing must pause before a request goes out. */
export const DEBOUNCE_MS = 150;

export interface SearchFailure {
  /** A 400 is the query's fault (a bad filter): the reader fixes the query, not the network. */
  badQuery: boolean;
  message: string;
}

/**
 * The search box's text and what the server answered for it. One instance serves the header's box and the
 * search page, so typing anywhere shows on the page. Every new query cancels the request still in flight for
 * an older one, so a slow answer never overwrites a newer one.
 */
export class SearchSession {
  /** What is in the box, as typed. */
  text = $state('');
  /** The query the results below belong to. */
  shownQuery = $state('');
  response = $state.raw<SearchResponseDto | null>(null);
  results = $state.raw<SearchResultDto[]>([]);
  loading = $state(false);
  loadingMore = $state(false);
  failure = $state.raw<SearchFailure | null>(null);

  #controller: AbortController | null = null;
  #timer: ReturnType<typeof setTimeout> | null = null;

  get hasMore(): boolean {
    return this.response !== null && this.results.length < this.response.total;
  }

  /** Searches for `text` once typing has paused; `onFire` runs as the request goes out (to sync the URL). */
  schedule(fetchFn: Fetch, text: string, onFire?: (text: string) => void, delay = DEBOUNCE_MS): void {
    this.#clearTimer();
    this.#timer = setTimeout(() => {
      this.#timer = null;
      onFire?.(text);
      void this.run(fetchFn, text);
    }, delay);
  }

  /** Searches for `text` now, dropping any older request. An empty box clears the results. */
  async run(fetchFn: Fetch, text: string): Promise<void> {
    this.cancel();
    const q = text.trim();
    if (q === '') {
      this.shownQuery = '';
      this.response = null;
      this.results = [];
      this.failure = null;
      this.loading = false;
      return;
    }
    const controller = new AbortController();
    this.#controller = controller;
    this.loading = true;
    try {
      const response = await searchPapers(fetchFn, q, { limit: PAGE_SIZE }, { signal: controller.signal });
      if (controller.signal.aborted) return;
      this.response = response;
      this.results = response.results;
      this.shownQuery = q;
      this.failure = null;
    } catch (err) {
      if (controller.signal.aborted) return;
      this.response = null;
      this.results = [];
      this.shownQuery = q;
      this.failure = failureOf(err);
    } finally {
      if (this.#controller === controller) {
        this.#controller = null;
        this.loading = false;
      }
    }
  }

  /** The next page of the results shown, appended. */
  async more(fetchFn: Fetch): Promise<void> {
    if (!this.hasMore || this.loadingMore || this.loading) return;
    const controller = new AbortController();
    this.#controller = controller;
    this.loadingMore = true;
    try {
      const response = await searchPapers(
        fetchFn,
        this.shownQuery,
        { limit: PAGE_SIZE, offset: this.results.length },
        { signal: controller.signal },
      );
      if (controller.signal.aborted) return;
      const seen = this.results.map((r) => r.id);
      this.results = [...this.results, ...response.results.filter((r) => !seen.includes(r.id))];
      this.response = { ...response, results: this.results };
    } catch (err) {
      if (!controller.signal.aborted) this.failure = failureOf(err);
    } finally {
      if (this.#controller === controller) this.#controller = null;
      this.loadingMore = false;
    }
  }

  /** Drops the pending keystroke timer and the request in flight. */
  cancel(): void {
    this.#clearTimer();
    this.#controller?.abort();
    this.#controller = null;
    this.loading = false;
    this.loadingMore = false;
  }

  #clearTimer(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
  }
}

function failureOf(err: unknown): SearchFailure {
  const badQuery = err instanceof ApiError && err.status === 400;
  return { badQuery, message: describeError(err) };
}

export const searchSession = new SearchSession();
