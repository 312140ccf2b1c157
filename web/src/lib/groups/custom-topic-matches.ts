/**
 * The group's own topics, matched in the browser. The server's search finds the candidates (each phrase as
 * a quoted query, newest papers first); the core tagging engine then applies the group's definition to the
 * full papers, so a paper counts only when the group's phrases match it the way they would match one of the
 * server's topics. Pure: the search is passed in, so the narrowing below is tested without a server.
 */
import {
  addDays,
  compileForCollection,
  daysBetween,
  parseArxivId,
  type PaperTag,
  type TagEvidence,
  type TaggablePaper,
} from '@quire/core';
import { customTopicSlug, customTopicsTaxonomy, type CustomTopic } from '@quire/core/group';

/** Results per search request: the most the server answers at once. */
export const SEARCH_PAGE = 100;
/** Searches narrowed to a recent window, at most, after the first one for a common phrase. */
const MAX_NARROWING = 4;
/** Aim the first window at this share of a page, so that it usually holds fewer papers than a page. */
const WINDOW_AIM = 0.7;

/** Whether a followed slug names one of the group's own topics rather than a taxonomy topic. */
export function isCustomTopicSlug(slug: string): boolean {
  return slug.startsWith(customTopicSlug(''));
}

/** Phrases as typed into the form: one per line or comma separated, whitespace collapsed, no repeats. */
export function splitPhrases(text: string): string[] {
  const phrases = text
    .split(/[\n,]/)
    .map((p) => p.replace(/\s+/g, ' ').trim())
    .filter((p) => p !== '');
  return [...new Set(phrases)];
}

/** Exemplar arXiv ids as typed (any form core's parser reads), normalised; what it cannot read, apart. */
export function parseExemplarIds(text: string): { ids: string[]; invalid: string[] } {
  const ids: string[] = [];
  const invalid: string[] = [];
  for (const word of text.split(/[\s,]+/).filter((w) => w !== '')) {
    try {
      const { id } = parseArxivId(word);
      if (!ids.includes(id)) ids.push(id);
    } catch {
      invalid.push(word);
    }
  }
  return { ids, invalid };
}

/**
 * The search query that finds the papers a phrase can match: its words quoted, so they must appear
 * together. A prefix term ("reinforcement learn*") quotes the words before the last and leaves the last
 * free, which the search reads as a prefix. Case is left to the engine: search ignores it.
 */
