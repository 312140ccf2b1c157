import type { CoreErrorCode, RelatedPapersDto, SearchResponseDto } from '@quire/core';
import type { QuireErrorCode } from '../errors.ts';
import type { SearchSource } from '../store/search-reader.ts';
import type { SearchPage } from './search-api.ts';

/** What the server's search thread is started with. */
export interface SearchWorkerData {
  source: SearchSource;
}

/** Server → search thread. `seq` pairs a request with its reply. */
export type SearchRequest =
  | { kind: 'search'; seq: number; q: string; page: SearchPage }
  | { kind: 'related'; seq: number; id: string; limit: number; topicSizes: Map<string, number> };

/**
 * An error crossing the thread boundary, as the parts that survive structured cloning: a QuireError, or a
 * CoreError (a query core refused to parse), which the API answers with 400 as it does for any.
 */
export type SearchErrorData =
  | { type: 'quire'; code: QuireErrorCode; message: string }
  | { type: 'core'; code: CoreErrorCode; message: string };

/** Search thread → server. */
export type SearchReply =
  | { kind: 'failed'; error: SearchErrorData }
  | { kind: 'answer'; seq: number; value: SearchResponseDto | RelatedPapersDto }
  | { kind: 'error'; seq: number; error: SearchErrorData };
