import type MiniSearch from 'minisearch';
import type { SearchOptions } from 'minisearch';
import { papersWithTerm } from './search-build.ts';
import type { SearchDoc } from './search-config.ts';
import { queryTerm, tokenizeSearchText } from './search-text.ts';

/**
 * "Related papers": the papers whose words and topics overlap most with one paper's. Retrieval is a
 * weighted OR of the paper's own words over the shared index (BM25 already discounts common words), then
 * the candidates are re-ranked by the topics they share, counting a narrow topic more than a broad one.
 */

/** Candidates re-ranked per request: enough for topic overlap to lift a paper from the tail. */
export const RELATED_CANDIDATES = 60;
/**
 * Words taken from the abstract after the title's. Each word costs minisearch a pass over its postings
 * (~4 ms for a common word over 27k papers), and topic overlap does the fine ranking, so few are taken.
 */
export const RELATED_ABSTRACT_TERMS = 8;
/** Title words beyond this many are dropped (long titles are rare and their tail adds little). */
export const RELATED_TITLE_TERMS = 12;
/** How much one fully specific shared topic is worth next to the best text match (1.0). */
export const SHARED_TOPIC_WEIGHT = 0.25;
/**
 * Words in more than this share of papers are left out of the query: BM25 gives them almost no weight,
 * yet their long postings are most of a query's cost ("model" is in a third of the corpus).
 */
export const MAX_TERM_SHARE = 0.15;
/** A word in fewer papers than this is never too common to search. */
const COMMON_FLOOR = 50;
/** At least this many words are searched, the rarest ones, even when all are common. */
export const MIN_RELATED_TERMS = 4;

export const RELATED_SEARCH_OPTIONS: SearchOptions = {
  combineWith: 'OR',
  prefix: false,
  fuzzy: false,
  // Authors are left out: a shared co-author is not what "related" means here, and names are noisy.
  fields: ['title', 'abstract'],
  boost: { title: 2, abstract: 1 },
};

export interface RelatedSource {
  title: string;
  abstract: string;
}

/**
 * The words to search for: every title word, then the abstract's words, favouring those the abstract
 * repeats (what it is about) and long ones (more specific), in a stable order.
 */
export function relatedQueryTerms(paper: RelatedSource, abstractTerms = RELATED_ABSTRACT_TERMS): string[] {
  const title = unique(termsOf(paper.title)).slice(0, RELATED_TITLE_TERMS);
  const counts = new Map<string, number>();
  const firstSeen = new Map<string, number>();
  termsOf(paper.abstract).forEach((term, i) => {
    counts.set(term, (counts.get(term) ?? 0) + 1);
    if (!firstSeen.has(term)) firstSeen.set(term, i);
  });
  const titleSet = new Set(title);
  const weight = (term: string) => (counts.get(term) ?? 0) * 2 + Math.min(term.length, 12) / 4;
  const fromAbstract = [...counts.keys()]
    .filter((term) => !titleSet.has(term) && term.length > 2 && !/^\d+$/.test(term))
    .sort((a, b) => weight(b) - weight(a) || (firstSeen.get(a) ?? 0) - (firstSeen.get(b) ?? 0))
    .slice(0, abstractTerms);
  return [...title, ...fromAbstract];
}

export interface RelatedCandidate {
  id: string;
  score: number;
  /** The candidate's topics, broader ones included (as the index stores them). */
  tags: readonly string[];
}

export interface RelatedHit {
  id: string;
  score: number;
  /** Topics both papers carry, most specific first. */
  sharedTopics: string[];
}

export interface RankRelatedInput {
  selfId: string;
  selfTags: readonly string[];
  candidates: readonly RelatedCandidate[];
  /** 0 for a topic every paper has, 1 for one almost none has. */
  specificity: (slug: string) => number;
  limit: number;
}

/** Orders candidates by text match (scaled to the best one) plus the specificity of the topics shared. */
export function rankRelated(input: RankRelatedInput): RelatedHit[] {
  const best = Math.max(0, ...input.candidates.filter((c) => c.id !== input.selfId).map((c) => c.score));
  if (best === 0) return [];
  const selfTags = new Set(input.selfTags);
  const ranked = input.candidates
    .filter((c) => c.id !== input.selfId)
    .map((c) => {
      const shared = c.tags
        .filter((t) => selfTags.has(t))
        .sort((a, b) => input.specificity(b) - input.specificity(a) || a.localeCompare(b));
      const topicScore = shared.reduce((sum, t) => sum + clamp01(input.specificity(t)), 0);
      return { id: c.id, score: c.score / best + SHARED_TOPIC_WEIGHT * topicScore, sharedTopics: shared };
    });
  ranked.sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
  return ranked.slice(0, input.limit);
}

/** Specificity from a topic's paper count: log-scaled, so halving a topic's size adds the same amount. */
export function topicSpecificity(topicPapers: number, allPapers: number): number {
  if (allPapers <= 1 || topicPapers <= 0) return 0;
  return clamp01(1 - Math.log(Math.max(1, topicPapers)) / Math.log(allPapers));
}

/** Runs retrieval and ranking over an index holding the paper; [] when the paper is not indexed. */
export function findRelated(
  index: MiniSearch<SearchDoc>,
  paper: RelatedSource & { id: string },
  specificity: (slug: string) => number,
  limit: number,
): RelatedHit[] {
  const terms = distinctiveTerms(index, relatedQueryTerms(paper));
  if (terms.length === 0) return [];
  const stored = index.getStoredFields(paper.id);
  const selfTags = Array.isArray(stored?.tags) ? (stored.tags as string[]) : [];
  const results = index.search({ queries: terms, combineWith: 'OR' }, RELATED_SEARCH_OPTIONS);
  const candidates = results.slice(0, RELATED_CANDIDATES + 1).map((r) => ({
    id: String(r.id),
    score: r.score,
    tags: Array.isArray(r.tags) ? (r.tags as string[]) : [],
  }));
  return rankRelated({ selfId: paper.id, selfTags, candidates, specificity, limit });
}

/** The query's words without the very common ones (see MAX_TERM_SHARE), in their order. */
export function distinctiveTerms(index: MiniSearch<SearchDoc>, terms: readonly string[]): string[] {
  // In a small collection every word is "common"; the rule is for the long postings of a large one.
  const limit = Math.max(COMMON_FLOOR, index.documentCount * MAX_TERM_SHARE);
  const counted = terms.map((term) => ({ term, n: papersWithTerm(index, term) }));
  const kept = counted.filter((c) => c.n > 0 && c.n <= limit);
  if (kept.length >= MIN_RELATED_TERMS) return kept.map((c) => c.term);
  const rarest = counted
    .filter((c) => c.n > 0)
    .sort((a, b) => a.n - b.n)
    .slice(0, MIN_RELATED_TERMS);
  const chosen = new Set(rarest.map((c) => c.term));
  return terms.filter((t) => chosen.has(t));
}

function termsOf(text: string): string[] {
  return tokenizeSearchText(text).flatMap((t) => queryTerm(t) ?? []);
}

function unique(terms: readonly string[]): string[] {
  return [...new Set(terms)];
}

function clamp01(x: number): number {
  return Math.min(1, Math.max(0, x));
}
