import { normaliseArxivId, normalisePaper, type PaperEntity } from '@quire/core';
import { QuireError } from '../errors.ts';
import { parseAtomFeed } from '../sources/atom.ts';
import type { PoliteHttpClient } from './http-client.ts';
import type { HarvestTarget } from './harvest-target.ts';

export interface FetchPaperOptions {
  apiUrl: string;
  client: PoliteHttpClient;
  target: HarvestTarget;
  now?: () => Date;
  signal?: AbortSignal;
}

/**
 * Fetches one paper the store lacks (a pasted id or URL) through the query API and stores it. The API
 * gives the v1 date, so the listing date is estimated until a listing feed says otherwise.
 */
export async function fetchPaper(idOrUrl: string, options: FetchPaperOptions): Promise<PaperEntity> {
  const id = normaliseArxivId(idOrUrl);
  const now = options.now ?? (() => new Date());
  const startedAt = now();
  const url = `${options.apiUrl}?id_list=${encodeURIComponent(id)}&max_results=1`;
  const res = await options.client.get(url, options.signal);
  if (res.status >= 500)
    throw new QuireError('source-http-error', `${url} answered HTTP ${res.status}. Try again later.`);
  const feed = parseAtomFeed(res.body, url);
  if (feed.error) throw new QuireError('bad-input', `arXiv rejected the id ${id}: ${feed.error}`);
  const entry = feed.entries.find((e) => normaliseArxivId(e.id) === id);
  if (!entry)
    throw new QuireError(
      'not-found',
      `arXiv has no paper ${id}. Check the id (e.g. 2604.12345 or hep-th/9901001).`,
    );
  const paper = normalisePaper(entry);
  const counts = await options.target.storeBatches([{ papers: [paper], countsAsListing: true }], null);
  await options.target.logIngest({
    kind: 'fetch',
    source: `api ${options.apiUrl} ${id}`,
    startedAt,
    finishedAt: now(),
    ...counts,
    skipped: 0,
    errors: [],
    status: 'ok',
  });
  return paper;
}

export interface PaperFetcherOptions extends Omit<FetchPaperOptions, 'signal'> {
  /** Distinct ids fetched or waiting for the client at once; one more is refused with 429. */
  maxPending: number;
}

/**
 * On-demand fetches for the API, where anyone who can reach the server chooses the ids. The polite client
 * spaces every arXiv request 3 s apart, so an unbounded queue of fetches would delay the harvest and
 * answer its last callers minutes late: requests for an id already being fetched share that fetch, and
 * past `maxPending` distinct ids new ones are refused until some finish.
 */
export class PaperFetcher {
  readonly #pending = new Map<string, Promise<PaperEntity>>();

  constructor(private readonly options: PaperFetcherOptions) {
    if (!Number.isInteger(options.maxPending) || options.maxPending < 1) {
      throw new QuireError(
        'bad-input',
        `QUIRE_FETCH_MAX_PENDING must be a whole number of at least 1, not "${options.maxPending}".`,
      );
    }
  }

  /** Ids being fetched now. */
  get pending(): number {
    return this.#pending.size;
  }

  fetch(idOrUrl: string): Promise<PaperEntity> {
    const id = normaliseArxivId(idOrUrl);
    const running = this.#pending.get(id);
    if (running) return running;
    const { maxPending, ...fetchOptions } = this.options;
    if (this.#pending.size >= maxPending) {
      return Promise.reject(
        new QuireError(
          'rate-limited',
          `${this.#pending.size} papers are already being fetched from arXiv, the most this server queues at once (QUIRE_FETCH_MAX_PENDING=${maxPending}). Try again in a minute.`,
        ),
      );
    }
    const run = fetchPaper(id, fetchOptions).finally(() => this.#pending.delete(id));
    this.#pending.set(id, run);
    return run;
  }
}
