import {
  MAX_TERM_SHARE,
  MIN_RELATED_TERMS,
  RELATED_CANDIDATES,
  RELATED_SEARCH_OPTIONS,
  RESULT_AUTHORS_SHOWN,
  rankRelated,
  relatedQueryTerms,
  topicSpecificity,
  type Author,
  type RelatedPapersDto,
  type Taxonomy,
} from '@quire/core';
import { QuireError } from '../errors.ts';
import { anyOf, inColumns, word } from '../store/search-match.ts';
import type { IndexFilters, SearchReader, TermDocs } from '../store/search-reader.ts';

/**
 * Related papers from the store's index: the paper's most distinctive title and abstract words as one
 * OR query over those two columns (the first ranking weighs a rare shared word above a common one), then the
 * best candidates re-ranked by the topics they share (core's `rankRelated`).
 */

/**
 * Postings a related query may read at most (the words' paper counts added up), the rarest words first:
 * what bounds its cost on a large store, where a few common words would otherwise mean reading and
 * scoring a large share of the papers. At least MIN_RELATED_TERMS words are always searched.
 */
export const RELATED_POSTINGS_BUDGET = 50_000;
/** A word in fewer papers than this is never too common to search (as in a small collection). */
const COMMON_FLOOR = 50;
/** Matches scored at most; see SearchReader.best. */
const RELATED_WINDOW = 20_000;
/**
 * How far each word's papers are counted, one level after another, and only the words past the last level
 * counted further: reading a common word's whole postings to learn that it is common was most of a related
 * query at 100 times the corpus (a word in half the papers: 1.3M postings; at 100x every word of a paper is
 * in at least 100, so fewer than MIN_RELATED_TERMS are often below the first level). A word in more papers
 * than the last level is searched only when too few words are rarer, such words then taken in term order.
 */
export const COUNT_LEVELS = [1_000, 5_000, 20_000] as const;

const NO_FILTERS: IndexFilters = { topics: null, topicsFrom: 'tags', categories: null, from: null, to: null };

const boost = RELATED_SEARCH_OPTIONS.boost ?? {};
/** Title and abstract as core's related search weighs them; authors not at all. */
const RELATED_WEIGHTS = { title: boost.title ?? 2, authors: 0, abstract: boost.abstract ?? 1 };

export async function relatedPapers(
  index: SearchReader,
  taxonomy: Taxonomy,
  id: string,
  limit: number,
  topicSizes: ReadonlyMap<string, number>,
): Promise<RelatedPapersDto> {
  const [selfRows, papers] = await Promise.all([index.paperRows([id]), index.indexedPapers()]);
  const self = selfRows.get(id);
  if (!self) throw new QuireError('not-found', `No paper ${id} is stored, so nothing is related to it.`);
  const terms = distinctiveTerms(await termCounts(index, relatedQueryTerms(self), papers), papers);
  if (terms.length === 0) return { id, results: [] };
  const match = inColumns(['title', 'abstract'], anyOf(terms.map((t) => word(t))));
  // Nobody reads how many match: the best of the window, uncounted.
  const rows = await index.best(match, NO_FILTERS, RELATED_WEIGHTS, {
    limit: RELATED_CANDIDATES + 1,
    window: RELATED_WINDOW,
  });
  const tags = await tagsWithBroader(index, taxonomy, [id, ...rows.map((r) => r.paperId)]);
  const hits = rankRelated({
    selfId: id,
    selfTags: tags.get(id) ?? [],
    candidates: rows.map((r) => ({ id: r.paperId, score: r.score, tags: tags.get(r.paperId) ?? [] })),
    specificity: (slug) => topicSpecificity(topicSizes.get(slug) ?? 0, papers),
    limit,
  });
  const text = await index.paperRows(hits.map((h) => h.id));
  const results = hits.flatMap((hit) => {
    const row = text.get(hit.id);
    if (!row) return [];
    const authors = (JSON.parse(row.authors) as Author[]).map((a) => a.name);
    return [
      {
        id: hit.id,
        title: row.title,
        listingDate: row.listing_date,
        primaryCategory: row.primary_category,
        authors: authors.slice(0, RESULT_AUTHORS_SHOWN),
        authorCount: authors.length,
        score: hit.score,
        sharedTopics: hit.sharedTopics.map((slug) => ({
          slug,
          name: taxonomy.bySlug.get(slug)?.name ?? slug,
        })),
      },
    ];
  });
  return { id, results };
}

