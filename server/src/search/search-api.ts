import type { RelatedPapersDto, SearchResponseDto, SearchSort } from '@quire/core';

export interface SearchPage {
  limit: number;
  offset: number;
  /** Best match first when left out. */
  sort?: SearchSort;
}

/** What the API needs of search: `FtsSearch` in process, `SearchThread` in the server. */
export interface SearchApi {
  search(q: string, page: SearchPage): Promise<SearchResponseDto>;
  /** Papers like the stored paper `id`; `topicSizes` gives each topic's paper count (rare topics weigh more). */
  related(id: string, limit: number, topicSizes: ReadonlyMap<string, number>): Promise<RelatedPapersDto>;
}
