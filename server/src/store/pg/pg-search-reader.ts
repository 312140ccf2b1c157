import type {
  AverageTerms,
  ColumnDocs,
  ColumnWeights,
  IndexFilters,
  PaperTextRow,
  RankedPage,
  RankedRow,
  SearchReader,
  TermDocs,
} from '../search-reader.ts';
import { prefixEnd, type Match } from '../search-match.ts';
import { openPgPool, type PgPool } from './pg-pool.ts';
import {
  ABORT_READ,
  AVERAGE_TERMS,
  CATEGORY_FILTER,
  COLUMN_VOCABULARY,
  COUNT,
  COUNT_MATCHES,
  END_READ,
  FROM_FILTER,
  HITS_UP_TO,
  INDEXED_PAPERS,
  MOST_IN_RANGE,
  NARROWER_STORED,
  NEWEST,
  NEWEST_MATCHES,
  PAPER_ROWS,
  PAPERS_IN_RANGE,
  RANKED_WINDOW,
  TAGS_OF,
  TEXT_THROUGH_INDEX,
  TO_FILTER,
  TOPIC_CLOSURE_FILTER,
  TOPIC_TAGS_FILTER,
  VOCABULARY,
  VOCABULARY_RANGE,
} from './pg-search-queries.ts';
import { rankedLeaves, tsquery, type RankedLeaf } from './pg-tsquery.ts';

/**
 * Search's reader on PostgreSQL (issue 13): the index written with the papers (pg-search-schema.ts) read
 * as SearchReader promises, so FtsSearch runs over it unchanged: matches as tsqueries, the first ranking
 * by ts_rank with the columns' weights times each part's inverse document frequency (pg-search-queries.ts:
 * RANKED_WINDOW), the vocabulary from search_words (pg_trgm-indexed; papers in all and per column), the
 * papers indexed and their mean terms from search_totals, totals of matches counted exactly.
 */
export class PgSearchReader implements SearchReader {
  readonly #pool: PgPool;
  readonly #owned: boolean;

  /** `owned`: the pool is ended with the reader. */
  constructor(pool: PgPool, owned = false) {
    this.#pool = pool;
    this.#owned = owned;
  }

  async ranked(
    match: Match,
    filters: IndexFilters,
    weights: ColumnWeights,
    page: { limit: number; offset: number; window: number },
  ): Promise<RankedPage> {
    const window = Math.max(page.window, page.offset + page.limit);
    const found = await this.#window(match, filters, weights, window, page.limit, page.offset);
    const rows = found.map(({ paperId, score }) => ({ paperId, score }));
    const matched = found[0]?.matched;
    if (matched !== undefined && matched < window) return { rows, total: matched, estimated: false };
    // The window was full (or the page lay past it): every match counted.
    return { rows, total: await this.countMatches(match, filters), estimated: false };
  }

  async best(
    match: Match,
    filters: IndexFilters,
    weights: ColumnWeights,
    page: { limit: number; window: number },
  ): Promise<RankedRow[]> {
    const window = Math.max(page.window, page.limit);
    const found = await this.#window(match, filters, weights, window, page.limit, 0);
    return found.map(({ paperId, score }) => ({ paperId, score }));
  }

