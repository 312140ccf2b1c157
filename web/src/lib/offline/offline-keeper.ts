import { isUnreachable } from '../api/api-error.ts';
import { fetchPapers, fetchTopic, type Fetch } from '../api/client.ts';
import { FOLLOWED_RECENT, needsRefresh } from './cache-rules.ts';
import type { OfflineData } from './offline-data.ts';

export interface OfflineKeeperOptions {
  now?: () => number;
  /** A topic refreshed less than this long ago in this visit is not refreshed again by a follow. */
  topicRefreshMs?: number;
}

/**
 * Keeps what a reader will want on the train, in the background: followed topics with their newest
 * papers, and the full record of every saved paper (the reading list itself keeps only a snapshot). One
 * refresh runs at a time; an unreachable server ends the round quietly, to be tried again at the next start
 * or when the network comes back.
 */
export class OfflineKeeper {
  readonly #data: OfflineData;
  readonly #fetch: Fetch;
  readonly #now: () => number;
  readonly #topicRefreshMs: number;
  readonly #topicsRefreshedAt = new Map<string, number>();
  #queue: Promise<void> = Promise.resolve();

  constructor(data: OfflineData, fetchFn: Fetch, options: OfflineKeeperOptions = {}) {
    this.#data = data;
    this.#fetch = fetchFn;
    this.#now = options.now ?? (() => Date.now());
    this.#topicRefreshMs = options.topicRefreshMs ?? 10 * 60 * 1000;
  }

  /** Refreshes the followed topics; `force` (app start, network back) ignores when they were last done. */
  keepTopics(slugs: readonly string[], force = false): Promise<void> {
    const now = this.#now();
    const due = slugs.filter((slug) => {
      const at = this.#topicsRefreshedAt.get(slug);
      return force || at === undefined || now - at >= this.#topicRefreshMs;
    });
    return this.#enqueue(async () => {
      for (const slug of due) {
        try {
          const topic = await fetchTopic(this.#fetch, slug);
          await this.#data.putTopic(topic);
          await this.#keepPapers(topic.paperIds.slice(0, FOLLOWED_RECENT));
          this.#topicsRefreshedAt.set(slug, this.#now());
        } catch (err) {
          // No server: the other topics would fail the same way. Anything else (a topic since removed
          // from the taxonomy) costs only that topic.
          if (isUnreachable(err)) throw err;
        }
      }
    });
  }

  /** Makes sure these papers (the reading list) are kept whole; fetches only those missing or stale. */
  keepPapers(ids: readonly string[]): Promise<void> {
    return this.#enqueue(() => this.#keepPapers(ids));
  }

  async #keepPapers(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    const kept = await this.#data.getPapers(ids);
    const now = this.#now();
    const stale = ids.filter((id) => needsRefresh(kept.get(id)?.storedAt, now));
    if (stale.length === 0) return;
    const results = await fetchPapers(this.#fetch, stale, { concurrency: 3 });
    await this.#data.putPapers(results.flatMap((r) => ('paper' in r ? [r.paper] : [])));
  }

  #enqueue(task: () => Promise<void>): Promise<void> {
    const run = this.#queue.then(task).catch(() => {
      // Background work: it is tried again at the next start, follow, save or return of the network.
    });
    this.#queue = run;
    return run;
  }
}
