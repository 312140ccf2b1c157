import { ApiError } from '$lib/api/api-error.ts';
import { failLoad } from '$lib/api/load-error.ts';
import { loadTopics } from '$lib/api/read-through.ts';
import { topicCatalog } from '$lib/api/topic-catalog.ts';
import type { PageLoad } from './$types';

export const load = (async ({ fetch }) => {
  try {
    const { value: topics, savedAt } = await loadTopics(fetch);
    topicCatalog.remember(topics);
    return { topics, empty: null, savedAt };
  } catch (err) {
    // An empty store answers 404 with a sentence saying so: an empty directory, not a broken page.
    if (err instanceof ApiError && err.kind === 'server' && err.status === 404) {
      return { topics: [], empty: err.message, savedAt: null };
    }
    return failLoad(err, 'topics');
  }
}) satisfies PageLoad;
