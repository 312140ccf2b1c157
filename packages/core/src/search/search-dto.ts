import type { HighlightSegment } from './highlight.ts';
import type { ParsedQuery } from './query-syntax.ts';

/**
 * What GET /api/search answers. It lives in core because server and web never import each other, and the
 * browser's offline search answers in the same shape.
 */
export interface SearchResultDto {
  id: string;
  title: string;
  listingDate: string | null;
  primaryCategory: string;
  /** The first three authors; `authorCount` says how many there are in all. */
  authors: string[];
  authorCount: number;
  score: number;
  /** The author whose whole name the search was, as the paper writes it (see `SearchResponseDto.byAuthor`). */
  authorMatch?: string;
  highlights: {
    title: HighlightSegment[];
    /** About 240 characters of the abstract around the first match. */
    abstract: HighlightSegment[];
  };
}

/** How results are ordered: best match first (the default), or newest listing first. */
export type SearchSort = 'relevance' | 'newest';
export const SEARCH_SORTS: readonly SearchSort[] = ['relevance', 'newest'];

/** The paper a search named by its arXiv id or address (`ParsedQuery.paperId`). */
export interface ExactPaperDto {
  id: string;
  /** False when this server does not hold it: GET /api/papers/:id?fetch=1 fetches it from arXiv. */
  stored: boolean;
}

export interface SearchResponseDto {
  query: ParsedQuery;
  total: number;
  /** True when `total` is an estimate (the server counts exactly up to 20,000 matches): "about 360,000". */
  totalEstimated?: boolean;
  /** False when no paper had every word and papers with any of them are listed instead. */
  matchedAllTerms: boolean;
  sort: SearchSort;
  /** Set when the search was an arXiv id: its paper is then the one result (none when not stored). */
  exact: ExactPaperDto | null;
  /**
   * Set when the search was a person's whole name and some paper has an author of that name: those papers
   * come first (newest first, each with `authorMatch`), the papers merely holding the words after them.
   */
  byAuthor: { name: string; papers: number } | null;
  results: SearchResultDto[];
}

/** One of a paper's related papers (GET /api/related/:id): listed like a search result, without highlights. */
export interface RelatedPaperDto extends Omit<SearchResultDto, 'highlights'> {
  /** Topics both papers carry, most specific first. */
  sharedTopics: { slug: string; name: string }[];
}

export interface RelatedPapersDto {
  id: string;
  results: RelatedPaperDto[];
}
