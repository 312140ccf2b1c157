import type { Author } from '@quire/core';

/** Every affiliation named by a paper's authors, once each, in author order. */
export function affiliationsOf(authors: readonly Author[]): string[] {
  const seen = new Set<string>();
  for (const author of authors) for (const a of author.affiliations) if (a.trim()) seen.add(a.trim());
  return [...seen];
}

export function authorNames(authors: readonly Author[]): string[] {
  return authors.map((a) => a.name);
}

/**
 * The tags a paper card shows: those the tagger gave, not the broader ones they imply (the paper view lists
 * all), at most `max`, always including the topic whose page the card is on.
 */
export function cardTags<T extends { slug: string; direct: boolean }>(
  tags: readonly T[],
  current: string | undefined,
  max: number,
): T[] {
  const chosen = tags.filter((t) => t.direct || t.slug === current);
  if (chosen.length <= max) return chosen;
  const first = chosen.slice(0, max);
  const here = chosen.find((t) => t.slug === current);
  if (here && !first.includes(here)) first[max - 1] = here;
  return first;
}