/**
 * Papers holding each of `terms` (those held by none left out), as far as `distinctiveTerms` can tell
 * them apart (see COUNT_LEVELS): once MIN_RELATED_TERMS words are counted, the others only up to what they
 * leave of the postings budget, or the share that makes a word too common, if less.
 */
export async function termCounts(
  index: SearchReader,
  terms: readonly string[],
  papers: number,
): Promise<TermDocs[]> {
  const tooCommon = Math.floor(commonAbove(papers));
  const counted: TermDocs[] = [];
  let open = [...terms];
  let reached = 0;
  for (const level of COUNT_LEVELS) {
    const enough = counted.length >= MIN_RELATED_TERMS;
    const room = RELATED_POSTINGS_BUDGET - counted.reduce((n, t) => n + t.docs, 0);
    const cap = enough ? Math.min(level, room, tooCommon) : level;
    // None of the words left can be chosen.
    if (cap <= reached) break;
    const docs = await Promise.all(open.map((term) => index.hitsUpTo(word(term), cap + 1)));
    const found = open.map((term, i) => ({ term, docs: docs[i] ?? 0 }));
    counted.push(...found.filter((t) => t.docs > 0 && t.docs <= cap));
    open = found.filter((t) => t.docs > cap).map((t) => t.term);
    reached = cap;
    if (open.length === 0) break;
  }
  if (counted.length >= MIN_RELATED_TERMS) return counted;
  return [...counted, ...open.map((term) => ({ term, docs: reached + 1 }))];
}

/** Papers a word may be in and still be searched (MAX_TERM_SHARE of them, COMMON_FLOOR at least). */
function commonAbove(papers: number): number {
  return Math.max(COMMON_FLOOR, papers * MAX_TERM_SHARE);
}

/**
 * The words to search, rarest first: those in at most MAX_TERM_SHARE of the papers, as long as their
 * postings fit RELATED_POSTINGS_BUDGET; the MIN_RELATED_TERMS rarest whatever they cost.
 */
export function distinctiveTerms(found: readonly TermDocs[], papers: number): string[] {
  const common = commonAbove(papers);
  const rarest = [...found].sort((a, b) => a.docs - b.docs || (a.term < b.term ? -1 : 1));
  const chosen: string[] = [];
  let postings = 0;
  for (const { term, docs } of rarest) {
    const needed = chosen.length < MIN_RELATED_TERMS;
    if (!needed && (docs > common || postings + docs > RELATED_POSTINGS_BUDGET)) break;
    chosen.push(term);
    postings += docs;
  }
  return chosen;
}

/** Each paper's stored tags with the broader topics they imply; topics the taxonomy no longer has dropped. */
async function tagsWithBroader(
  index: SearchReader,
  taxonomy: Taxonomy,
  ids: readonly string[],
): Promise<Map<string, string[]>> {
  const byPaper = new Map<string, Set<string>>();
  for (const { paper_id: id, topic } of await index.tagsOf(ids)) {
    if (!taxonomy.bySlug.has(topic)) continue;
    let set = byPaper.get(id);
    if (!set) byPaper.set(id, (set = new Set()));
    set.add(topic);
    for (const broader of taxonomy.ancestors.get(topic) ?? []) set.add(broader);
  }
  return new Map([...byPaper].map(([id, set]) => [id, [...set]]));
}
