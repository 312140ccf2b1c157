/**
 * The papers the inbox chooses from: the newest of each followed topic, through the API client, which
 * falls back on this device's copies offline. The document keeps only decisions, never these papers.
 * The group's own topics have no page on the server: their papers are matched here (custom-topic-papers.ts).
 */
import type { CustomTopic } from '@quire/core/group';
import { describeError } from '../api/api-error.ts';
import type { Fetch } from '../api/client.ts';
import { paperCache } from '../api/paper-cache.ts';
import { loadTopic } from '../api/read-through.ts';
import type { PaperView } from '../api/types.ts';
import { isCustomTopicSlug } from './custom-topic-matches.ts';
import { loadCustomTopicPapers } from './custom-topic-papers.ts';

/** Newest papers read per followed topic: about a week of a busy topic. */
export const PER_TOPIC = 40;

export interface InboxPapers {
  /** Topic names by slug, for the topics that loaded. */
  names: ReadonlyMap<string, string>;
  papers: ReadonlyMap<string, PaperView>;
  /** The group's own topics each paper is tagged with (its server tags are on the paper). */
  customTags: ReadonlyMap<string, readonly string[]>;
  /** What could not be loaded, in sentences. */
  errors: string[];
}

/** `custom`: the group's own topics; those among `slugs` are matched instead of fetched. */
export async function loadInboxPapers(
  fetchFn: Fetch,
  slugs: readonly string[],
  custom: readonly CustomTopic[] = [],
): Promise<InboxPapers> {
  const followedCustom = custom.filter((t) => slugs.includes(t.slug));
  const matching = loadCustomTopicPapers(fetchFn, followedCustom, PER_TOPIC);
  const served = slugs.filter((slug) => !isCustomTopicSlug(slug));
  const topics = await Promise.allSettled(served.map((slug) => loadTopic(fetchFn, slug)));
  const names = new Map<string, string>(followedCustom.map((t) => [t.slug, t.name]));
  const ids = new Set<string>();
  const errors: string[] = [];
  topics.forEach((result, i) => {
    if (result.status === 'fulfilled') {
      const topic = result.value.value;
      names.set(topic.slug, topic.name);
      for (const id of topic.paperIds.slice(0, PER_TOPIC)) ids.add(id);
    } else {
      errors.push(`Could not load the topic ${served[i] ?? ''}: ${describeError(result.reason)}`);
    }
  });
  const papers = new Map<string, PaperView>();
  try {
    for (const r of await paperCache.getMany(fetchFn, [...ids])) if ('paper' in r) papers.set(r.id, r.paper);
  } catch (err) {
    errors.push(`Could not load the topics’ papers: ${describeError(err)}`);
  }
  const customTags = new Map<string, string[]>();
  const matched = await matching;
  for (const [slug, list] of matched.matches) {
    for (const { paper } of list) {
      papers.set(paper.id, paper);
      customTags.set(paper.id, [...(customTags.get(paper.id) ?? []), slug]);
    }
  }
  if (matched.offline) {
    errors.push(
      'The group’s own topics find their papers with the server’s search, which cannot be reached.',
    );
  }
  errors.push(...matched.errors);
  return { names, papers, customTags, errors };
}
