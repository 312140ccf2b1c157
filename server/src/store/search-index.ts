import type { Database, Statement } from 'better-sqlite3';
import { PLAN_COUNT_UP_TO, SearchCategoryFilter } from './search-category-filter.ts';
import { DOCS_PER_WORD, LOOKUP_US, WORD_US } from './search-doc-bits.ts';
import { DATA_VERSION, DocSets, IN_SET } from './search-doc-sets.ts';
import { SEARCH_COLUMNS } from './search-index-schema.ts';
import { planCountCap } from './search-plan-count.ts';
import { TermCounts, type Fts5Vocabulary } from './search-term-counts.ts';
import { TITLE_HITS_UP_TO, TITLES_FILTERED, TITLES_RECENT, TITLES_TABLE } from './search-titles.ts';
import { readVarints } from './sqlite-varints.ts';
import { lookUpTerms, segmentsIn, type TermDocs } from './search-vocabulary.ts';

/**
 * Reads the on-disk search index (see search-index-schema.ts). Queries take an FTS5 expression built by
 * the search service and filters applied through indexed tables: tags by paper (`paper_tags`),
 * categories by paper (`paper_categories`), listing dates in `search_docs`.
 *
 * Ranking cost grows with the papers matched (bm25 is computed per match), so a ranked query scores at
 * most `window` matches: all of them when no more match, else the most recently indexed. Counting costs a
 * pass over every match too, so a total is exact only up to EXACT_TOTAL_UP_TO; past it the total is
 * rounded to two significant figures and marked estimated: the window's own count when the window held
 * every match, else estimated from how far back the window reached (see `estimatedTotal`).
 */

/**
 * Matches counted exactly at most; past this a reader is told "about" a two-figure number (6,634 is
 * "about 6,600"), which serves as well, and no search counts a common word's every match (at 100x
 * 400,000 of them, a pass of 40-600 ms with filters probed per match). Both engines hold to it.
 */
export const EXACT_TOTAL_UP_TO = 1_000;

/** Filters every query shape takes; an absent filter is null. */
export interface IndexFilters {
  /**
   * Papers carrying any of these topics: read from `paper_topics` (each paper's tags with every broader
   * topic, kept by the store) when `topicsFrom` is 'closure', or from the stored tags when it is 'tags',
   * in which case the list already holds every narrower topic of those asked for.
   */
  topics: readonly string[] | null;
  topicsFrom: 'closure' | 'tags';
  /** Lowercase categories or archives; a paper matches one of its own categories equal to one, or in it. */
  categories: readonly string[] | null;
  from: string | null;
  to: string | null;
}

/** bm25 weights per column, in the table's column order (title, authors, abstract). */
export interface ColumnWeights {
  title: number;
  authors: number;
  abstract: number;
}

export interface RankedRow {
  paperId: string;
  /** bm25, negated: higher is better. */
  score: number;
}

/**
 * A page of ranked matches and how many match: counted while at most EXACT_TOTAL_UP_TO, else `estimated`
 * (two significant figures, see `roundedTotal`).
 */
export interface RankedPage {
  rows: RankedRow[];
  total: number;
  estimated: boolean;
}

export interface PaperTextRow {
  id: string;
  title: string;
  abstract: string;
  authors: string;
  primary_category: string;
  listing_date: string | null;
}

export type { TermDocs } from './search-vocabulary.ts';

export interface ColumnDocs extends TermDocs {
  field: (typeof SEARCH_COLUMNS)[number];
}

/** Mean terms per column of an indexed paper. */
export type AverageTerms = Record<(typeof SEARCH_COLUMNS)[number], number>;

const FROM_FILTER = `d.listing_date >= @from`;
const TO_FILTER = `d.listing_date <= @to`;
// Correlated, so each candidate costs one index probe: text queries match far fewer papers than a
// broad topic or category holds.
const TOPIC_FILTER = `EXISTS (SELECT 1 FROM paper_tags t
  WHERE t.paper_id = d.paper_id AND t.topic IN (SELECT value FROM json_each(@topics)))`;
// A category asked for matches itself and, as an archive ("cs"), every category in it ("cs.LG"); arXiv
// categories hold at most one dot. Each IN list is made once per query, so a match costs a probe of
// the paper's two or three categories.
const CATEGORY_FILTER = `EXISTS (SELECT 1 FROM paper_categories c WHERE c.paper_id = d.paper_id
  AND (lower(c.category) IN (SELECT value FROM json_each(@categories))
    OR lower(substr(c.category, 1, instr(c.category, '.') - 1)) IN (SELECT value FROM json_each(@categories))))`;
