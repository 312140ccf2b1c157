/**
 * Reads that fall back on this device's copy: the network first (so an online reader always sees the
 * server's data, and the copy is refreshed), the kept copy when the server cannot be reached, and the
 * usual "cannot reach the server" error when there is neither.
 */
import { deviceCache } from '../offline/device-cache.ts';
import type { Kept, OfflineData } from '../offline/offline-data.ts';
import { isUnreachable } from './api-error.ts';
import { fetchTopic, fetchTopics, type Fetch } from './client.ts';
import { reportReachability } from './reachability.ts';
import type { TopicDetail, TopicSummary } from './types.ts';

export interface Sourced<T> {
  value: T;
  /** When the device stored the copy shown; null when it came from the server just now. */
  savedAt: number | null;
}

export async function readThrough<T>(
  network: () => Promise<T>,
  kept: () => Promise<Kept<T> | undefined>,
  keep: (value: T) => Promise<void>,
): Promise<Sourced<T>> {
  let value: T;
  try {
    value = await network();
  } catch (err) {
    if (!isUnreachable(err)) throw err;
    const copy = await kept();
    if (!copy) throw err;
    reportReachability({ kind: 'served-from-device', storedAt: copy.storedAt });
    return { value: copy.value, savedAt: copy.storedAt };
  }
  // Keeping the copy must not hold up the page.
  void keep(value);
  return { value, savedAt: null };
}

export function loadTopic(
  fetchFn: Fetch,
  slug: string,
  data: OfflineData = deviceCache,
): Promise<Sourced<TopicDetail>> {
  return readThrough(
    () => fetchTopic(fetchFn, slug),
    () => data.getTopic(slug),
    (topic) => data.putTopic(topic),
  );
}

export function loadTopics(
  fetchFn: Fetch,
  data: OfflineData = deviceCache,
): Promise<Sourced<TopicSummary[]>> {
  return readThrough(
    () => fetchTopics(fetchFn),
    () => data.getTopicList(),
    (topics) => data.putTopicList(topics),
  );
}
