/**
 * "Did you mean" for a topic address that names no topic: the nearest slugs and names of the topic list the
 * client already has, by edit distance. A mistyped slug ("reinforcment-learning") and a name typed into the
 * address ("process reward models") both find their topic.
 */

export interface TopicName {
  slug: string;
  name: string;
}

/** How many suggestions a page shows: past three, a reader is better served by the directory. */
const MAX_SUGGESTIONS = 3;

/** "Process Reward Models" → "process-reward-models": names compare in the slugs' alphabet. */
function slugLike(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** Levenshtein distance, one row at a time; `limit` stops early once every path is past it. */
export function editDistance(a: string, b: string, limit = Infinity): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      const value = Math.min((previous[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      row.push(value);
      best = Math.min(best, value);
    }
    if (best > limit) return limit + 1;
    previous = row;
  }
  return previous[b.length] ?? 0;
}

/**
 * Topics whose slug or name is within about a third of the typed length of `typed` (at least two edits, so a
 * short slug with one slip still matches), nearest first, then by name.
 */
export function nearestTopics<T extends TopicName>(typed: string, topics: readonly T[]): T[] {
  const wanted = slugLike(decodeSafely(typed));
  if (wanted === '') return [];
  const limit = Math.max(2, Math.floor(wanted.length / 3));
  const scored: { topic: T; distance: number }[] = [];
  for (const topic of topics) {
    const distance = Math.min(
      editDistance(wanted, topic.slug, limit),
      editDistance(wanted, slugLike(topic.name), limit),
    );
    if (distance <= limit) scored.push({ topic, distance });
  }
  scored.sort((x, y) => x.distance - y.distance || x.topic.name.localeCompare(y.topic.name));
  return scored.slice(0, MAX_SUGGESTIONS).map((s) => s.topic);
}

function decodeSafely(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