const TOPIC_CLOSURE_FILTER = `EXISTS (SELECT 1 FROM paper_topics t
  WHERE t.topic IN (SELECT value FROM json_each(@topics)) AND t.paper_id = d.paper_id)`;
// The topic's docs held in memory, each match tested against them (see search-doc-sets.ts): the byte of
// the full-text table's rowid (paper_search, or the titles' own: search-titles.ts) in the set's blob.
const TOPIC_DOC_SET = (table: string) => `substr(@topicSet, ${table}.rowid + 1, 1) = ${IN_SET}`;
// The same for categories (see search-category-filter.ts).
const CATEGORY_DOC_SET = (table: string) => `substr(@categorySet, ${table}.rowid + 1, 1) = ${IN_SET}`;
// Without text the filter tables drive: a topic's papers are read through its index, not found by
// probing every paper.
const TOPIC_SET_FILTER = `d.paper_id IN (SELECT paper_id FROM paper_tags
  WHERE topic IN (SELECT value FROM json_each(@topics)))`;
// paper_topics keeps each paper's listing date (copied from papers by the store's triggers, as
// search_docs' is), so with a date filter the topic's index (topic, listing_date, paper_id) reads only
// the papers of those dates: at 100x "topic:autonomous-driving from:… to:…" read the topic's 80,000
// papers, each probed for its date, to find 19 (70 ms; 0.5 ms through the index range).
const TOPIC_CLOSURE_SET_FILTER = (dates: string) => `d.paper_id IN (SELECT paper_id FROM paper_topics
  WHERE topic IN (SELECT value FROM json_each(@topics))${dates})`;
const TOPIC_CLOSURE_FROM = ` AND listing_date >= @from`;
const TOPIC_CLOSURE_TO = ` AND listing_date <= @to`;

// Without filters, more matches than counted exactly: the `window` most recently indexed ones ranked, and
// the oldest doc among them (how far back the window reached, for an estimated total). Equal scores go
// newest first inside the limit, so a page of 60 and one of 80 agree on their first 60.
const RANKED_RECENT = `
SELECT d.paper_id AS paperId, -m.bm25 AS score, m.lowest FROM (
  SELECT doc, bm25, lowest FROM (
    SELECT doc, bm25, min(doc) OVER () AS lowest FROM (
      SELECT rowid AS doc, bm25(paper_search, @title, @authors, @abstract) AS bm25 FROM paper_search
      WHERE paper_search MATCH @match ORDER BY rowid DESC LIMIT @window)
  ) ORDER BY bm25, doc DESC LIMIT @limit OFFSET @offset
) m JOIN search_docs d ON d.doc = m.doc ORDER BY m.bm25, d.paper_id`;

// The same without the oldest doc (every match when no more match than the window), for a total counted
// exactly or not wanted: `min(doc) OVER ()` holds the whole window in a temporary table before ranking it
// (at 10x 'optimization' 6.0 ms with it, 3.9 without).
const RANKED_RECENT_UNCOUNTED = `
SELECT d.paper_id AS paperId, -m.bm25 AS score FROM (
  SELECT doc, bm25 FROM (
    SELECT rowid AS doc, bm25(paper_search, @title, @authors, @abstract) AS bm25 FROM paper_search
    WHERE paper_search MATCH @match ORDER BY rowid DESC LIMIT @window)
  ORDER BY bm25, doc DESC LIMIT @limit OFFSET @offset
) m JOIN search_docs d ON d.doc = m.doc ORDER BY m.bm25, d.paper_id`;

// With filters, whose probes cost more than ranking: one pass that ranks the `window` most recently
// indexed matches passing them and counts those it read.
const RANKED_FILTERED = (filters: string) => `
SELECT paper_id AS paperId, -bm25 AS score, count(*) OVER () AS matched, min(doc) OVER () AS lowest FROM (
  SELECT d.paper_id, d.doc, bm25(paper_search, @title, @authors, @abstract) AS bm25
  FROM paper_search JOIN search_docs d ON d.doc = paper_search.rowid
  WHERE paper_search MATCH @match${filters}
  ORDER BY paper_search.rowid DESC LIMIT @window
) ORDER BY bm25, paper_id LIMIT @limit OFFSET @offset`;

