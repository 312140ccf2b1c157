import { authorFilterKey, phraseTerms, type ParsedQuery, type Taxonomy } from '@quire/core';
import { allOf, anyOf, inColumns, phrase, word, type Match } from '../store/search-match.ts';
import type { IndexFilters } from '../store/search-reader.ts';

/**
 * A parsed query (core's syntax) as what to look for in the index (store's engine-neutral `Match`, which
 * each engine renders: FTS5 expression, tsquery), over the index's terms (core's `columnTerms`).
 */

/** One free word of a query and the spellings it may also match (typo corrections). */
export interface TermGroup {
  term: string;
  /** The word being typed: any indexed term starting with it matches. */
  prefix: boolean;
  corrections: string[];
  /**
   * A prefix known to match no paper the word alone does not (see FtsSearch), so the index is asked for
   * the word: FTS5 answers `"word"*` by merging every completion's list, positions and all, into one in
   * memory, in every statement naming it and again for bm25's count (at 100x a common word's list holds
   * 900,000 papers), while it reads a word's list lazily, only as far as a statement needs.
   */
  asWord?: boolean;
  /** The longer words an `asWord` prefix stands for (every paper holding one holds the word). */
  completions?: readonly string[];
}

export interface QueryParts {
  groups: TermGroup[];
  /** Each phrase's terms, to be found next to each other in this order. */
  phrases: string[][];
  /** One whole-name key per author filter, looked up in the authors column alone. */
  authorKeys: string[];
}

function groupMatch(group: TermGroup): Match {
  return anyOf([
    word(group.term, group.prefix && group.asWord !== true),
    ...group.corrections.map((c) => word(c)),
  ]);
}

/**
 * The free words (all of them, or any in `'OR'` mode), each phrase, each author. Null when the query has
 * nothing to match (filters only).
 */
export function textMatch(parts: QueryParts, mode: 'AND' | 'OR'): Match | null {
  const all: Match[] = [];
  const words = parts.groups.map(groupMatch);
  if (mode === 'OR' && words.length > 1) all.push(anyOf(words));
  else all.push(...words);
  for (const terms of parts.phrases) all.push(phrase(terms));
  for (const key of parts.authorKeys) all.push(inColumns(['authors'], word(key)));
  return all.length === 0 ? null : allOf(all);
}

/**
 * The match with every prefix asked as its word: it matches only papers the match matches. Null when it
 * has no prefix left to the index.
 */
export function wordsMatch(parts: QueryParts, mode: 'AND' | 'OR'): Match | null {
  if (!parts.groups.some((g) => g.prefix && g.asWord !== true)) return null;
  return textMatch(asWords(parts), mode);
}

/** The parts with every prefix asked as its word. */
export function asWords(parts: QueryParts): QueryParts {
  return { ...parts, groups: parts.groups.map((g) => ({ ...g, asWord: true })) };
}

/**
 * The match with a prefix asked as its word (`asWord`) asked as its longer words instead: the papers
 * holding a joined form ("counterfactualtointeractive"), which the prefix's own ranking counted twice and
 * the word's does not count at all. Null when no prefix stands for longer words.
 */
export function completionMatch(parts: QueryParts, mode: 'AND' | 'OR'): Match | null {
  const at = parts.groups.findIndex((g) => g.asWord === true && (g.completions?.length ?? 0) > 0);
  const group = parts.groups[at];
  const [first, ...rest] = group?.completions ?? [];
  if (first === undefined) return null;
  const groups = parts.groups.map((g, i) =>
    i === at ? { term: first, prefix: false, corrections: rest } : g,
  );
  return textMatch({ ...parts, groups }, mode);
}

/**
 * The same match with the words and phrases looked for in titles only (authors as before): the papers a
 * query names best, ranked apart when too many match for all of them to be ranked.
 */
export function titleMatch(parts: QueryParts, mode: 'AND' | 'OR'): Match | null {
  const text = textMatch({ ...parts, authorKeys: [] }, mode);
  if (text === null) return null;
  const authors = textMatch({ groups: [], phrases: [], authorKeys: parts.authorKeys }, 'AND');
  const titled = inColumns(['title'], text);
  return authors === null ? titled : allOf([titled, authors]);
}

/** The phrases (as terms) and author keys of a query; the free words are grouped by the caller. */
export function phrasesAndAuthors(query: ParsedQuery): Omit<QueryParts, 'groups'> {
  return {
    phrases: query.phrases.map(phraseTerms).filter((terms) => terms.length > 0),
    authorKeys: query.authors.flatMap((a) => authorFilterKey(a) ?? []),
  };
}

/**
 * The query's filters for the index, categories lowercased. Topics are read from the store's closure of
 * each paper's tags when it was kept with this taxonomy's hierarchy (`storedNarrower` gives, per topic,
 * the topics that closure counts under it); otherwise from the tags, every narrower topic listed.
 */
export async function indexFilters(
  query: ParsedQuery,
  taxonomy: Taxonomy,
  storedNarrower: (slug: string) => Promise<readonly string[]>,
): Promise<IndexFilters> {
  const categories = query.categories.length > 0 ? query.categories.map((c) => c.toLowerCase()) : null;
  const base = { categories, from: query.from, to: query.to };
  if (query.topics.length === 0) return { ...base, topics: null, topicsFrom: 'tags' };
  const stored = await Promise.all(query.topics.map(storedNarrower));
  const kept = query.topics.every((slug, i) => sameSet(stored[i] ?? [], topicClosure([slug], taxonomy)));
  return kept
    ? { ...base, topics: [...new Set(query.topics)], topicsFrom: 'closure' }
    : { ...base, topics: topicClosure(query.topics, taxonomy), topicsFrom: 'tags' };
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const set = new Set(a);
  return set.size === new Set(b).size && b.every((x) => set.has(x));
}

/** The topics and every topic under them: a paper tagged with a narrower topic carries the broader one. */
export function topicClosure(slugs: readonly string[], taxonomy: Taxonomy): string[] {
  const out = [...new Set(slugs)];
  const seen = new Set(out);
  for (let i = 0; i < out.length; i++) {
    for (const child of taxonomy.children.get(out[i] ?? '') ?? []) {
      if (!seen.has(child)) {
        seen.add(child);
        out.push(child);
      }
    }
  }
  return out;
}
