import MiniSearch, { type Query, type SearchResult } from 'minisearch';
import { authorNamed, personNameKey } from './person-name.ts';
import type { ParsedQuery } from './query-syntax.ts';
import {
  MAX_FUZZY_EDITS,
  RETRY_FUZZY_EDITS,
  RETRY_FUZZY_MIN_LENGTH,
  MAX_FUZZY_TERMS,
  MAX_OR_RETRY_TERMS,
  type SearchDoc,
  type StoredSearchFields,
} from './search-config.ts';
import type { ExactPaperDto, SearchSort } from './search-dto.ts';
import { authorFilterKey, authorQueryTerm, queryTermsOf, wordSequence } from './search-text.ts';

export interface RunSearchOptions {
  limit: number;
  offset: number;
  /** Best match first (the default) or newest listing first. */
  sort?: SearchSort;
  /**
   * Whether a paper carries any of the topics (or a narrower one). By default the tags stored in the
   * index are read, which already include the broader topics each tag implies.
   */
  hasTopic?: (paperId: string, slugs: readonly string[]) => boolean;
  /**
   * A paper's words in order (`phraseTextOf`). When given, quoted phrases must appear word for word;
   * without it a phrase only needs all its words somewhere in the paper.
   */
  phraseText?: (paperId: string) => string | undefined;
  /**
   * A paper's author names (of `personCandidates`' papers at least). When given, a name search lists first
   * only papers with an author of that whole name; without it, every paper the name's key is indexed for.
   */
  authorNames?: (paperId: string) => readonly string[] | undefined;
}

export interface SearchHit {
  id: string;
  /** minisearch's relevance (BM25 with field boosts); 0 when the query had no words to rank by. */
  score: number;
  /** Index term → fields it matched in. Prefix and typo matches appear as the full word they matched. */
  match: Record<string, string[]>;
  /** The matched index terms: what to highlight. */
  terms: string[];
  stored: StoredSearchFields;
}

export interface SearchRun {
  total: number;
  results: SearchHit[];
  /**
   * False when no paper had every free word, so papers with any of them are shown instead (a long query
   * typed word by word should not go blank on one word nobody used).
   */
  matchedAllTerms: boolean;
  /** Set when the query was an arXiv id: its paper is the one result when the index holds it. */
  exact: ExactPaperDto | null;
  /** Papers listed first because an author has the whole name the query is (see person-name.ts); 0 if none. */
  byAuthor: number;
}

function storedOf(result: Record<string, unknown>, id = result.id): StoredSearchFields {
  return {
    id: String(id),
    title: result.title as string,
    listingDate: result.listingDate as string | null,
    primaryCategory: result.primaryCategory as string,
    categories: result.categories as string[],
    tags: result.tags as string[],
  };
}

function categoryMatches(categories: readonly string[], wanted: readonly string[]): boolean {
  return categories.some((c) => {
    const have = c.toLowerCase();
    return wanted.some((w) => have === w || have.startsWith(`${w}.`));
  });
}

/** The filters as one test on a minisearch result, or null when the query has none. */
function buildFilter(parsed: ParsedQuery, opts: RunSearchOptions): ((r: SearchResult) => boolean) | null {
  const categories = parsed.categories.map((c) => c.toLowerCase());
  const phrases = parsed.phrases.map((p) => ` ${wordSequence(p).join(' ')} `).filter((p) => p.trim() !== '');
  const { hasTopic, phraseText } = opts;
  const { from, to, topics } = parsed;
  const checkPhrases = phraseText !== undefined && phrases.length > 0;
  if (from === null && to === null && categories.length === 0 && topics.length === 0 && !checkPhrases) {
    return null;
  }
  return (r) => {
    const listingDate = r.listingDate as string | null;
    if (from !== null && (listingDate === null || listingDate < from)) return false;
    if (to !== null && (listingDate === null || listingDate > to)) return false;
    if (categories.length > 0 && !categoryMatches(r.categories as string[], categories)) return false;
    if (topics.length > 0) {
      const id = String(r.id);
      const carries = hasTopic ? hasTopic(id, topics) : (r.tags as string[]).some((t) => topics.includes(t));
      if (!carries) return false;
    }
    if (checkPhrases) {
      const text = phraseText(String(r.id));
      if (text === undefined || !phrases.every((p) => text.includes(p))) return false;
    }
    return true;
  };
}

/** Newest listing first, undated last, then by id, newest first. */
function byListingDate(a: SearchResult, b: SearchResult): number {
  const da = (a.listingDate as string | null) ?? '';
  const db = (b.listingDate as string | null) ?? '';
  if (da !== db) return da < db ? 1 : -1;
  const ia = String(a.id);
  const ib = String(b.id);
  return ia < ib ? 1 : ia > ib ? -1 : 0;
}

function toHit(r: SearchResult, ranked: boolean): SearchHit {
  return {
    id: String(r.id),
    score: ranked ? r.score : 0,
    match: r.match,
    terms: r.terms,
    stored: storedOf(r),
  };
}

