import {
  EXACT_TOTAL_UP_TO,
  roundedTotal,
  toldTotal,
  type AverageTerms,
  type ColumnDocs,
  type ColumnWeights,
  type IndexFilters,
  type PaperTextRow,
  type RankedPage,
  type RankedRow,
  type SearchReader,
  type TermDocs,
} from '../search-reader.ts';
import { prefixEnd, type Match } from '../search-match.ts';
import { openPgPool, type PgPool } from './pg-pool.ts';
import {
  ABORT_READ,
  AVERAGE_TERMS,
  BOUNDED_THROUGH_INDEXES,
  CATEGORY_FILTER,
  COLUMN_VOCABULARY,
  COUNT,
  COUNT_MATCHES,
  COUNT_MATCHES_UP_TO,
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
  READER_SETTINGS,
  SAMPLE_IDS,
  TAGS_OF,
  TEXT_THROUGH_INDEX,
  WORDS_MERGED,
  TO_FILTER,
  TOPIC_CLOSURE_FILTER,
  TOPIC_TAGS_FILTER,
  VOCABULARY,
  VOCABULARY_RANGE,
  type SearchVector,
} from './pg-search-queries.ts';
import {
  POSTINGS_ANY_WITHOUT,
  POSTINGS_CLAUSE_ID,
  POSTINGS_PAPERS_ID,
  POSTINGS_COUNT,
  POSTINGS_HITS,
  POSTINGS_WINDOW,
  postingClauses,
  type ClauseParams,
  type PostingAtom,
} from './pg-search-postings-window.ts';
import { estimateFromWindow } from './pg-search-estimate.ts';
import { rankedLeaves, tsquery, withinTitle, type RankedLeaf } from './pg-tsquery.ts';
import { WordBatch } from './pg-word-batch.ts';

/**
 * Search's reader on PostgreSQL (issue 13): the index written with the papers (pg-search-schema.ts) read
 * as SearchReader promises, so FtsSearch runs over it unchanged: matches as tsqueries, the first ranking
 * by ts_rank with the columns' weights times each part's inverse document frequency (pg-search-queries.ts:
 * RANKED_WINDOW), the vocabulary from search_words (pg_trgm-indexed; papers in all and per column), the
 * papers indexed and their mean terms from search_totals, totals of matches counted exactly up to
 * EXACT_TOTAL_UP_TO and estimated past it (pg-search-estimate.ts), as SQLite's are.
 */
export class PgSearchReader implements SearchReader {
  readonly readsOverlap = true;
  readonly #pool: PgPool;
  readonly #owned: boolean;
  #ids: { ids: readonly string[]; at: number } | null = null;

  readonly #postings: boolean;
  readonly #exactUpTo: number;
  readonly #words = new WordBatch((terms) => this.vocabulary(terms));

  /**
   * `owned`: the pool is ended with the reader, and its connections read text through the index only.
   * `postings` false: every window read from the vectors, as before the postings (for comparing the two).
   * `exactTotalUpTo`: EXACT_TOTAL_UP_TO unless a test needs estimates from a few papers.
   */
  constructor(
    pool: PgPool,
    owned = false,
    {
      postings = true,
      exactTotalUpTo = EXACT_TOTAL_UP_TO,
    }: { postings?: boolean; exactTotalUpTo?: number } = {},
  ) {
    this.#pool = pool;
    this.#owned = owned;
    this.#postings = postings;
    this.#exactUpTo = exactTotalUpTo;
  }

