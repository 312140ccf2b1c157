import type { Fetch } from './client.ts';
import { loadTopics } from './read-through.ts';
import type { TopicSummary } from './types.ts';

/**
 * The topic list last fetched in this visit. Topic pages need only their neighbours' names from it, which
 * change with the taxonomy rather than with new papers, so a copy of any age will do.
 */
export class TopicCatalog {
  #topics: TopicSummary[] | null = null;
  #pending: Promise<TopicSummary[]> | null = null;

  remember(topics: TopicSummary[]): void {
    this.#topics = topics;
  }

  async topics(fetchFn: Fetch): Promise<TopicSummary[]> {
    if (this.#topics) return this.#topics;
    // The device's copy will do when offline: names change with the taxonomy, not with new papers.
    this.#pending ??= loadTopics(fetchFn)
      .then((sourced) => sourced.value)
      .finally(() => {
        this.#pending = null;
      });
    this.#topics = await this.#pending;
    return this.#topics;
  }

  /** Slug → name; empty when the list cannot be had, so that a page can still label links by slug. */
  async names(fetchFn: Fetch): Promise<Map<string, string>> {
    try {
      return new Map((await this.topics(fetchFn)).map((t) => [t.slug, t.name]));
    } catch {
      return new Map();
    }
  }
}

export const topicCatalog = new TopicCatalog();

/** A readable stand-in for a topic whose name is not known: "rl-for-llm-agents" → "Rl for llm agents". */
export function nameFromSlug(slug: string): string {
  const words = slug.replace(/-/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