export function phraseQuery(phrase: string): string {
  const text = phrase.replace(/"/g, ' ').replace(/\s+/g, ' ').trim();
  if (!text.endsWith('*')) return `"${text}"`;
  const words = text.slice(0, -1).match(/[\p{L}\p{N}]+/gu) ?? [];
  const last = words.pop() ?? '';
  return words.length > 0 ? `"${words.join(' ')}" ${last}` : last;
}

export interface PhraseHit {
  id: string;
  listingDate: string | null;
}

/** One answer of the search: how many papers match in all, and the first page of them. */
export interface SearchAnswer {
  total: number;
  hits: PhraseHit[];
}

export type SearchFn = (query: string, limit: number) => Promise<SearchAnswer>;

export interface PhraseCandidates {
  query: string;
  /** Papers on the server that contain the phrase. */
  total: number;
  /** Newest first. */
  hits: PhraseHit[];
  /** Every paper listed on or after this day is in `hits`; null when all of them are. */
  completeFrom: string | null;
  requests: number;
}

function byNewest(a: PhraseHit, b: PhraseHit): number {
  const da = a.listingDate ?? '';
  const db = b.listingDate ?? '';
  if (da !== db) return da < db ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

function merged(...lists: PhraseHit[][]): PhraseHit[] {
  const byId = new Map<string, PhraseHit>();
  for (const list of lists) for (const hit of list) if (!byId.has(hit.id)) byId.set(hit.id, hit);
  return [...byId.values()].sort(byNewest);
}

/**
 * The newest papers containing a phrase. The search ranks phrase matches by relevance, so when a phrase
 * is in more papers than one page holds, the page is a sample from every week; a `from:` window sized from
 * that sample (papers per day, assumed even) then asks for the recent ones alone, halved until it fits.
 * Typical phrases fit one page: one request. A common one takes two or three.
 */
export async function newestHits(
  search: SearchFn,
  query: string,
  limit = SEARCH_PAGE,
): Promise<PhraseCandidates> {
  const all = await search(query, limit);
  let requests = 1;
  if (all.total <= all.hits.length) {
    return { query, total: all.total, hits: merged(all.hits), completeFrom: null, requests };
  }
  const dates = all.hits.flatMap((h) => (h.listingDate ? [h.listingDate] : [])).sort();
  const oldest = dates[0];
  const newest = dates[dates.length - 1];
  if (oldest === undefined || newest === undefined) {
    return { query, total: all.total, hits: merged(all.hits), completeFrom: newest ?? null, requests };
  }
  const span = daysBetween(oldest, newest) + 1;
  let days = Math.floor((span * limit * WINDOW_AIM) / all.total);
  let window: SearchAnswer | null = null;
  let from = newest;
  for (let step = 0; step < MAX_NARROWING; step++) {
    from = addDays(newest, -days);
    window = await search(`${query} from:${from}`, limit);
    requests++;
    if (window.total <= window.hits.length || days === 0) break;
    days = Math.floor(days / 2);
  }
  const fits = window !== null && window.total <= window.hits.length;
  return {
    query,
    total: all.total,
    hits: merged(window?.hits ?? [], all.hits),
    // A window that still overflows is a sample of its own days: nothing is complete then.
    completeFrom: fits ? from : addDays(newest, 1),
    requests,
  };
}

/**
 * The ids worth fetching for a topic: the newest `limit` of its phrases' hits, and its exemplars (which
 * always carry the topic, and whose words give the engine its exemplar profile).
 */
export function candidateIds(
  topic: CustomTopic,
  byQuery: ReadonlyMap<string, PhraseCandidates>,
  limit: number,
): string[] {
  const hits = merged(...topic.phrases.map((p) => byQuery.get(phraseQuery(p))?.hits ?? []));
  return [...new Set([...hits.slice(0, limit).map((h) => h.id), ...topic.exemplars])];
}

export interface TopicMatch<P> {
  paper: P;
  /** The engine's tag for the topic: its score and the evidence (which phrase, where). */
  tag: PaperTag;
}

function paperNewest<P extends { id: string; listingDate: string | null }>(
  a: TopicMatch<P>,
  b: TopicMatch<P>,
): number {
  return byNewest(a.paper, b.paper);
}

/**
 * Tags `papers` with the group's topics through the core engine (the papers are the collection its exemplar
 * profiles are read from) and lists, per topic slug, the papers it tags, newest first.
 */
export function tagMatches<P extends TaggablePaper & { listingDate: string | null }>(
  topics: readonly CustomTopic[],
  papers: readonly P[],
): Map<string, TopicMatch<P>[]> {
  const matches = new Map<string, TopicMatch<P>[]>(topics.map((t) => [t.slug, []]));
  const taxonomy = customTopicsTaxonomy(topics);
  if (!taxonomy) return matches;
  const engine = compileForCollection(taxonomy, papers);
  for (const paper of papers) {
    for (const tag of engine.tag(paper)) matches.get(tag.slug)?.push({ paper, tag });
  }
  for (const list of matches.values()) list.sort(paperNewest);
  return matches;
}

/** One line of evidence, as a reader wants it: "“process reward model” in the title". */
export function describeEvidence(evidence: TagEvidence): string {
  switch (evidence.rule) {
    case 'phrase':
      return `“${evidence.detail}” in the ${evidence.field ?? 'abstract'}`;
    case 'exemplar-paper':
      return 'an exemplar of the topic';
    case 'exemplar':
      return `like the exemplars: ${evidence.detail}`;
    default:
      return evidence.detail;
  }
}

/** A key that changes whenever a topic's definition (or name) does, to know when to match again. */
export function definitionKey(topics: readonly CustomTopic[]): string {
  return JSON.stringify(topics.map((t) => [t.slug, t.name, t.phrases, t.exemplars]));
}