// The same uncounted, for candidates whose total nobody reads (see RANKED_RECENT_UNCOUNTED).
const RANKED_FILTERED_UNCOUNTED = (filters: string) => `
SELECT paper_id AS paperId, -bm25 AS score FROM (
  SELECT d.paper_id, bm25(paper_search, @title, @authors, @abstract) AS bm25
  FROM paper_search JOIN search_docs d ON d.doc = paper_search.rowid
  WHERE paper_search MATCH @match${filters}
  ORDER BY paper_search.rowid DESC LIMIT @window
) ORDER BY bm25, paper_id LIMIT @limit OFFSET @offset`;

const COUNT_MATCHES = (filters: string) =>
  filters === ''
    ? `SELECT count(*) FROM paper_search WHERE paper_search MATCH @match`
    : `SELECT count(*) FROM paper_search JOIN search_docs d ON d.doc = paper_search.rowid
       WHERE paper_search MATCH @match${filters}`;

const NEWEST_MATCHES = (filters: string) => `
SELECT d.paper_id FROM paper_search JOIN search_docs d ON d.doc = paper_search.rowid
WHERE paper_search MATCH @match${filters}
ORDER BY d.listing_date DESC, d.paper_id DESC LIMIT @limit OFFSET @offset`;

const NEWEST = (filters: string) => `
SELECT d.paper_id FROM search_docs d WHERE 1${filters}
ORDER BY d.listing_date DESC, d.paper_id DESC LIMIT @limit OFFSET @offset`;

const COUNT = (filters: string) => `SELECT count(*) FROM search_docs d WHERE 1${filters}`;

// Stops after `cap` rows, so asking whether a common word is rare costs little.
const HITS_UP_TO = `SELECT count(*) FROM (SELECT 1 FROM paper_search WHERE paper_search MATCH ? LIMIT ?)`;
const VOCABULARY = `SELECT term, doc AS docs FROM paper_search_vocab
  WHERE term IN (SELECT value FROM json_each(?))`;
const COLUMN_VOCABULARY = `SELECT term, col AS field, doc AS docs FROM paper_search_columns
  WHERE term IN (SELECT value FROM json_each(?))`;
// FTS5's own running totals: rows, then tokens per column, as SQLite varints (part of FTS5's file format,
// kept for its bm25). One row, so the figures cost one read.
const TOTALS = `SELECT block FROM paper_search_data WHERE id = 1`;
// FTS5's structure record: its levels and segments (see segmentsIn).
const STRUCTURE = `SELECT block FROM paper_search_data WHERE id = 10`;
const VOCABULARY_RANGE = `SELECT term, doc AS docs FROM paper_search_vocab
  WHERE term >= ? AND term < ? ORDER BY term LIMIT ?`;
const VOCABULARY_AFTER = `SELECT term, doc AS docs FROM paper_search_vocab
  WHERE term > ? AND term < ? ORDER BY term LIMIT ?`;
// Rowids are never reused downwards, so the largest is the number of papers ever indexed: a bound on
// the papers now indexed that costs one index seek.
const INDEXED_PAPERS = `SELECT COALESCE(MAX(doc), 0) FROM search_docs`;
const PAPER_ROWS = `SELECT id, title, abstract, authors, primary_category, listing_date FROM papers
  WHERE id IN (SELECT value FROM json_each(?))`;
// From the per-day counts (a few thousand rows however large the topic): a plan needs the size roughly
// (papers without a listing date, and a paper in two of the topics, are counted apart from it).
const COUNT_IN_TOPICS = `SELECT COALESCE(SUM(n), 0) FROM topic_day_counts
  WHERE topic IN (SELECT value FROM json_each(?))`;
const NARROWER_STORED = `SELECT topic FROM topic_closure WHERE broader = ?`;
const TAGS_OF = `SELECT paper_id, topic FROM paper_tags WHERE paper_id IN (SELECT value FROM json_each(?))`;

type Shape = (filters: string) => string;

/**
 * Matches counted (up to a cap) kept until the store changes: one search counts the same match up to
 * three times (whether a prefix is ranked as its word, whether the total is exact, a filter's plan), each
 * a pass over its matches, at 100x 5-20 ms for two common words. At most this many are kept.
 */
const COUNTS_KEPT = 256;

type WindowRow = RankedRow & { matched?: number; lowest: number };

/**
 * How many match when the newest `window` of them (by doc, from the newest) reached back to doc `lowest`
 * of `docs`: the window over the share of the index it read, rounded to two significant digits (a
 * reader is told it is about that many). Assumes matches are spread evenly over the index, as papers on
 * a subject are over the years.
 */
export function estimatedTotal(window: number, lowest: number, docs: number, atLeast: number): number {
  const share = Math.min(1, Math.max(1, docs - lowest + 1) / Math.max(1, docs));
  return roundedTotal(Math.max(atLeast, Math.round(window / share)));
}

