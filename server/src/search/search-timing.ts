import type { SearchSamples } from '../store/search-samples.ts';
import type { FtsSearch } from './fts-search.ts';
import type { SearchPage } from './search-api.ts';

/** Query latency over a set of queries, in milliseconds. */
export interface QueryTimings {
  queries: number;
  meanMs: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  /** Queries that found at least one paper. */
  withResults: number;
}

/**
 * Deterministic pseudo-random numbers (mulberry32), so a benchmark asks the same queries on every run.
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORD = /^[A-Za-z]{4,}$/;

/**
 * `count` queries drawn from the store's own abstracts, half one word and half two adjacent words, as a
 * reader would type them: what `pnpm bench web` times server search with.
 */
export function sampleQueries(papers: SearchSamples, count: number, seed = 1): string[] {
  const total = papers.paperCount();
  if (total === 0) return [];
  const next = seededRandom(seed);
  const queries: string[] = [];
  for (let attempt = 0; queries.length < count && attempt < count * 20; attempt++) {
    const words = (papers.abstractAt(Math.floor(next() * total)) ?? '').split(/\s+/);
    const at = Math.floor(next() * Math.max(0, words.length - 1));
    const first = words[at] ?? '';
    const second = words[at + 1] ?? '';
    if (!WORD.test(first)) continue;
    if (queries.length % 2 === 0) queries.push(first.toLowerCase());
    else if (WORD.test(second)) queries.push(`${first} ${second}`.toLowerCase());
  }
  return queries;
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

/** Times each query through the whole service (parse, search, filters, page rows, highlights). */
export async function timeQueries(
  service: Pick<FtsSearch, 'search'>,
  queries: readonly string[],
  page: SearchPage = { limit: 20, offset: 0 },
): Promise<QueryTimings> {
  const times: number[] = [];
  let withResults = 0;
  for (const q of queries) {
    const started = performance.now();
    const answer = await service.search(q, page);
    times.push(performance.now() - started);
    if (answer.total > 0) withResults++;
  }
  const sorted = [...times].sort((a, b) => a - b);
  const round = (ms: number) => Math.round(ms * 100) / 100;
  return {
    queries: times.length,
    meanMs: round(times.reduce((s, t) => s + t, 0) / Math.max(1, times.length)),
    p50Ms: round(percentile(sorted, 50)),
    p95Ms: round(percentile(sorted, 95)),
    maxMs: round(sorted.at(-1) ?? 0),
    withResults,
  };
}
