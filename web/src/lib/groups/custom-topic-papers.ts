/**
 * The papers of the group's own topics, from the server: its search finds the candidates, the paper cache
 * fetches them whole (in batches), and the core engine decides here which of them the group's definition
 * tags (custom-topic-matches.ts). Nothing is kept: the definitions live in the group document, the papers
 * in the paper cache.
 */
import type { CustomTopic } from '@quire/core/group';
import { describeError, isUnreachable } from '../api/api-error.ts';
import { searchPapers, type Fetch } from '../api/client.ts';
import { paperCache } from '../api/paper-cache.ts';
import type { PaperView } from '../api/types.ts';
import {
  candidateIds,
  newestHits,
  phraseQuery,
  tagMatches,
  type PhraseCandidates,
  type SearchFn,
  type TopicMatch,
} from './custom-topic-matches.ts';

/** Searches in flight at once: a topic has a handful of phrases, and the server answers each quickly. */
const CONCURRENCY = 3;

export interface CustomTopicPapers {
  /** Per topic slug, the papers the engine tags with it, newest first. */
  matches: ReadonlyMap<string, TopicMatch<PaperView>[]>;
  /** Per search query (`phraseQuery`), what the server found. */
  phrases: ReadonlyMap<string, PhraseCandidates>;
  /** True when the server could not be reached: matching needs its search. */
  offline: boolean;
  /** What went wrong otherwise, in sentences. */
  errors: string[];
  /** Search requests made, for the reader who wonders what matching cost. */
  searches: number;
}

function searchWith(fetchFn: Fetch): SearchFn {
  return async (query, limit) => {
    const answer = await searchPapers(fetchFn, query, { limit });
    return {
      total: answer.total,
      hits: answer.results.map((r) => ({ id: r.id, listingDate: r.listingDate })),
    };
  };
}

async function pool<T, R>(items: readonly T[], run: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < items.length; i = next++) out[i] = await run(items[i] as T);
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, worker));
  return out;
}

/**
 * Matches `topics` against the server's store: for each, the newest `perTopic` papers containing one of
 * its phrases, and its exemplars. An unreachable server stops everything (`offline`); a phrase the server
 * refuses is reported and the rest still match.
 */
export async function loadCustomTopicPapers(
  fetchFn: Fetch,
  topics: readonly CustomTopic[],
  perTopic: number,
): Promise<CustomTopicPapers> {
  const search = searchWith(fetchFn);
  const queries = [...new Set(topics.flatMap((t) => t.phrases.map(phraseQuery)))];
  const phrases = new Map<string, PhraseCandidates>();
  const errors: string[] = [];
  const empty = new Map<string, TopicMatch<PaperView>[]>();
  let searches = 0;
  try {
    const found = await pool(queries, async (query) => {
      try {
        return await newestHits(search, query);
      } catch (err) {
        if (isUnreachable(err)) throw err;
        errors.push(`The search for ${query} failed: ${describeError(err)}`);
        return null;
      }
    });
    for (const f of found) {
      if (!f) continue;
      phrases.set(f.query, f);
      searches += f.requests;
    }
    const ids = [...new Set(topics.flatMap((t) => candidateIds(t, phrases, perTopic)))];
    const papers: PaperView[] = [];
    for (const r of await paperCache.getMany(fetchFn, ids)) if ('paper' in r) papers.push(r.paper);
    return { matches: tagMatches(topics, papers), phrases, offline: false, errors, searches };
  } catch (err) {
    if (isUnreachable(err)) return { matches: empty, phrases, offline: true, errors, searches };
    errors.push(`Could not match the group’s topics: ${describeError(err)}`);
    return { matches: empty, phrases, offline: false, errors, searches };
  }
}