/** A count past the exact ones, as a reader is told it: two significant figures (6,634 is 6,600). */
export function roundedTotal(count: number): number {
  const unit = 10 ** Math.max(0, Math.floor(Math.log10(Math.max(1, count))) - 1);
  return Math.round(count / unit) * unit;
}

/**
 * A count as a reader is told it, on either engine: itself up to `exactUpTo`, past it rounded
 * (roundedTotal) and marked estimated.
 */
export function toldTotal(
  count: number,
  exactUpTo = EXACT_TOTAL_UP_TO,
): { total: number; estimated: boolean } {
  return count <= exactUpTo
    ? { total: count, estimated: false }
    : { total: roundedTotal(count), estimated: true };
}

/** How a topic filter on text matches is applied: a probe per match, or a set of the topic's papers. */
type TopicPlan = 'probe' | 'set';

// Per-paper costs measured on a 268,450-paper store: probing paper_topics for one match 1.5 µs; reading
// a topic's doc into a set 0.45 µs from its stored tags, 0.2 µs a bitmap word of 32 docs from its
// closure (search-doc-bits.ts), then testing a match against it 0.08 µs.
const PROBE_US = 1.5;
const GATHER_US = 0.45;
/**
 * Statements of a search that walk the matches under its filters (the ranked window, then the titles'
 * when more match than the window): each probes anew, while a set is read once and kept for them all.
 */
const WALKS_PER_SEARCH = 2;

/** SQLite's index read with FTS5 expressions; the search service reads it through SqliteSearchReader. */
export class SearchIndex {
  readonly #db: Database;
  readonly #statements = new Map<string, Statement>();
  readonly #hitsUpTo: Statement<[string, number], number>;
  readonly #titleHitsUpTo: Statement<[string, number], number>;
  readonly #titlesRecent: Statement<[Record<string, unknown>], RankedRow>;
  readonly #vocabulary: Statement<[string], TermDocs>;
  readonly #vocabularyRange: Statement<[string, string, number], TermDocs>;
  readonly #vocabularyAfter: Statement<[string, string, number], TermDocs>;
  /** FTS5's own vocabulary, every term's papers counted from its list. */
  readonly #fts5Vocabulary: Fts5Vocabulary;
  readonly #columnVocabulary: Statement<[string], ColumnDocs>;
  readonly #termCounts: TermCounts;
  readonly #totals: Statement<[], Buffer>;
  readonly #structure: Statement<[], Buffer>;
  readonly #indexedPapers: Statement<[], number>;
  readonly #paperRows: Statement<[string], PaperTextRow>;
  readonly #tagsOf: Statement<[string], { paper_id: string; topic: string }>;
  readonly #narrowerStored: Statement<[string], string>;
  readonly #countInTopics: Statement<[string], number>;
  readonly #rankedRecent: Statement<[Record<string, unknown>], RankedRow>;
  readonly #rankedRecentUncounted: Statement<[Record<string, unknown>], RankedRow>;
  readonly #exactUpTo: number;
  readonly #docSets: DocSets;
  readonly #categories: SearchCategoryFilter;
  readonly #dataVersion: Statement<[], string>;
  /** By FTS5 expression: the count and the cap it was counted up to. */
  readonly #counted = new Map<string, { count: number; cap: number }>();
  #countedAt = '';