/** An author-only query for whole-name keys, as the author filter looks them up. */
function authorQuery(keys: readonly string[]): Query {
  return {
    queries: keys.map((key) => ({
      queries: [key],
      fields: ['authors'],
      combineWith: 'AND',
      prefix: false,
      fuzzy: false,
      processTerm: authorQueryTerm,
    })),
    combineWith: 'AND',
  };
}

/** The papers a name search may list first (see `RunSearchOptions.authorNames`); none for other queries. */
export function personCandidates(index: MiniSearch<SearchDoc>, parsed: ParsedQuery): string[] {
  const person = parsed.paperId === null ? personNameKey(parsed) : null;
  if (person === null) return [];
  return index.search(authorQuery([person])).map((r) => String(r.id));
}

/** The paper an arXiv id names, alone, when the index holds it. */
function exactRun(index: MiniSearch<SearchDoc>, id: string): SearchRun {
  const stored = index.getStoredFields(id);
  const results = stored ? [{ id, score: 0, match: {}, terms: [], stored: storedOf(stored, id) }] : [];
  return {
    total: results.length,
    results,
    matchedAllTerms: true,
    exact: { id, stored: !!stored },
    byAuthor: 0,
  };
}

/**
 * Runs a parsed query: free words and phrases are ranked by minisearch; topic, category, date and author
 * filters then narrow the result. A query with no words to rank by (filters only) lists papers newest first.
 * An arXiv id lists its paper alone; a person's whole name lists that author's papers first.
 */
export function runSearch(
  index: MiniSearch<SearchDoc>,
  parsed: ParsedQuery,
  opts: RunSearchOptions,
): SearchRun {
  if (parsed.paperId !== null) return exactRun(index, parsed.paperId);
  const newest = opts.sort === 'newest';
  const filter = buildFilter(parsed, opts);
  const terms = queryTermsOf(parsed.text);
  const textTerms = terms.length;
  const longWord = terms.some((t) => t.length >= RETRY_FUZZY_MIN_LENGTH);
  const phrases = parsed.phrases.filter((p) => queryTermsOf(p).length > 0);
  // Authors narrow but do not rank. Each is looked up by one whole-name key, so "Jane Doe" is one person.
  const authorKeys = parsed.authors.flatMap((a) => authorFilterKey(a) ?? []);
  const ranked = textTerms > 0 || phrases.length > 0;

  const run = (textMode: 'AND' | 'OR', maxFuzzy: number): SearchResult[] => {
    const options = filter ? { filter, maxFuzzy } : { maxFuzzy };
    const queries: Query[] = [];
    if (textTerms > 0) queries.push({ queries: [parsed.text], combineWith: textMode });
    for (const phrase of phrases) {
      queries.push({ queries: [phrase], combineWith: 'AND', prefix: false, fuzzy: false });
    }
    for (const key of authorKeys) {
      queries.push({
        queries: [key],
        fields: ['authors'],
        combineWith: 'AND',
        prefix: false,
        fuzzy: false,
        processTerm: authorQueryTerm,
      });
    }
    if (queries.length === 0) return index.search(MiniSearch.wildcard, options);
    return index.search({ queries, combineWith: 'AND' }, options);
  };

  // Cheapest first: every word with one typo allowed; then two typos in long words; then any word.
  // Typo tolerance multiplies the terms looked up: long queries are read as typed.
  let found = run('AND', textTerms <= MAX_FUZZY_TERMS ? MAX_FUZZY_EDITS : 0);
  let matchedAllTerms = true;
  if (found.length === 0 && textTerms > 0 && textTerms <= MAX_FUZZY_TERMS && longWord) {
    found = run('AND', RETRY_FUZZY_EDITS);
  }
  // Any-word matching costs a pass over every word's postings: only for short queries.
  if (found.length === 0 && textTerms > 1 && textTerms <= MAX_OR_RETRY_TERMS) {
    found = run('OR', longWord ? RETRY_FUZZY_EDITS : MAX_FUZZY_EDITS);
    matchedAllTerms = false;
  }
  if (!ranked || newest) found.sort(byListingDate);
  let byAuthor = 0;
  const person = newest ? null : personNameKey(parsed);
  if (person !== null) {
    const names = opts.authorNames;
    const named = index
      .search(authorQuery([person, ...authorKeys]), filter ? { filter } : {})
      .filter((r) => !names || authorNamed(names(String(r.id)) ?? [], person) !== undefined);
    named.sort(byListingDate);
    const first = new Set(named.map((r) => String(r.id)));
    found = [...named, ...found.filter((r) => !first.has(String(r.id)))];
    byAuthor = named.length;
  }
  const offset = Math.max(0, opts.offset);
  return {
    total: found.length,
    results: found.slice(offset, offset + Math.max(0, opts.limit)).map((r) => toHit(r, ranked)),
    matchedAllTerms,
    exact: null,
    byAuthor,
  };
}

/** The matched terms found in one field, e.g. to highlight the title with title matches only. */
export function termsInField(hit: Pick<SearchHit, 'match'>, field: string): string[] {
  return Object.entries(hit.match)
    .filter(([, fields]) => fields.includes(field))
    .map(([term]) => term);
}
