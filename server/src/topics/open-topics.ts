import { defaultTaxonomy, type Taxonomy } from '@quire/core';
import type { PaperSide } from '../store/stores.ts';
import { retag, type RetagOptions, type RetagReport } from './retag.ts';
import { TopicService } from './topic-service.ts';

/** What topics are read from, on either engine. */
export type TopicStores = Pick<PaperSide, 'tags' | 'topicCounts'>;

/** The topic service over a store's tags and counts. */
export function topicServiceOver(store: TopicStores, taxonomy: Taxonomy = defaultTaxonomy()): TopicService {
  return new TopicService(store.tags, store.topicCounts, taxonomy);
}

/**
 * The topic service over a store with its tags brought up to date first (a no-op costing two small queries
 * when nothing changed), so every reader sees tags that match the taxonomy and the papers.
 */
export async function openTopics(
  store: TopicStores,
  taxonomy: Taxonomy = defaultTaxonomy(),
  options: RetagOptions = {},
): Promise<{ topics: TopicService; retagged: RetagReport }> {
  const retagged = await retag(store.tags, taxonomy, options);
  return { topics: topicServiceOver(store, taxonomy), retagged };
}
