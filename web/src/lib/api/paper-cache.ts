import { deviceCache } from '../offline/device-cache.ts';
import type { OfflineData, PaperRecord } from '../offline/offline-data.ts';
import { ApiError, isUnreachable } from './api-error.ts';
import {
  fetchPaper,
  fetchPapers,
  type Fetch,
  type ManyOptions,
  type PaperResult,
  type RequestOptions,
} from './client.ts';
import { reportReachability } from './reachability.ts';
import type { Sourced } from './read-through.ts';
import type { PaperView } from './types.ts';

function notKept(id: string): ApiError {
  return new ApiError(
    'unreachable',
    0,
    'unreachable',
    `Paper ${id} is not kept on this device and the server cannot be reached; it loads once you are back online.`,
  );
}

/**
 * Papers fetched during this visit, so that going back to a topic page or opening a paper from a card does
 * not ask the server again. Bounded: the oldest entries leave first. Every paper fetched is also kept on
 * the device (`OfflineData`), which answers when the server cannot be reached; those copies are not held
 * here, so the server is asked again once it is back.
 */
export class PaperCache {
  readonly #papers = new Map<string, PaperView>();
  readonly #limit: number;
  readonly #device: OfflineData | null;

  constructor(limit = 2000, device: OfflineData | null = null) {
    this.#limit = limit;
    this.#device = device;
  }

  peek(id: string): PaperView | undefined {
    return this.#papers.get(id);
  }

  /** The papers of `ids` in order if every one is held, else null: a page can then render them at once. */
  peekMany(ids: readonly string[]): PaperResult[] | null {
    const out: PaperResult[] = [];
    for (const id of ids) {
      const paper = this.#papers.get(id);
      if (!paper) return null;
      out.push({ id, paper });
    }
    return out;
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
    return (await this.load(fetchFn, id, options)).value;
  }

  /** The paper, and when the device stored it if that copy is what could be had. */
  async load(fetchFn: Fetch, id: string, options?: RequestOptions): Promise<Sourced<PaperView>> {
    const hit = this.#papers.get(id);
    if (hit) return { value: hit, savedAt: null };
    let paper: PaperView;
    try {
      paper = await fetchPaper(fetchFn, id, options);
    } catch (err) {
      if (!isUnreachable(err)) throw err;
      const kept = await this.#device?.getPaper(id);
      if (!kept) throw err;
      reportReachability({ kind: 'served-from-device', storedAt: kept.storedAt });
      return { value: kept.paper, savedAt: kept.storedAt };
    }
    this.put(paper);
    void this.#device?.putPapers([paper]);
    return { value: paper, savedAt: null };
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
    for (const result of await this.#fetchOrKept(fetchFn, missing, options)) fetched.set(result.id, result);
    // Both sources answer every id they are given, so each id is in one of the two maps.
    return ids.map((id): PaperResult => {
      const paper = held.get(id);
      return paper ? { id, paper } : (fetched.get(id) as PaperResult);
    });
  }

  async #fetchOrKept(fetchFn: Fetch, ids: readonly string[], options?: ManyOptions): Promise<PaperResult[]> {
    try {
      const results = await fetchPapers(fetchFn, ids, options);
      const papers = results.flatMap((r) => ('paper' in r ? [r.paper] : []));
      for (const paper of papers) this.put(paper);
      void this.#device?.putPapers(papers);
      return results;
    } catch (err) {
      if (!isUnreachable(err)) throw err;
      const kept = (await this.#device?.getPapers(ids)) ?? new Map<string, PaperRecord>();
      // None kept: the server's "cannot reach" says more than a list of papers that could not load.
      if (kept.size === 0) throw err;
      reportReachability({
        kind: 'served-from-device',
        storedAt: Math.min(...[...kept.values()].map((k) => k.storedAt)),
      });
      return ids.map((id): PaperResult => {
        const record = kept.get(id);
        return record ? { id, paper: record.paper } : { id, error: notKept(id) };
      });
    }
  }
}

/** The one cache of the running app. */
export const paperCache = new PaperCache(2000, deviceCache);
