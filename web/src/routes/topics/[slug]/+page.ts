import { failLoad } from '$lib/api/load-error.ts';
import { paperCache } from '$lib/api/paper-cache.ts';
import { loadTopic } from '$lib/api/read-through.ts';
import { topicCatalog } from '$lib/api/topic-catalog.ts';
import { PAGE_SIZE } from '$lib/managers/paper-pager.svelte.ts';
import type { PageLoad } from './$types';

export const load = (async ({ params, fetch }) => {
  try {
    const [{ value: topic, savedAt }, names] = await Promise.all([
      loadTopic(fetch, params.slug),
      topicCatalog.names(fetch),
    ]);
    // The first page of papers comes with the page, so it renders whole (and back navigation, served
    // from the paper cache, lands where it left).
    const firstPapers = await paperCache.getMany(fetch, topic.paperIds.slice(0, PAGE_SIZE));
    return { topic, names, firstPapers, savedAt };
  } catch (err) {
    return failLoad(err, 'topic');
  }
}) satisfies PageLoad;