  async ranked(
    match: Match,
    filters: IndexFilters,
    weights: ColumnWeights,
    page: { limit: number; offset: number; window: number },
  ): Promise<RankedPage> {
    const window = Math.max(page.window, page.offset + page.limit);
    const found = await this.#window(match, filters, weights, {
      window,
      limit: page.limit,
      offset: page.offset,
      counted: true,
    });
    const rows = found.map(({ paperId, score }) => ({ paperId, score }));
    const [top] = found;
    // Every match in the window, or counted with it when it read them all (RANKED_WINDOW's total): known.
    if (top?.matched !== undefined && top.matched < window) return { rows, ...this.#told(top.matched) };
    if (top?.total !== undefined) return { rows, ...this.#told(top.total) };
    const cap = this.#exactUpTo + 1;
    // The window was full (or the page lay past it): counted up to the cap where the window is smaller.
    const counted = top !== undefined && window >= cap ? cap : await this.#countUpTo(match, filters, cap);
    if (counted < cap) return { rows, total: counted, estimated: false };
    return {
      rows,
      total: await this.#estimate(match, filters, window, top?.lowest ?? null),
      estimated: true,
    };
  }

  #told(n: number): { total: number; estimated: boolean } {
    return toldTotal(n, this.#exactUpTo);
  }

  /**
   * How many match, more than the exact count: a word's papers as the vocabulary counts them, else from how
   * far back the full window of the newest matches reached (`lowest`, its oldest id; null: the page lay past
   * the matches, every one counted then).
   */
  async #estimate(
    match: Match,
    filters: IndexFilters,
    window: number,
    lowest: string | null,
  ): Promise<number> {
    const atLeast = this.#exactUpTo + 1;
    if (match.kind === 'word' && !match.prefix && !filtered(filters)) {
      return roundedTotal(Math.max(atLeast, await this.#words.docs(match.term)));
    }
    if (lowest === null) return roundedTotal(Math.max(atLeast, await this.countMatches(match, filters)));
    const ids = await this.#sampledIds(await this.indexedPapers());
    return estimateFromWindow(window, lowest, ids, Math.max(atLeast, window));
  }

  /** How many match under the filters, counting no further than `cap`. */
  async #countUpTo(match: Match, filters: IndexFilters, cap: number): Promise<number> {
    if (!filtered(filters)) return this.hitsUpTo(match, cap);
    const params: unknown[] = [tsquery(match), cap];
    const sql = COUNT_MATCHES_UP_TO(filterSql(filters, params), vectorOf(match));
    const [row] = await this.#throughIndex<{ n: number }>(sql, params);
    return row?.n ?? 0;
  }

  async best(
    match: Match,
    filters: IndexFilters,
    weights: ColumnWeights,
    page: { limit: number; window: number },
  ): Promise<RankedRow[]> {
    const window = Math.max(page.window, page.limit);
    const found = await this.#window(match, filters, weights, {
      window,
      limit: page.limit,
      offset: 0,
      counted: false,
    });
    return found.map(({ paperId, score }) => ({ paperId, score }));
  }

  async #window(
    match: Match,
    filters: IndexFilters,
    weights: ColumnWeights,
    page: WindowPage,
  ): Promise<WindowRow[]> {
    const { window, limit, offset } = page;
    const leaves = rankedLeaves(match);
    // Nothing ranks only where every part asks a column its own column filter rules out: that matches no
    // paper, and its statement would leave the ranking's parameters untyped (PostgreSQL refuses it).
    if (leaves.length === 0) return [];
    // Under filters the forms' postings would be read whole (the newest-first bound needs no filter): the
    // vectors' index and the filter stay cheaper there, as for the prefix's count.
    const forms = filtered(filters) ? null : await this.#formsOfPrefix(match);
    if (forms !== null) return this.#prefixWindow(forms, match, filters, weights, page);
    const { idf, expected, papers, held } = await this.#inverseFrequencies(leaves);
    // A prefix among other words, as its words' range of the postings when they are few enough, and not
    // many more than the rarest other part's papers: beside a rare word the GIN index meets the prefix's
    // forms as bitmaps and reads no more of them ("repurposing diffusion*" at 6x: 18 ms against 49).
    const rarest = Math.min(...leaves.flatMap((l, i) => (l.prefix ? [] : [held[i] ?? 0])));
    // A prefix alone (here only under filters) stays on the vectors: nothing bounds its range's reading.
    const ranges =
      Number.isFinite(rarest) &&
      leaves.every(
        (l, i) =>
          !l.prefix ||
          ((held[i] ?? 0) <= PREFIX_RANGE_POSTINGS && (held[i] ?? 0) <= PREFIX_RANGE_OVER_RAREST * rarest),
      );
    const clauses = this.#postings ? postingClauses(match, undefined, ranges) : null;
    if (clauses !== null && clauses.flat().length === leaves.length) {
      return this.#postingsWindow(clauses, idf, match, filters, weights, page);
    }
    const params: unknown[] = [
      tsquery(match),
      window,
      limit,
      offset,
      rankWeights(weights),
      idf,
      leaves.map((l) => l.query),
      Math.max(WHOLE_VECTORS_RANKED, limit + offset),
    ];
    const filterText = filterSql(filters, params);
    const vector = vectorOf(match);
    // Not for a title-only match: its papers are counted in any column, so the bound would reach too few.
    const from =
      filterText === '' && vector === 'doc' ? await this.#windowFrom(window, expected, papers) : null;
    if (from !== null) {
      // Exact when the window filled above the bound: the newest `window` matches all lie there.
      const bounded = await this.#inTransaction<WindowRow>(
        BOUNDED_THROUGH_INDEXES,
        RANKED_WINDOW(filterText, leaves.length, vector, `$${params.length + 1}`),
        [...params, from],
      );
      if (bounded[0]?.matched === window) return bounded;
    }
    const sql = RANKED_WINDOW(filterText, leaves.length, vector);
    return this.#throughIndex<WindowRow>(sql, params);
  }

  /**
   * A match of one prefix alone (a one-word query being typed), as the indexed words it stands for, when
   * they are at most MAX_PREFIX_FORMS: null otherwise (or without the postings). Their postings then give
   * its window: ts_rank scores a prefix as the sum of each matching word's own score (calc_rank_or walks
   * every entry the prefix finds), so each form weighs in with the prefix's one idf, and the window is
   * the vectors' (their GIN index matched the forms, then the best 500 were read whole out of TOAST: 100 ms
   * for "counterfactual" at 10x under load).
   */
  async #formsOfPrefix(match: Match): Promise<TermDocs[] | null> {
    if (!this.#postings || match.kind !== 'word' || !match.prefix) return null;
    const forms = await this.vocabularyRange(match.term, prefixEnd(match.term), MAX_PREFIX_FORMS + 1);
    return forms.length > MAX_PREFIX_FORMS ? null : forms;
  }

  async #prefixWindow(
    forms: readonly TermDocs[],
    match: Match,
    filters: IndexFilters,
    weights: ColumnWeights,
    page: WindowPage,
  ): Promise<WindowRow[]> {
    if (forms.length === 0) return [];
    const papers = await this.indexedPapers();
    // The papers holding any form, as #inverseFrequencies weighs a prefix (PAPERS_IN_RANGE).
    const n = Math.min(
      papers,
      forms.reduce((sum, f) => sum + f.docs, 0),
    );
    const idf = Math.log(1 + (papers - n + 0.5) / (n + 0.5));
    const clause = forms.map((f) => ({ term: f.term, weights: EVERY_COLUMN }));
    return this.#postingsWindow(
      [clause],
      clause.map(() => idf),
      match,
      filters,
      weights,
      page,
    );
  }

  /** The window read from the postings (pg-search-postings-window.ts), for a match made of words. */
  async #postingsWindow(
    clauses: PostingAtom[][],
    idf: readonly number[],
    match: Match,
    filters: IndexFilters,
    weights: ColumnWeights,
    page: WindowPage,
  ): Promise<WindowRow[]> {
    const params: unknown[] = [rankWeights(weights), page.window, page.limit, page.offset];
    const filterId = POSTINGS_FILTER_ID(filters);
    const filterText = filterSql(filters, params, filterId);
    const sql = POSTINGS_WINDOW(
      clauses,
      vectorOf(match),
      filterText,
      clauseParams(clauses, idf, params),
      filterId,
      page.counted,
    );
    const [only] = clauses;
    const phraseAlone = clauses.length === 1 && only?.length === 1 && only[0]?.phrase !== undefined;
    if (phraseAlone && filterText === '') return this.#inTransaction(WORDS_MERGED, sql, params);
    return this.#throughIndex<WindowRow>(sql, params);
  }

  /**
   * An id the newest `window` of a match's papers most likely all reach (at or above it), when it matches
   * many more (`expected` of `papers`): reading only the matches from there costs a fraction of reading
   * them all (35,590 for "optimization" at 10x, 20-110 ms) when the GIN index and the primary key's range
   * meet as bitmaps before any row is read, which the planner does for a narrow range (the newest 15% of
   * the papers, not 28%, at 10x). Null when the match is not that common.
   */
  async #windowFrom(window: number, expected: number, papers: number): Promise<string | null> {
    if (expected < BOUND_FROM_WINDOWS * window) return null;
    const ids = await this.#sampledIds(papers);
    const at = Math.floor(((BOUND_MARGIN * window) / expected) * ids.length);
    return at < ids.length ? (ids[at] ?? null) : null;
  }

  /** Indexed papers' ids, newest first, sampled at random (SAMPLE_IDS) and kept a while. */
  async #sampledIds(papers: number): Promise<readonly string[]> {
    const now = performance.now();
    if (this.#ids !== null && now - this.#ids.at < ID_SAMPLE_KEPT_MS) return this.#ids.ids;
    const percent = Math.min(100, (100 * ID_SAMPLE) / Math.max(1, papers));
    const { rows } = await this.#pool.query<{ id: string }>(SAMPLE_IDS, [percent]);
    const ids = rows.map((r) => r.id).sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));
    this.#ids = { ids, at: now };
    return ids;
  }

  /** `sql`'s rows with its text matches read through the GIN index (see TEXT_THROUGH_INDEX). */
  async #throughIndex<T extends object>(sql: string, params: unknown[]): Promise<T[]> {
    // A pool of the reader's own was opened so (READER_SETTINGS): no transaction to set it in.
    if (this.#owned) return (await this.#pool.query<T>(sql, params)).rows;
    return this.#inTransaction(TEXT_THROUGH_INDEX, sql, params);
  }

  /** `sql`'s rows in a read-only transaction `begin` opens (and sets the planner's choices in). */
  async #inTransaction<T extends object>(begin: string, sql: string, params: unknown[]): Promise<T[]> {
    const client = await this.#pool.connect();
    try {
      await client.query(begin);
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

  /**
   * Each part's weight as bm25 gives it: ln(1 + (N - n + 0.5) / (n + 0.5)) for a part n papers hold; and
   * the papers expected to hold them all, as if each part, and each word of a phrase, were found apart
   * from the others (a phrase's rarest word overstates it: "task specific" matches 6,630 papers at 10x,
   * each of its words tens of thousands).
   */
  async #inverseFrequencies(
    leaves: readonly RankedLeaf[],
  ): Promise<{ idf: number[]; expected: number; papers: number; held: number[] }> {
    const words = [...new Set(leaves.filter((l) => !l.prefix).flatMap((l) => l.terms))];
    // All asked at once: a prefix's papers do not wait for the words' (one round trip, not two).
    const [papers, known, starting] = await Promise.all([
      this.indexedPapers(),
      this.vocabulary(words),
      Promise.all(
        leaves.map((l) => (l.prefix ? this.#papersStartingWith(l.terms[0] ?? '') : Promise.resolve(0))),
      ),
    ]);
    const docs = new Map(known.map((t) => [t.term, t.docs]));
    const held = leaves.map((leaf, i) => {
      const n = leaf.prefix ? (starting[i] ?? 0) : Math.min(...leaf.terms.map((t) => docs.get(t) ?? 0));
      return Math.min(n, papers);
    });
    const share = (n: number) => Math.min(n, papers) / Math.max(1, papers);
    const shares = leaves.map((leaf, i) =>
      leaf.prefix || leaf.terms.length < 2
        ? share(held[i] ?? 0)
        : leaf.terms.reduce((s, t) => s * share(docs.get(t) ?? 0), 1),
    );
    return {
      idf: held.map((n) => Math.log(1 + (papers - n + 0.5) / (n + 0.5))),
      expected: shares.reduce((e, s) => e * s, papers),
      papers,
      held,
    };
  }

  async #papersStartingWith(prefix: string): Promise<number> {
    const { rows } = await this.#pool.query<{ n: number }>(PAPERS_IN_RANGE, [prefix, prefixEnd(prefix)]);
    return rows[0]?.n ?? 0;
  }

  async countMatches(match: Match, filters: IndexFilters): Promise<number> {
    // A word in any column, unfiltered: the vocabulary counts its papers, as the index's triggers keep them
    // (a common word's matches counted one by one cost 30-280 ms at 10x).
    if (match.kind === 'word' && !match.prefix && !filtered(filters)) {
      const [known] = await this.vocabulary([match.term]);
      return known?.docs ?? 0;
    }
    const forms = filtered(filters) ? null : await this.#formsOfPrefix(match);
    const clauses =
      forms !== null
        ? [forms.map((f) => ({ term: f.term, weights: EVERY_COLUMN }))]
        : this.#postings && !filtered(filters)
          ? postingClauses(match)
          : null;
    if (forms?.length === 0) return 0;
    if (clauses !== null) {
      const params: unknown[] = [rankWeights({ title: 1, authors: 1, abstract: 1 })];
      const idf = clauses.flat().map(() => 0);
      const sql = POSTINGS_COUNT(clauses, clauseParams(clauses, idf, params));
      const [counted] = await this.#throughIndex<{ n: number }>(sql, params);
      return counted?.n ?? 0;
    }
    const params: unknown[] = [tsquery(match)];
    const sql = COUNT_MATCHES(filterSql(filters, params), vectorOf(match));
    const [row] = await this.#throughIndex<{ n: number }>(sql, params);
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
    // A word in any column: the vocabulary counts its papers (related papers ask dozens at a time, read
    // in one statement).
    if (match.kind === 'word' && !match.prefix) return Math.min(cap, await this.#words.docs(match.term));
    // A prefix holds at least the papers its most used completion does: enough when that reaches `cap`.
    if (match.kind === 'word') {
      const { rows } = await this.#pool.query<{ n: number }>(MOST_IN_RANGE, [
        match.term,
        prefixEnd(match.term),
      ]);
      if ((rows[0]?.n ?? 0) >= cap) return cap;
    }
    const absent = this.#postings && cap === 1 ? anyWordWithout(match) : null;
    if (absent !== null) {
      const [found] = await this.#throughIndex<{ n: number }>(POSTINGS_ANY_WITHOUT, [absent.any, absent.not]);
      return found?.n ?? 0;
    }
    const clauses = this.#postings ? postingClauses(match) : null;
    if (clauses !== null) {
      const params: unknown[] = [rankWeights({ title: 1, authors: 1, abstract: 1 }), cap];
      const idf = clauses.flat().map(() => 0);
      const sql = POSTINGS_HITS(clauses, clauseParams(clauses, idf, params));
      const [counted] = await this.#throughIndex<{ n: number }>(sql, params);
      return counted?.n ?? 0;
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
export async function openPgSearchReader(
  url: string,
  options: { exactTotalUpTo?: number } = {},
): Promise<PgSearchReader> {
  return new PgSearchReader(await openPgPool(url, READER_SETTINGS), true, options);
}

/**
 * The filters as SQL over `d` (the papers row), their values appended to `params` as numbered
 * parameters; every filter, including its topic's, read through an index.
 */
function filterSql(filters: IndexFilters, params: unknown[], id = 'd.id'): string {
  const next = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const parts: string[] = [];
  if (filters.from !== null) parts.push(FROM_FILTER(next(filters.from)));
  if (filters.to !== null) parts.push(TO_FILTER(next(filters.to)));
  if (filters.topics !== null) {
    const topics = next(filters.topics);
    parts.push(
      filters.topicsFrom === 'closure' ? TOPIC_CLOSURE_FILTER(topics, id) : TOPIC_TAGS_FILTER(topics, id),
    );
  }
  if (filters.categories !== null) {
    // An archive has no dot: asked only dotted names, no archive can match them.
    const archives = filters.categories.some((c) => !c.includes('.'));
    parts.push(CATEGORY_FILTER(next(filters.categories), id, archives));
  }
  return parts.map((p) => `\n  AND ${p}`).join('');
}

/** The parameters a postings window's clauses read their words by, appended to `params`. */
function clauseParams(
  clauses: readonly PostingAtom[][],
  idf: readonly number[],
  params: unknown[],
): ClauseParams {
  const atoms = clauses.flat();
  const next = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  return {
    word: (i) => ({ term: `${next(atoms[i]?.term ?? '')}::text`, idf: next(idf[i] ?? 0) }),
    term: (i) => `${next(atoms[i]?.term ?? '')}::text`,
    words: (at) => {
      const of = at.map((i) => ({ atom: atoms[i], idf: idf[i] ?? 0 }));
      return {
        terms: next(of.map(({ atom }) => atom?.term ?? '')),
        idfs: next(of.map(({ idf }) => idf)),
        cols: next(of.map(({ atom }) => atom?.weights ?? '')),
      };
    },
    phrase: (i) => {
      const atom = atoms[i];
      return {
        terms: [...new Set(atom?.phrase ?? [atom?.term ?? ''])].map((t) => `${next(t)}::text`),
        idf: next(idf[i] ?? 0),
      };
    },
    range: (i) => {
      const term = atoms[i]?.term ?? '';
      return { from: `${next(term)}::text`, to: `${next(prefixEnd(term))}::text`, idf: next(idf[i] ?? 0) };
    },
  };
}

/**
 * A window's row: how many the window held and the oldest id it reached (`lowest`), and how many match in
 * all when the statement counted them (none of these when the window was asked uncounted).
 */
type WindowRow = RankedRow & { matched?: number; lowest?: string; total?: number };

/** A ranked window asked for: its size, the page of it, and whether its matches are to be counted. */
interface WindowPage {
  window: number;
  limit: number;
  offset: number;
  counted: boolean;
}

/** A prefix standing for more indexed words than this is ranked from the vectors. */
const MAX_PREFIX_FORMS = 200;
/**
 * A prefix among other words whose words' postings are at most this many is read from the postings, as a
 * range of the key (pg-search-postings-window.ts: prefixSql); more, from the vectors.
 */
const PREFIX_RANGE_POSTINGS = 60_000;
/** …and at most this many times the papers of the rarest other part (Infinity when none). */
const PREFIX_RANGE_OVER_RAREST = 8;
/** A posting's word asked in every column (pg-search-postings-window.ts: PostingAtom weights). */
const EVERY_COLUMN = 'ABC';

/** A window is bounded by id (see #windowFrom) when a match is expected in this many windows' worth… */
const BOUND_FROM_WINDOWS = 4;
/** …from where twice the window is expected to match, so that it fills more often than not. */
const BOUND_MARGIN = 2;
/** Ids sampled for the bound, and for how long the sample serves (later papers only widen its reach). */
const ID_SAMPLE = 4_000;
const ID_SAMPLE_KEPT_MS = 10 * 60_000;

/**
 * Papers of a ranked window whose whole vectors are ranked at most (the best by their titles first; see
 * RANKED_WINDOW): every paper of a window this small, as the tests' listing's matches are.
 */
export const WHOLE_VECTORS_RANKED = 500;

/** The words of a match of any of them but not one word, all in any column (else null). */
function anyWordWithout(match: Match): { any: string[]; not: string } | null {
  if (match.kind !== 'without' || match.not.kind !== 'word' || match.not.prefix) return null;
  const of = match.of.kind === 'any' ? match.of.of : [match.of];
  const any = of.flatMap((m) => (m.kind === 'word' && !m.prefix ? [m.term] : []));
  return any.length === of.length ? { any, not: match.not.term } : null;
}

/**
 * The id a postings window's filters test: the clause's own when no filter reads the papers row (topics
 * and categories only), which the window then does not join (a papers key probe per posting: 6,190 for
 * "explanation" under two categories at 10x, 110 against 60 ms); else the row's (POSTINGS_PAPERS_ID).
 */
const POSTINGS_FILTER_ID = (filters: IndexFilters): string =>
  filters.from === null && filters.to === null ? POSTINGS_CLAUSE_ID : POSTINGS_PAPERS_ID;

const filtered = (filters: IndexFilters): boolean =>
  filters.from !== null || filters.to !== null || filters.topics !== null || filters.categories !== null;

/** The vector `match` is read on: a match of titles alone on the title's (see SEARCH_TITLE_VECTOR). */
const vectorOf = (match: Match): SearchVector => (withinTitle(match) ? 'title_doc' : 'doc');

/** ts_rank's weights, {D, C, B, A}, from the columns' (at most 1 each, so scaled by the largest). */
function rankWeights(weights: ColumnWeights): number[] {
  const top = Math.max(weights.title, weights.authors, weights.abstract, Number.MIN_VALUE);
  return [0, weights.abstract / top, weights.authors / top, weights.title / top];
}