  async #window(
    match: Match,
    filters: IndexFilters,
    weights: ColumnWeights,
    window: number,
    limit: number,
    offset: number,
  ): Promise<(RankedRow & { matched: number })[]> {
    const leaves = rankedLeaves(match);
    const idf = await this.#inverseFrequencies(leaves);
    const params: unknown[] = [
      tsquery(match),
      window,
      limit,
      offset,
      rankWeights(weights),
      idf,
      leaves.map((l) => l.query),
    ];
    const sql = RANKED_WINDOW(filterSql(filters, params), leaves.length);
    return this.#throughIndex<RankedRow & { matched: number }>(sql, params);
  }

  /** `sql`'s rows with its text matches read through the GIN index (see TEXT_THROUGH_INDEX). */
  async #throughIndex<T extends object>(sql: string, params: unknown[]): Promise<T[]> {
    const client = await this.#pool.connect();
    try {
      await client.query(TEXT_THROUGH_INDEX);
      const { rows } = await client.query<T>(sql, params);
      await client.query(END_READ);
      return rows;
    } catch (err) {
      await client.query(ABORT_READ).catch(() => {});
      throw err;
    } finally {
      client.release();
    }
  }

  /** Each part's weight as bm25 gives it: ln(1 + (N - n + 0.5) / (n + 0.5)) for a part n papers hold. */
  async #inverseFrequencies(leaves: readonly RankedLeaf[]): Promise<number[]> {
    const words = [...new Set(leaves.filter((l) => !l.prefix).flatMap((l) => l.terms))];
    const [papers, known] = await Promise.all([this.indexedPapers(), this.vocabulary(words)]);
    const docs = new Map(known.map((t) => [t.term, t.docs]));
    return Promise.all(
      leaves.map(async (leaf) => {
        const [first = ''] = leaf.terms;
        const n = leaf.prefix
          ? await this.#papersStartingWith(first)
          : Math.min(...leaf.terms.map((t) => docs.get(t) ?? 0));
        const held = Math.min(n, papers);
        return Math.log(1 + (papers - held + 0.5) / (held + 0.5));
      }),
    );
  }

  async #papersStartingWith(prefix: string): Promise<number> {
    const { rows } = await this.#pool.query<{ n: number }>(PAPERS_IN_RANGE, [prefix, prefixEnd(prefix)]);
    return rows[0]?.n ?? 0;
  }

  async countMatches(match: Match, filters: IndexFilters): Promise<number> {
    const params: unknown[] = [tsquery(match)];
    const [row] = await this.#throughIndex<{ n: number }>(COUNT_MATCHES(filterSql(filters, params)), params);
    return row?.n ?? 0;
  }

  async newest(
    match: Match | null,
    filters: IndexFilters,
    page: { limit: number; offset: number },
  ): Promise<{ ids: string[]; total: number }> {
    if (match === null) {
      const params: unknown[] = [page.limit, page.offset];
      const counted: unknown[] = [];
      const [found, count] = await Promise.all([
        this.#pool.query<{ id: string }>(NEWEST(filterSql(filters, params)), params),
        this.#pool.query<{ n: number }>(COUNT(filterSql(filters, counted)), counted),
      ]);
      return { ids: found.rows.map((r) => r.id), total: count.rows[0]?.n ?? 0 };
    }
    const params: unknown[] = [tsquery(match), page.limit, page.offset];
    const [found, total] = await Promise.all([
      this.#pool.query<{ id: string }>(NEWEST_MATCHES(filterSql(filters, params)), params),
      this.countMatches(match, filters),
    ]);
    return { ids: found.rows.map((r) => r.id), total };
  }

  async hitsUpTo(match: Match, cap: number): Promise<number> {
    // A word in any column: the vocabulary counts its papers (related papers ask dozens at a time).
    if (match.kind === 'word' && !match.prefix) {
      const [known] = await this.vocabulary([match.term]);
      return Math.min(cap, known?.docs ?? 0);
    }
    // A prefix holds at least the papers its most used completion does: enough when that reaches `cap`.
    if (match.kind === 'word') {
      const { rows } = await this.#pool.query<{ n: number }>(MOST_IN_RANGE, [
        match.term,
        prefixEnd(match.term),
      ]);
      if ((rows[0]?.n ?? 0) >= cap) return cap;
    }
    const [row] = await this.#throughIndex<{ n: number }>(HITS_UP_TO, [tsquery(match), cap]);
    return row?.n ?? 0;
  }

  async vocabulary(terms: readonly string[]): Promise<TermDocs[]> {
    if (terms.length === 0) return [];
    return (await this.#pool.query<TermDocs>(VOCABULARY, [terms])).rows;
  }

  async vocabularyRange(from: string, to: string, limit: number): Promise<TermDocs[]> {
    return (await this.#pool.query<TermDocs>(VOCABULARY_RANGE, [from, to, limit])).rows;
  }

  async columnVocabulary(terms: readonly string[]): Promise<ColumnDocs[]> {
    if (terms.length === 0) return [];
    return (await this.#pool.query<ColumnDocs>(COLUMN_VOCABULARY, [terms])).rows;
  }

  async averageTerms(): Promise<AverageTerms> {
    const { rows } = await this.#pool.query<AverageTerms>(AVERAGE_TERMS);
    return rows[0] ?? { title: 0, authors: 0, abstract: 0 };
  }

  async indexedPapers(): Promise<number> {
    return (await this.#pool.query<{ n: number }>(INDEXED_PAPERS)).rows[0]?.n ?? 0;
  }

  async paperRows(ids: readonly string[]): Promise<Map<string, PaperTextRow>> {
    if (ids.length === 0) return new Map();
    const { rows } = await this.#pool.query<PaperTextRow>(PAPER_ROWS, [ids]);
    return new Map(rows.map((r) => [r.id, r]));
  }

  async storedNarrower(topic: string): Promise<string[]> {
    return (await this.#pool.query<{ topic: string }>(NARROWER_STORED, [topic])).rows.map((r) => r.topic);
  }

  async tagsOf(ids: readonly string[]): Promise<{ paper_id: string; topic: string }[]> {
    if (ids.length === 0) return [];
    return (await this.#pool.query<{ paper_id: string; topic: string }>(TAGS_OF, [ids])).rows;
  }

  async close(): Promise<void> {
    if (this.#owned) await this.#pool.end();
  }
}

/** A reader over its own pool to `url` (the search thread's). */
export async function openPgSearchReader(url: string): Promise<PgSearchReader> {
  return new PgSearchReader(await openPgPool(url), true);
}

/**
 * The filters as SQL over `d` (the papers row), their values appended to `params` as numbered
 * parameters; every filter, including its topic's, read through an index.
 */
function filterSql(filters: IndexFilters, params: unknown[]): string {
  const next = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const parts: string[] = [];
  if (filters.from !== null) parts.push(FROM_FILTER(next(filters.from)));
  if (filters.to !== null) parts.push(TO_FILTER(next(filters.to)));
  if (filters.topics !== null) {
    const topics = next(filters.topics);
    parts.push(filters.topicsFrom === 'closure' ? TOPIC_CLOSURE_FILTER(topics) : TOPIC_TAGS_FILTER(topics));
  }
  if (filters.categories !== null) parts.push(CATEGORY_FILTER(next(filters.categories)));
  return parts.map((p) => `\n  AND ${p}`).join('');
}

/** ts_rank's weights, {D, C, B, A}, from the columns' (at most 1 each, so scaled by the largest). */
function rankWeights(weights: ColumnWeights): number[] {
  const top = Math.max(weights.title, weights.authors, weights.abstract, Number.MIN_VALUE);
  return [0, weights.abstract / top, weights.authors / top, weights.title / top];
}
