/**
 * What the device keeps for offline use and when it lets go: pure rules, so they are tested without a
 * browser. IndexedDB itself is handled in offline-data.ts.
 */

/**
 * Papers kept beyond the pinned ones (saved papers, followed topics' newest). A paper record is 2–4 KB and
 * adds about as much again to the search index, so 6,000 is some 30–40 MB at most: a week of a busy
 * reader's browsing, comfortably inside any browser's quota, and still an index that loads in well under
 * a second.
 */
export const PAPER_LIMIT = 6000;
/** Eviction waits until this many papers past the limit, so that not every write scans the store. */
export const PAPER_SLACK = 300;
/** Visited topic pages kept beyond the followed ones. */
export const TOPIC_LIMIT = 100;
export const TOPIC_SLACK = 10;
/** Newest papers of each followed topic kept (and refreshed) offline: the first three pages of the list. */
export const FOLLOWED_RECENT = 60;
/** A kept paper younger than this is not fetched again by a background refresh (papers rarely change). */
export const PAPER_FRESH_MS = 12 * 60 * 60 * 1000;

/** One kept entry as eviction sees it: its key and when it was stored. */
export interface StoredStamp {
  key: string;
  storedAt: number;
}

/**
 * The keys to delete so that at most `limit` unpinned entries remain: the oldest stored go first, pinned
 * ones never (they do not count towards the limit either).
 */
export function chooseEvictions(
  stamps: readonly StoredStamp[],
  pinned: ReadonlySet<string>,
  limit: number,
): string[] {
  const unpinned = stamps.filter((s) => !pinned.has(s.key));
  const excess = unpinned.length - Math.max(0, limit);
  if (excess <= 0) return [];
  return [...unpinned]
    .sort((a, b) => a.storedAt - b.storedAt || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .slice(0, excess)
    .map((s) => s.key);
}

/** Whether a store holding `count` unpinned-or-not entries is worth scanning for eviction. */
export function overLimit(count: number, limit: number, slack: number): boolean {
  return count > limit + slack;
}

/** Saved papers and the newest `recent` papers of each followed topic: what eviction must keep. */
export function pinnedPaperIds(
  savedIds: Iterable<string>,
  followedTopics: Iterable<{ paperIds: readonly string[] }>,
  recent = FOLLOWED_RECENT,
): Set<string> {
  const pinned = new Set(savedIds);
  for (const topic of followedTopics) for (const id of topic.paperIds.slice(0, recent)) pinned.add(id);
  return pinned;
}

/** Whether a kept copy stored at `storedAt` (undefined: none kept) should be fetched again. */
export function needsRefresh(storedAt: number | undefined, now: number, freshFor = PAPER_FRESH_MS): boolean {
  return storedAt === undefined || now - storedAt >= freshFor;
}