  /** `exactTotalUpTo`: EXACT_TOTAL_UP_TO unless a test needs estimates from a few papers. */
  constructor(db: Database, options: { exactTotalUpTo?: number } = {}) {
    this.#db = db;
    this.#exactUpTo = options.exactTotalUpTo ?? EXACT_TOTAL_UP_TO;
    this.#docSets = DocSets.of(db);
    this.#categories = new SearchCategoryFilter(db, this.#docSets);
    this.#hitsUpTo = db.prepare<[string, number], number>(HITS_UP_TO).pluck();
    this.#titleHitsUpTo = db.prepare<[string, number], number>(TITLE_HITS_UP_TO).pluck();
    this.#titlesRecent = db.prepare(TITLES_RECENT);
    this.#vocabulary = db.prepare(VOCABULARY);
    this.#vocabularyRange = db.prepare(VOCABULARY_RANGE);
    this.#vocabularyAfter = db.prepare(VOCABULARY_AFTER);
    this.#fts5Vocabulary = {
      terms: (some) => this.#vocabulary.all(JSON.stringify(some)),
      range: (from, to, limit, fromIncluded) =>
        (fromIncluded ? this.#vocabularyRange : this.#vocabularyAfter).all(from, to, limit),
    };
    this.#columnVocabulary = db.prepare(COLUMN_VOCABULARY);
    this.#termCounts = new TermCounts(db);
    this.#totals = db.prepare<[], Buffer>(TOTALS).pluck();
    this.#structure = db.prepare<[], Buffer>(STRUCTURE).pluck();
    this.#indexedPapers = db.prepare<[], number>(INDEXED_PAPERS).pluck();
    this.#paperRows = db.prepare(PAPER_ROWS);
    this.#tagsOf = db.prepare(TAGS_OF);
    this.#narrowerStored = db.prepare<[string], string>(NARROWER_STORED).pluck();
    this.#countInTopics = db.prepare<[string], number>(COUNT_IN_TOPICS).pluck();
    this.#rankedRecent = db.prepare(RANKED_RECENT);
    this.#rankedRecentUncounted = db.prepare(RANKED_RECENT_UNCOUNTED);
    this.#dataVersion = db.prepare<[], string>(DATA_VERSION).pluck();
  }

  /**
   * A page of the papers matching `match` and the filters, best first by bm25 with `weights`, and how
   * many match: exactly up to the exact cap, past it rounded and marked estimated. The window's best by
   * their titles alone are not read with it (a second bm25 and a paper id for every row: at 10x
   * 'recommendation' 17-27 ms against 6-10 ms for the page alone); the search reads the best title
   * matches apart when the window is full.
   */
  ranked(
    match: string,
    filters: IndexFilters,
    weights: ColumnWeights,
    page: { limit: number; offset: number; window: number; subset?: string },
  ): RankedPage {
    const window = Math.max(page.window, page.offset + page.limit);
    // Counted through the subset when there is one: FTS5 merges a prefix's every list before counting.
    const countable = page.subset ?? match;
    const plan = this.#topicPlan(filters, window, (cap) => this.hitsUpTo(countable, cap));
    const inCategories = this.#categorySet(filters, window, (cap) => this.hitsUpTo(countable, cap));
    const { sql, params } = this.#filtered(filters, false, plan, inCategories);
    // The text's matches, counted no further than the exact cap goes, or without filters the window: a
    // pass over at most that many, which then tells whether the window holds every match (its count the
    // total); under filters the window counts those passing them itself.
    const upTo = sql === '' ? Math.max(this.#exactUpTo, window) : this.#exactUpTo;
    const matches = this.#matchesUpTo(match, page.subset, upTo + 1);
    const args = { ...params, ...weights, match, window, limit: page.limit, offset: page.offset };
    if (sql !== '') {
      const { rows, first } = this.#window(sql, args);
      // Fewer than the window passed: the window function counted them all.
      if (first?.matched !== undefined && first.matched < window)
        return { rows, ...this.#told(first.matched) };
      if (matches <= this.#exactUpTo || first === undefined)
        return { rows, ...this.#told(this.#count(match, filters, plan, inCategories)) };
      const total = estimatedTotal(window, first.lowest, this.indexedPapers(), window);
      return { rows, total, estimated: true };
    }
    if (matches === 0 || (matches <= upTo && page.offset >= matches))
      return { rows: [], ...this.#told(matches) };
    // Every match in the window: ranked without its oldest doc. Cheaper than FTS5's own ranking
    // (`ORDER BY rank`), which took 20-30% more CPU at 10x for 130 to 2,770 matches.
    if (matches <= upTo) return { rows: this.#rankedRecentUncounted.all(args), ...this.#told(matches) };
    const { rows, first } = this.#window('', args);
    const total = estimatedTotal(window, first?.lowest ?? 0, this.indexedPapers(), upTo + 1);
    return { rows, total, estimated: true };
  }

  #told(count: number): { total: number; estimated: boolean } {
    return toldTotal(count, this.#exactUpTo);
  }

  /** The ranked window under `filters` (SQL): the page's rows and the first row's window figures. */
  #window(filters: string, args: Record<string, unknown>) {
    const found = (
      filters === '' ? this.#rankedRecent.all(args) : this.#statement(RANKED_FILTERED, filters).all(args)
    ) as WindowRow[];
    return { rows: found.map(({ paperId, score }) => ({ paperId, score })), first: found[0] };
  }

  /**
   * The best `limit` of the `window` most recently indexed matches, by bm25 with `weights`, without
   * counting the matches: for a second list of candidates whose total nobody reads (with fewer matches
   * than the window, every one is ranked, as `ranked` would).
   */
  best(
    match: string,
    filters: IndexFilters,
    weights: ColumnWeights,
    page: { limit: number; window: number; subset?: string },
  ): RankedRow[] {
    const window = Math.max(page.window, page.limit);
    const { sql, params } = this.#bestFilters(filters, window, (cap) =>
      this.hitsUpTo(page.subset ?? match, cap),
    );
    if (sql === '')
      return this.#rankedRecentUncounted.all({ match, ...weights, limit: page.limit, offset: 0, window });
    return this.#statement(RANKED_FILTERED_UNCOUNTED, sql).all({
      ...params,
      ...weights,
      match,
      window,
      limit: page.limit,
      offset: 0,
    }) as RankedRow[];
  }

  /**
   * The filters of a `best` window over `table`, its matches counted by `countUpTo` only as far as the
   * topic plan needs; categories as `ranked` read them just before: a set if it read one.
   */
  #bestFilters(
    filters: IndexFilters,
    window: number,
    countUpTo: (cap: number) => number,
    table = 'paper_search',
  ): { sql: string; params: Record<string, unknown> } {
    const names = filters.categories === null ? null : this.#categories.names(filters.categories);
    return this.#filtered(
      filters,
      false,
      this.#topicPlan(filters, window, countUpTo),
      names !== null && this.#docSets.has('categories', names) ? names : null,
      table,
    );
  }

