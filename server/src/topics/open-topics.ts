import { defaultTaxonomy, type Taxonomy } from '@quire/core';
import type { Store } from '../store/open-store.ts';
import { retag, type RetagOptions, type RetagReport } from './retag.ts';
import { TopicService } from './topic-service.ts';

/**
 * The topic service over a store with its tags brought up to date first (a no-op costing two small queries
 * when nothing changed), so every reader sees tags that match the taxonomy and the papers.
 */
export function openTopics(
  store: Store,
  taxonomy: Taxonomy = defaultTaxonomy(),
  options: RetagOptions = {},
): { topics: TopicService; retagged: RetagReport } {
  const retagged = retag(store.db, taxonomy, options);
  return { topics: new TopicService(store.db, taxonomy), retagged };
}
