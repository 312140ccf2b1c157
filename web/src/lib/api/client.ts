/**
 * Typed fetchers for the server's JSON API. Every failure becomes an `ApiError` that says whether the server
 * could not be reached or answered an error (with its own message), so pages can show the right sentence.
 */
import type { PapersBatchDto, RelatedPapersDto, SearchResponseDto, SearchSort, StatusDto } from '@quire/core';
import { ApiError } from './api-error.ts';
import { reportReachability } from './reachability.ts';
import type { ApiErrorBody, AskResponse, PaperView, TopicDetail, TopicSummary } from './types.ts';

export type Fetch = typeof fetch;

export interface RequestOptions {
  signal?: AbortSignal;
}

export interface TopicQuery {
  /** YYYY-MM-DD; the server defaults to its latest listing day. */
  asOf?: string;
  weeks?: number;
}

function isErrorBody(value: unknown): value is ApiErrorBody {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as ApiErrorBody).error === 'string' &&
    typeof (value as ApiErrorBody).message === 'string'
  );
}

export async function getJson<T>(fetchFn: Fetch, path: string, options: RequestOptions = {}): Promise<T> {
  let res: Response;
  try {
    res = await fetchFn(path, { headers: { accept: 'application/json' }, signal: options.signal ?? null });
  } catch (err) {
    if (options.signal?.aborted) throw new ApiError('aborted', 0, 'aborted', 'The request was cancelled.');
    reportReachability({ kind: 'unreachable' });
    const why = err instanceof Error ? ` (${err.message})` : '';
    throw new ApiError(
      'unreachable',
      0,
      'unreachable',
      `Cannot reach the Quire server${why}. Check that it is running and reload.`,
    );
  }
  reportReachability({ kind: 'reached' });
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    if (options.signal?.aborted) throw new ApiError('aborted', 0, 'aborted', 'The request was cancelled.');
    throw new ApiError(
      'bad-response',
      res.status,
      'bad-response',
      `The server answered ${path} with HTTP ${res.status} but not with JSON. Is this a Quire server?`,
    );
  }
  if (!res.ok) {
    if (isErrorBody(body)) throw new ApiError('server', res.status, body.error, body.message);
    throw new ApiError('server', res.status, `http-${res.status}`, `The server answered HTTP ${res.status}.`);
  }
  return body as T;
}

function query(q: TopicQuery): string {
  const params = new URLSearchParams();
  if (q.asOf) params.set('asOf', q.asOf);
  if (q.weeks !== undefined) params.set('weeks', String(q.weeks));
  const s = params.toString();
  return s ? `?${s}` : '';
}

export function fetchStatus(fetchFn: Fetch, options?: RequestOptions): Promise<StatusDto> {
  return getJson<StatusDto>(fetchFn, '/api/status', options);
}

export function fetchTopics(
  fetchFn: Fetch,
  q: TopicQuery = {},
  options?: RequestOptions,
): Promise<TopicSummary[]> {
  return getJson<TopicSummary[]>(fetchFn, `/api/topics${query(q)}`, options);
}

export function fetchTopic(
  fetchFn: Fetch,
  slug: string,
  q: TopicQuery = {},
  options?: RequestOptions,
): Promise<TopicDetail> {
  return getJson<TopicDetail>(fetchFn, `/api/topics/${encodeURIComponent(slug)}${query(q)}`, options);
}

/** Old-style ids keep their slash ("hep-th/9901001"); the server reads the rest of the path as the id. */
export function paperPath(id: string): string {
  return `/api/papers/${id.split('/').map(encodeURIComponent).join('/')}`;
}

export function fetchPaper(fetchFn: Fetch, id: string, options?: RequestOptions): Promise<PaperView> {
  return getJson<PaperView>(fetchFn, paperPath(id), options);
}

export type PaperResult = { id: string; paper: PaperView } | { id: string; error: ApiError };

export interface ManyOptions extends RequestOptions {
  /** Batch requests in flight at once. */
  concurrency?: number;
}

/** Ids per GET /api/papers?ids=… (the server takes up to 100; 50 keeps URLs short). */
const BATCH_SIZE = 50;

/**
 * Fetches papers through the batch endpoint, in the order given. A paper the server does not have is
 * reported in its slot; an unreachable server or a cancelled request fails the whole call, since every
 * other paper would fail the same way.
 */
export async function fetchPapers(
  fetchFn: Fetch,
  ids: readonly string[],
  options: ManyOptions = {},
): Promise<PaperResult[]> {
  const found = new Map<string, PaperView>();
  const batches: string[][] = [];
  for (let i = 0; i < ids.length; i += BATCH_SIZE) batches.push(ids.slice(i, i + BATCH_SIZE));
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < batches.length; i = next++) {
      const batch = batches[i] ?? [];
      const query = batch.map(encodeURIComponent).join(',');
      const answer = await getJson<PapersBatchDto>(fetchFn, `/api/papers?ids=${query}`, options);
      for (const paper of answer.papers) found.set(paper.id, paper);
    }
  };
  const workers = Math.max(1, Math.min(options.concurrency ?? 2, batches.length));
  await Promise.all(Array.from({ length: workers }, worker));
  return ids.map((id): PaperResult => {
    const paper = found.get(id);
    if (paper) return { id, paper };
    return {
      id,
      error: new ApiError('server', 404, 'not-found', `No paper ${id} is stored on the server.`),
    };
  });
}

export interface SearchPage {
  limit?: number;
  offset?: number;
  sort?: SearchSort;
}

/** GET /api/search: `q` in the query syntax of core's query-syntax.ts; a bad filter answers 400. */
export function searchPapers(
  fetchFn: Fetch,
  q: string,
  page: SearchPage = {},
  options?: RequestOptions,
): Promise<SearchResponseDto> {
  const params = new URLSearchParams({ q });
  if (page.limit !== undefined) params.set('limit', String(page.limit));
  if (page.offset !== undefined) params.set('offset', String(page.offset));
  if (page.sort !== undefined && page.sort !== 'relevance') params.set('sort', page.sort);
  return getJson<SearchResponseDto>(fetchFn, `/api/search?${params.toString()}`, options);
}

/** GET /api/topics/:slug/ask: sentences quoted from the topic's abstracts; an empty question answers 400. */
export function askTopic(
  fetchFn: Fetch,
  slug: string,
  question: string,
  limit = 5,
  options?: RequestOptions,
): Promise<AskResponse> {
  const params = new URLSearchParams({ q: question, limit: String(limit) });
  return getJson<AskResponse>(
    fetchFn,
    `/api/topics/${encodeURIComponent(slug)}/ask?${params.toString()}`,
    options,
  );
}

/** GET /api/related/:id: papers like this one, with the topics they share (most specific first). */
export function relatedPapers(
  fetchFn: Fetch,
  id: string,
  limit = 6,
  options?: RequestOptions,
): Promise<RelatedPapersDto> {
  const path = `/api/related/${id.split('/').map(encodeURIComponent).join('/')}`;
  return getJson<RelatedPapersDto>(fetchFn, `${path}?limit=${limit}`, options);
}
