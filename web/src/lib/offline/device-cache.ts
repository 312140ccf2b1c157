import { followManager } from '../managers/follow-manager.svelte.ts';
import { readingList } from '../managers/reading-list.svelte.ts';
import { OfflineData } from './offline-data.ts';

/** This app's offline copy; saved papers and followed topics are never evicted from it. */
export const deviceCache = new OfflineData({
  pins: () => ({ savedIds: readingList.papers.map((p) => p.id), followedSlugs: followManager.slugs }),
});
