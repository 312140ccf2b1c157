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
  highlights: {
    title: HighlightSegment[];
    /** About 240 characters of the abstract around the first match. */
    abstract: HighlightSegment[];
  };
}

export interface SearchResponseDto {
  query: ParsedQuery;
  total: number;
  /** False when no paper had every word and papers with any of them are listed instead. */
  matchedAllTerms: boolean;
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
