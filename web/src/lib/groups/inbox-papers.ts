/**
 * The papers the inbox chooses from: the newest of each followed topic, through the API client, which
 * falls back on this device's copies offline. The document keeps only decisions, never these papers.
 */
import { describeError } from '../api/api-error.ts';
import type { Fetch } from '../api/client.ts';
import { paperCache } from '../api/paper-cache.ts';
import { loadTopic } from '../api/read-through.ts';
import type { PaperView } from '../api/types.ts';

/** Newest papers read per followed topic: about a week of a busy topic. */
export const PER_TOPIC = 40;

export interface InboxPapers {
  /** Topic names by slug, for the topics that loaded. */
  names: ReadonlyMap<string, string>;
  papers: ReadonlyMap<string, PaperView>;
  /** What could not be loaded, in sentences. */
  errors: string[];
}

export async function loadInboxPapers(fetchFn: Fetch, slugs: readonly string[]): Promise<InboxPapers> {
  const topics = await Promise.allSettled(slugs.map((slug) => loadTopic(fetchFn, slug)));
  const names = new Map<string, string>();
  const ids = new Set<string>();
  const errors: string[] = [];
  topics.forEach((result, i) => {
    if (result.status === 'fulfilled') {
      const topic = result.value.value;
      names.set(topic.slug, topic.name);
      for (const id of topic.paperIds.slice(0, PER_TOPIC)) ids.add(id);
    } else {
      errors.push(`Could not load the topic ${slugs[i] ?? ''}: ${describeError(result.reason)}`);
    }
  });
  const papers = new Map<string, PaperView>();
  try {
    for (const r of await paperCache.getMany(fetchFn, [...ids])) if ('paper' in r) papers.set(r.id, r.paper);
  } catch (err) {
    errors.push(`Could not load the topics’ papers: ${describeError(err)}`);
  }
  return { names, papers, errors };
}