  /**
   * `best` for a match of titles alone (`match`: what it looks for in them, see search-titles.ts), read
   * from the titles' own index and ranked by bm25 over the title with `weight`.
   */
  bestTitles(
    match: string,
    filters: IndexFilters,
    weight: number,
    page: { limit: number; window: number },
  ): RankedRow[] {
    const window = Math.max(page.window, page.limit);
    const { sql, params } = this.#bestFilters(
      filters,
      window,
      (cap) => this.titleHitsUpTo(match, cap),
      TITLES_TABLE,
    );
    const args = { ...params, title: weight, match, window, limit: page.limit };
    if (sql === '') return this.#titlesRecent.all(args);
    return this.#statement(TITLES_FILTERED, sql).all(args) as RankedRow[];
  }

  /**
   * The matches counted up to `cap`. `subset` matches only papers `match` matches (its prefixes as whole
   * words, say) and is counted first: when it alone reaches the cap, so does `match`, and FTS5 need not
   * merge a prefix's every list to count it.
   */
  #matchesUpTo(match: string, subset: string | undefined, cap: number): number {
    if (subset !== undefined && subset !== match && this.hitsUpTo(subset, cap) >= cap) return cap;
    return this.hitsUpTo(match, cap);
  }

  countMatches(match: string, filters: IndexFilters): number {
    const held = filters.topics !== null && this.#docSets.has(filters.topicsFrom, filters.topics);
    const names = filters.categories === null ? null : this.#categories.names(filters.categories);
    const inCategories = names !== null && this.#docSets.has('categories', names) ? names : null;
    return this.#count(match, filters, held ? 'set' : 'probe', inCategories);
  }

  #count(
    match: string,
    filters: IndexFilters,
    plan: TopicPlan,
    inCategories: readonly string[] | null,
  ): number {
    const { sql, params } = this.#filtered(filters, false, plan, inCategories);
    return this.#statement(COUNT_MATCHES, sql)
      .pluck()
      .get({ ...params, match }) as number;
  }

  /**
   * The topic's docs as a set (see search-doc-sets.ts) when it is held already or reading it costs less
   * than a probe per match read: a probe pass stops once `window` matches passed, which takes about
   * window × papers / topic size of them. The text's matches are counted only as far as decides it (see
   * search-plan-count.ts), at most PLAN_COUNT_UP_TO.
   */
  #topicPlan(filters: IndexFilters, window: number, textMatches: (cap: number) => number): TopicPlan {
    if (filters.topics === null) return 'probe';
    if (this.#docSets.has(filters.topicsFrom, filters.topics)) return 'set';
    const inTopics = this.#countInTopics.get(JSON.stringify(filters.topics)) ?? 0;
    const papers = Math.max(1, this.indexedPapers());
    const reach = (window * papers) / Math.max(1, inTopics);
    // A closure is read a bitmap word at a time: at most one row per topic and 32 docs.
    const gather =
      filters.topicsFrom === 'closure'
        ? WORD_US * Math.min(inTopics, filters.topics.length * Math.ceil(papers / DOCS_PER_WORD))
        : GATHER_US * inTopics;
    const setWins = (matches: number) =>
      gather + LOOKUP_US * matches < WALKS_PER_SEARCH * PROBE_US * Math.min(matches, reach);
    // Counted further than the exact total goes: at 100x "topic:reinforcement-learning transformers"
    // chose to probe from a count stopped at 20,001 while 230,000 matched, and probed them all (twice:
    // the window, then the titles), a second and a half.
    const breakEven = gather / (WALKS_PER_SEARCH * PROBE_US - LOOKUP_US);
    const matches = textMatches(planCountCap(setWins, breakEven, PLAN_COUNT_UP_TO));
    return setWins(matches) ? 'set' : 'probe';
  }

  /** The stored categories a `cat:` filter names, when their docs are to be read as a set; else null. */
  #categorySet(filters: IndexFilters, window: number, textMatches: (cap: number) => number): string[] | null {
    if (filters.categories === null) return null;
    const names = this.#categories.names(filters.categories);
    const plan = this.#categories.plan(names, window, this.indexedPapers(), textMatches);
    return plan === 'set' ? names : null;
  }

  /** Papers matching `match` (or every paper, when null) and the filters, newest listing first. */
  newest(
    match: string | null,
    filters: IndexFilters,
    page: { limit: number; offset: number },
  ): { ids: string[]; total: number } {
    if (match !== null) {
      // Ordered by listing date, so every match is read.
      const plan = this.#topicPlan(filters, Infinity, (cap) => this.hitsUpTo(match, cap));
      const inCategories = this.#categorySet(filters, Infinity, (cap) => this.hitsUpTo(match, cap));
      const { sql, params } = this.#filtered(filters, false, plan, inCategories);
      const ids = this.#statement(NEWEST_MATCHES, sql)
        .pluck()
        .all({ ...params, match, ...page }) as string[];
      return { ids, total: this.#count(match, filters, plan, inCategories) };
    }
    const { sql, params } = this.#filtered(filters, true);
    const ids = this.#statement(NEWEST, sql)
      .pluck()
      .all({ ...params, ...page }) as string[];
    return { ids, total: this.#statement(COUNT, sql).pluck().get(params) as number };
  }

  /** How many papers match `match`, counting no further than `cap`. */
  hitsUpTo(match: string, cap: number): number {
    return this.#countUpTo(this.#hitsUpTo, match, match, cap);
  }

  /** How many papers' titles match `match` (in the titles' own index), counting no further than `cap`. */
  titleHitsUpTo(match: string, cap: number): number {
    return this.#countUpTo(this.#titleHitsUpTo, `${TITLES_TABLE} ${match}`, match, cap);
  }

  /** A count by `statement`, kept under `key` until the store changes. */
  #countUpTo(statement: Statement<[string, number], number>, key: string, match: string, cap: number) {
    // Inside a transaction of this connection's own the count may yet be rolled back, which total_changes()
    // does not undo: counted afresh, not kept.
    if (this.#db.inTransaction) return statement.get(match, cap) ?? 0;
    const version = this.#dataVersion.get() ?? '';
    if (version !== this.#countedAt || this.#counted.size >= COUNTS_KEPT) {
      this.#counted.clear();
      this.#countedAt = version;
    }
    const known = this.#counted.get(key);
    // Fewer than the cap: the exact count. As many: at least that many.
    if (known && known.count < known.cap) return Math.min(known.count, cap);
    if (known && cap <= known.cap) return cap;
    const count = statement.get(match, cap) ?? 0;
    this.#counted.set(key, { count, cap });
    return count;
  }

  /**
   * Papers holding each of `terms` that is indexed at all (terms indexed nowhere are left out); a long
   * list's shared prefix read as one range unless the index is one segment (see search-vocabulary.ts),
   * common terms' counts as kept (see search-term-counts.ts).
   */
  vocabulary(terms: readonly string[]): TermDocs[] {
    if (terms.length === 0) return [];
    const fts5 = this.#fts5Vocabulary;
    const segments = this.segments();
    if (!this.#termCounts.current(this.indexedPapers())) {
      return lookUpTerms(
        terms,
        {
          terms: (some) => fts5.terms(some),
          range: (from, to, limit) => fts5.range(from, to, limit, true),
        },
        segments,
      );
    }
    const kept = this.#termCounts;
    return lookUpTerms(
      terms,
      {
        terms: (some) => kept.terms(some, fts5),
        range: (from, to, limit) => kept.range(from, to, limit, fts5),
      },
      segments,
    );
  }

  /** The segments the full-text index holds now (one after a bulk import's merge). */
  segments(): number {
    return segmentsIn(this.#structure.get());
  }

  /** Indexed terms from `from` (included) to `to` (excluded), in order, at most `limit`. */
  vocabularyRange(from: string, to: string, limit: number): TermDocs[] {
    if (!this.#termCounts.current(this.indexedPapers())) return this.#vocabularyRange.all(from, to, limit);
    return this.#termCounts.range(from, to, limit, this.#fts5Vocabulary);
  }

  /**
   * Papers holding each of `terms`, per column (columns without it left out): common terms' counts as kept
   * (see search-term-counts.ts), the others' from FTS5's column vocabulary.
   */
  columnVocabulary(terms: readonly string[]): ColumnDocs[] {
    if (terms.length === 0) return [];
    const count = (some: readonly string[]) => this.#columnVocabulary.all(JSON.stringify(some));
    if (!this.#termCounts.current(this.indexedPapers())) return count(terms);
    return this.#termCounts.columns(terms, count);
  }

  /**
   * Mean terms per column, from FTS5's totals. A contentless table never takes a deleted row out of them
   * (an updated paper counts twice, with its old terms and its new), so rows and terms are over-counted
   * alike and only their ratio is used: a mean over every version ever indexed.
   */
  averageTerms(): AverageTerms {
    const block = this.#totals.get();
    const values = block ? readVarints(block) : [];
    const rows = Math.max(1, values[0] ?? 0);
    const average = Object.fromEntries(SEARCH_COLUMNS.map((c, i) => [c, (values[i + 1] ?? 0) / rows]));
    return average as AverageTerms;
  }

  /** At least the number of papers indexed; exact unless papers were deleted. */
  indexedPapers(): number {
    return this.#indexedPapers.get() ?? 0;
  }

  paperRows(ids: readonly string[]): Map<string, PaperTextRow> {
    if (ids.length === 0) return new Map();
    return new Map(this.#paperRows.all(JSON.stringify(ids)).map((r) => [r.id, r]));
  }

  /**
   * The topics `paper_topics` counts under `topic` (itself included), as the store's recorded hierarchy
   * says: when they are the taxonomy's, `paper_topics` answers a topic: filter exactly.
   */
  storedNarrower(topic: string): string[] {
    return this.#narrowerStored.all(topic);
  }

  /** The stored (narrowest) tags of each paper. */
  tagsOf(ids: readonly string[]): { paper_id: string; topic: string }[] {
    return ids.length === 0 ? [] : this.#tagsOf.all(JSON.stringify(ids));
  }

  #filtered(
    filters: IndexFilters,
    noText: boolean,
    plan: TopicPlan = 'probe',
    inCategories: readonly string[] | null = null,
    table = 'paper_search',
  ): { sql: string; params: Record<string, unknown> } {
    const parts: string[] = [];
    const params: Record<string, unknown> = {};
    if (filters.from !== null) {
      parts.push(FROM_FILTER);
      params.from = filters.from;
    }
    if (filters.to !== null) {
      parts.push(TO_FILTER);
      params.to = filters.to;
    }
    if (filters.topics !== null) {
      const closure = filters.topicsFrom === 'closure';
      if (!noText && plan === 'set') {
        parts.push(TOPIC_DOC_SET(table));
        params.topicSet = this.#docSets.docsOf(filters.topicsFrom, filters.topics);
      } else {
        if (noText && closure) {
          const dates = `${filters.from === null ? '' : TOPIC_CLOSURE_FROM}${filters.to === null ? '' : TOPIC_CLOSURE_TO}`;
          parts.push(TOPIC_CLOSURE_SET_FILTER(dates));
        } else if (noText) parts.push(TOPIC_SET_FILTER);
        else parts.push(closure ? TOPIC_CLOSURE_FILTER : TOPIC_FILTER);
        params.topics = JSON.stringify(filters.topics);
      }
    }
    if (filters.categories !== null && !noText && inCategories !== null) {
      parts.push(CATEGORY_DOC_SET(table));
      params.categorySet = this.#docSets.docsOf('categories', inCategories);
    } else if (filters.categories !== null) {
      parts.push(CATEGORY_FILTER);
      params.categories = JSON.stringify(filters.categories);
    }
    return { sql: parts.map((p) => `\n  AND ${p}`).join(''), params };
  }

  #statement(shape: Shape, filters: string): Statement {
    const sql = shape(filters);
    let statement = this.#statements.get(sql);
    if (!statement) this.#statements.set(sql, (statement = this.#db.prepare(sql)));
    return statement;
  }
}
