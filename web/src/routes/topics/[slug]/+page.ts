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
    // The momentum renders without waiting for the papers: they stream in (the page awaits the promise).
    // Papers this visit already holds (going back to the topic) come as a list, so the page renders whole
    // at once and back navigation lands where it left.
    const firstIds = topic.paperIds.slice(0, PAGE_SIZE);
    const firstPapers = paperCache.peekMany(firstIds) ?? paperCache.getMany(fetch, firstIds);
    // The page's {#await} shows a failure; this only keeps it from being reported as unhandled first.
    if (firstPapers instanceof Promise) firstPapers.catch(() => {});
    return { topic, names, firstPapers, savedAt };
  } catch (err) {
    return failLoad(err, 'topic');
  }
}) satisfies PageLoad;
