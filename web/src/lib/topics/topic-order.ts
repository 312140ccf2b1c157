/** Orders and filters for the topic directory: pure functions over the API's topic summaries. */
import type { TopicSummary } from '../api/types.ts';

export type DirectoryView = 'rising' | 'largest' | 'az' | 'tree';

export const DIRECTORY_VIEWS: { id: DirectoryView; label: string }[] = [
  { id: 'rising', label: 'Rising' },
  { id: 'largest', label: 'Largest' },
  { id: 'az', label: 'A–Z' },
  { id: 'tree', label: 'Tree' },
];

const byName = (a: TopicSummary, b: TopicSummary): number =>
  a.name.localeCompare(b.name, 'en', { sensitivity: 'base' });

/**
 * Rising: by the rising score (how much faster than everything a topic grows at least), then by z, which
 * orders the many topics scoring 0 by how near they are to rising. Largest: papers in the last four weeks.
 * Ties fall back to the name so the order is stable.
 */
export function sortTopics(topics: readonly TopicSummary[], view: DirectoryView): TopicSummary[] {
  const list = [...topics];
  if (view === 'rising') {
    list.sort((a, b) => b.rising.score - a.rising.score || b.rising.z - a.rising.z || byName(a, b));
  } else if (view === 'largest') {
    list.sort((a, b) => b.momentum.last28 - a.momentum.last28 || byName(a, b));
  } else if (view === 'az') {
    list.sort(byName);
  }
  return list;
}

function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Every word typed starts a word of the topic's name or acronym line: "rl ag" finds "RL for LLM Agents". */
export function topicMatches(topic: TopicSummary, filter: string): boolean {
  const words = fold(filter).split(' ').filter(Boolean);
  if (words.length === 0) return true;
  const haystack = ` ${fold(topic.name)} ${fold(topic.acronyms)}`;
  return words.every((w) => haystack.includes(` ${w}`));
}

export function indexBySlug(topics: readonly TopicSummary[]): ReadonlyMap<string, TopicSummary> {
  return new Map(topics.map((t) => [t.slug, t]));
}

/** The topics that match the filter and every topic above them, so the tree can show the way down. */
export function branchesTo(
  topics: readonly TopicSummary[],
  bySlug: ReadonlyMap<string, TopicSummary>,
  filter: string,
): ReadonlySet<string> {
  const shown = new Set<string>();
  const climb = (slug: string): void => {
    if (shown.has(slug)) return;
    shown.add(slug);
    for (const parent of bySlug.get(slug)?.parents ?? []) climb(parent);
  };
  for (const topic of topics) if (topicMatches(topic, filter)) climb(topic.slug);
  return shown;
}
