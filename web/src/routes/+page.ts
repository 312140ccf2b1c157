import { ApiError } from '$lib/api/api-error.ts';
import { fetchTopics } from '$lib/api/client.ts';
import { failLoad } from '$lib/api/load-error.ts';
import { topicCatalog } from '$lib/api/topic-catalog.ts';
import type { PageLoad } from './$types';

export const load = (async ({ fetch }) => {
  try {
    const topics = await fetchTopics(fetch);
    topicCatalog.remember(topics);
    return { topics, empty: null };
  } catch (err) {
    // An empty store answers 404 with a sentence saying so: an empty directory, not a broken page.
    if (err instanceof ApiError && err.kind === 'server' && err.status === 404) {
      return { topics: [], empty: err.message };
    }
    return failLoad(err, 'topics');
  }
}) satisfies PageLoad;
