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
