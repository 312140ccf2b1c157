import MiniSearch, { type Options, type SearchOptions } from 'minisearch';
import type { PaperEntity } from '../paper.ts';
import {
  AUTHOR_SEPARATOR,
  indexTerms,
  queryTerm,
  tokenizeField,
  tokenizeSearchText,
  wordSequence,
} from './search-text.ts';

/**
 * What the index holds per paper. Authors are one string, names joined by `AUTHOR_SEPARATOR`; the index
 * reads each name's words and whole-name keys from it (see `tokenizeAuthors`).
 */
export interface SearchDoc {
  id: string;
  title: string;
  abstract: string;
  authors: string;
  listingDate: string | null;
  primaryCategory: string;
  categories: string[];
  /** Topic slugs the paper carries, broader topics implied by its tags included. */
  tags: string[];
}

/**
 * The fields kept in the index for filtering and for listing a result without another lookup. Categories
 * are kept beside the primary one because a `cat:` filter means what arXiv's listings mean: cross-lists too.
 */
export type StoredSearchFields = Pick<
  SearchDoc,
  'id' | 'title' | 'listingDate' | 'primaryCategory' | 'categories' | 'tags'
>;

/** What `toSearchDoc` reads; a `PaperEntity` is one. */
export type SearchablePaper = Pick<
  PaperEntity,
  'id' | 'title' | 'abstract' | 'authors' | 'listingDate' | 'primaryCategory' | 'categories'
>;

export const SEARCH_FIELDS = ['title', 'authors', 'abstract'] as const;
export type SearchField = (typeof SEARCH_FIELDS)[number];

/**
 * Field weights: a word in the title says most about a paper; an author's name is a deliberate query, so
 * it ranks above a passing mention in the abstract.
 */
export const FIELD_BOOSTS: Readonly<Record<SearchField, number>> = { title: 3, authors: 2, abstract: 1 };

/**
 * Prefix matching only on the last query word (the one being typed), and not on one or two letters, whose
 * expansions would cover much of the vocabulary and slow every keystroke.
 */
export const PREFIX_MIN_LENGTH = 3;
/**
 * Typos are forgiven from four letters: 0.2 × length edits, one at first. Two edits on long words also
 * match common words' relatives ("learning" ~ "leaning", "earning") and doubled query time over the
 * corpus, so they are tried only when one edit found nothing: that is when a long word holds a swapped
 * pair ("retreival"), which costs two edits.
 */
export const FUZZY_MIN_LENGTH = 4;
export const FUZZINESS = 0.2;
export const MAX_FUZZY_EDITS = 1;
export const RETRY_FUZZY_EDITS = 2;
/** The shortest word 0.2 × length allows two edits for. */
export const RETRY_FUZZY_MIN_LENGTH = 8;
/** Typo tolerance (each word's near spellings looked up) only for queries of at most this many words. */
export const MAX_FUZZY_TERMS = 8;
/** The any-word retry only for queries of at most this many words. */
export const MAX_OR_RETRY_TERMS = 8;

const STORE_FIELDS: readonly (keyof StoredSearchFields)[] = [
  'id',
  'title',
  'listingDate',
  'primaryCategory',
  'categories',
  'tags',
];

/** The query options every search starts from; `runSearch` narrows them per part of a query. */
export const PAPER_SEARCH_OPTIONS: SearchOptions = {
  boost: { ...FIELD_BOOSTS },
  prefix: (term, i, terms) => i === terms.length - 1 && term.length >= PREFIX_MIN_LENGTH,
  fuzzy: (term) => (term.length >= FUZZY_MIN_LENGTH && !/^\d+$/.test(term) ? FUZZINESS : false),
  maxFuzzy: MAX_FUZZY_EDITS,
  combineWith: 'AND',
  tokenize: tokenizeSearchText,
  processTerm: queryTerm,
};

/**
 * The one set of minisearch options for papers. The server builds with it and the browser must load a
 * persisted index with the very same options (minisearch does not serialise functions), hence one source.
 */
export function paperIndexOptions(): Options<SearchDoc> {
  return {
    idField: 'id',
    fields: [...SEARCH_FIELDS],
    storeFields: [...STORE_FIELDS],
    tokenize: tokenizeField,
    processTerm: (term, field) => indexTerms(term, field),
    searchOptions: PAPER_SEARCH_OPTIONS,
  };
}

export function createPaperIndex(): MiniSearch<SearchDoc> {
  return new MiniSearch<SearchDoc>(paperIndexOptions());
}

/** Restores an index saved with `JSON.stringify(index)` (the browser keeps it in IndexedDB). */
export function loadPaperIndex(json: string): MiniSearch<SearchDoc> {
  return MiniSearch.loadJSON<SearchDoc>(json, paperIndexOptions());
}

export function toSearchDoc(paper: SearchablePaper, tags: readonly string[]): SearchDoc {
  return {
    id: paper.id,
    title: paper.title,
    abstract: paper.abstract,
    authors: paper.authors.map((a) => a.name).join(AUTHOR_SEPARATOR),
    listingDate: paper.listingDate,
    primaryCategory: paper.primaryCategory,
    categories: [...paper.categories],
    tags: [...tags],
  };
}

/**
 * A paper's words in order, " word word | word … ", for checking what the index cannot: that a quoted
 * phrase's words are adjacent. Title, abstract and each author are separated by "|" so a phrase never spans
 * two of them.
 */
export function phraseTextOf(doc: Pick<SearchDoc, 'title' | 'abstract' | 'authors'>): string {
  const parts = [doc.title, doc.abstract, ...doc.authors.split(AUTHOR_SEPARATOR)].map((part) =>
    wordSequence(part).join(' '),
  );
  return ` ${parts.join(' | ')} `;
}
