import { highlight, highlightSnippet } from './highlight.ts';
import type { SearchResultDto } from './search-dto.ts';
import { termsInField, type SearchHit } from './search-run.ts';

/** How many authors a result lists before "+N". */
export const RESULT_AUTHORS_SHOWN = 3;
/** About this many characters of the abstract are shown around the first match. */
export const RESULT_SNIPPET_WIDTH = 240;

/** What a result needs of the paper beyond the index: its text. Absent when the paper cannot be read. */
export interface ResultText {
  title: string;
  abstract: string;
  authorNames: readonly string[];
}

/**
 * One search hit as the result lists show it, the same for the server's search and the browser's offline
 * search: the first authors, the title and a piece of the abstract with the matched words marked.
 */
export function toSearchResult(hit: SearchHit, text: ResultText | undefined): SearchResultDto {
  const title = text?.title ?? hit.stored.title;
  const authors = text?.authorNames ?? [];
  return {
    id: hit.id,
    title,
    listingDate: hit.stored.listingDate,
    primaryCategory: hit.stored.primaryCategory,
    authors: authors.slice(0, RESULT_AUTHORS_SHOWN),
    authorCount: authors.length,
    score: hit.score,
    highlights: {
      title: highlight(title, termsInField(hit, 'title')),
      abstract: highlightSnippet(text?.abstract ?? '', termsInField(hit, 'abstract'), RESULT_SNIPPET_WIDTH),
    },
  };
}
