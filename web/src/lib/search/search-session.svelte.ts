import { version } from '$app/environment';
import { CoreError, type SearchResponseDto, type SearchResultDto, type SearchSort } from '@quire/core';
import { ApiError, describeError, isUnreachable } from '../api/api-error.ts';
import { searchPapers, type Fetch } from '../api/client.ts';
import { deviceCache } from '../offline/device-cache.ts';
import type { OfflineSearch } from '../offline/offline-search.ts';

/** Results per request, and per "Load more". */
export const PAGE_SIZE = 20;
/** How long typing must pause before a request goes out. */
export const DEBOUNCE_MS = 150;

export interface SearchFailure {
  /** A 400 is the query's fault (a bad filter): the reader fixes the query, not the network. */
  badQuery: boolean;
  message: string;
}

/** The offline search, loaded on first need: it brings minisearch, which no other page needs. */
async function offlineSearch(): Promise<OfflineSearch> {
  const { offlineSearchFor } = await import('../offline/offline-search.ts');
  return offlineSearchFor(deviceCache, { format: version });
}

interface Answer {
  response: SearchResponseDto;
  /** Papers searched on this device when the server could not be reached; null for the server's answer. */
  offlinePapers: number | null;
}

/**
 * The search box's text and what the server answered for it. When the server cannot be reached, the
 * papers kept on this device are searched instead, with the same syntax and weighting. One instance serves the header's box and the
 * search page, so typing anywhere shows on the page. Every new query cancels the request still in flight for
 * an older one, so a slow answer never overwrites a newer one.
 */
export class SearchSession {
  /** What is in the box, as typed. */
  text = $state('');
  /** Best match first, or newest listing first (the search page's toggle). */
  sort = $state<SearchSort>('relevance');
  /** The query the results below belong to. */
  shownQuery = $state('');
  response = $state.raw<SearchResponseDto | null>(null);
  results = $state.raw<SearchResultDto[]>([]);
  loading = $state(false);
  loadingMore = $state(false);
  failure = $state.raw<SearchFailure | null>(null);
  /** Set while the results come from this device: how many papers it holds. */
  offline = $state.raw<{ papers: number } | null>(null);

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
      const { response, offlinePapers } = await this.#search(fetchFn, q, 0, controller.signal);
      if (controller.signal.aborted) return;
      this.offline = offlinePapers === null ? null : { papers: offlinePapers };
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
      const { response } = await this.#search(
        fetchFn,
        this.shownQuery,
        this.results.length,
        controller.signal,
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

  /** Loads the offline index ahead of need (the network just went), so the first offline search is quick. */
  async prepareOffline(): Promise<void> {
    try {
      await (await offlineSearch()).ready();
    } catch {
      // Only a head start: the search itself loads the index again and reports what fails.
    }
  }

  async #search(fetchFn: Fetch, q: string, offset: number, signal: AbortSignal): Promise<Answer> {
    try {
      const sort = this.sort;
      const response = await searchPapers(fetchFn, q, { limit: PAGE_SIZE, offset, sort }, { signal });
      return { response, offlinePapers: null };
    } catch (err) {
      if (!isUnreachable(err)) throw err;
      const offline = await offlineSearch();
      const response = await offline.search(q, { limit: PAGE_SIZE, offset, sort: this.sort });
      // Nothing kept to search: "cannot reach the server" is the true answer.
      if (offline.size === 0) throw err;
      return { response, offlinePapers: offline.size };
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
  // Offline, core itself refuses a malformed filter, in the words the server would use.
  const badQuery = (err instanceof ApiError && err.status === 400) || err instanceof CoreError;
  return { badQuery, message: describeError(err) };
}

export const searchSession = new SearchSession();
