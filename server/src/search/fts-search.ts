import {
  authorNamed,
  FIELD_BOOSTS,
  FUZZY_MIN_LENGTH,
  MAX_FUZZY_TERMS,
  MAX_OR_RETRY_TERMS,
  parseQuery,
  personNameKey,
  PREFIX_MIN_LENGTH,
  queryTermsOf,
  RETRY_FUZZY_MIN_LENGTH,
  toSearchResult,
  type ParsedQuery,
  type RelatedPapersDto,
  type SearchField,
  type SearchResponseDto,
  type SearchResultDto,
  type SearchSort,
  type Taxonomy,
} from '@quire/core';
import { QuireError } from '../errors.ts';
import { anyOf, without, word, type Match } from '../store/search-match.ts';
import {
  roundedTotal,
  toldTotal,
  type AverageTerms,
  type IndexFilters,
  type PaperTextRow,
  type RankedRow,
  type SearchReader,
} from '../store/search-reader.ts';
import {
  asWords,
  completionMatch,
  indexFilters,
  wordsMatch,
  textMatch,
  phrasesAndAuthors,
  titleMatch,
  type QueryParts,
  type TermGroup,
} from './query-match.ts';
import { fewMatches, fewMatchesIn, type Picked } from './few-matches.ts';
import { relatedPapers } from './fts-related.ts';
import { matchedTermsOf, rerankScores, type RankedWord } from './rerank.ts';
import type { SearchApi, SearchPage } from './search-api.ts';
import { PaperTermsCache, TermCountsCache } from './search-caches.ts';
import {
  authorNames,
  hitOf,
  type FieldTerms,
  matchedTerms,
  NO_TERMS,
  resultText,
  type MatchedTerms,
} from './search-hits.ts';
import { editDistance, oneEditAway, prefixEnd } from './typo-candidates.ts';

/** The index's first matches scored again per field, as minisearch scores them (see rerank.ts). */
export const RERANK_CANDIDATES = 60;
/** Matches scored per query at most (the most recently indexed ones when more match); see SearchIndex. */
export const RANK_WINDOW = 5_000;
/**
 * When more than RANK_WINDOW match, the best this many matching in titles alone join the candidates
 * re-ranked, so a paper its title names is not lost among the most recent matches.
 */
export const TITLE_CANDIDATES = 20;
/**
 * The best papers holding a word's joined forms, re-ranked besides (see `completionExpression`), among
 * the most recent this many of them: their bm25 weighs every form apart, so each match costs more.
 */
export const COMPLETION_CANDIDATES = 20;
export const COMPLETION_WINDOW = 1_000;
/**
 * Papers a query's words must match, the word being typed taken whole, for that word to be ranked as
 * itself rather than as a prefix (see `#window`): four windows' worth, so that the window's newest
 * matches are nearly the same papers either way; the total is an estimate either way too (past
 * EXACT_TOTAL_UP_TO). Was that cap's value when it stood at 20,000, kept so answers stay the same.
 */
export const PREFIX_AS_WORD_FROM = 20_000;
/** A word found in at most this many papers may be a typo: near spellings found more often join it. */
export const FEW_HITS = 2;
/** Spellings tried besides a word, the most used first. */
export const MAX_CORRECTIONS = 5;
/** Indexed terms read at most when looking for a long word's two-edit spellings. */
export const TWO_EDIT_SCAN = 2_000;
/** Completions of a word being typed checked at most for being held only with the word (see `#wordCompletions`). */
export const MAX_COMPLETIONS = 200;
/** A person's papers listed first for a name search, at most (the newest). */
export const AUTHOR_FIRST = 50;
/** Papers the name's key is indexed for read at most to find them (see `authorNamed`). */
export const AUTHOR_SCAN = 200;

/**
 * Full-text search over the store's index (SQLite's FTS5 or PostgreSQL's tsvector, read through
 * SearchReader), with core's query syntax and field weights. The index is written with the papers, so
 * there is nothing to build or refresh: a search reads what is committed.
 *
 * Typo tolerance happens before the query runs: a word found in almost no paper is looked up, spelt one
 * edit away, in the index's vocabulary, and the spellings found in more papers are searched with it. If
 * no paper has every word, every word gets its near spellings (two edits for long ones); if still none,
 * papers with any of the words are listed.
 */
export class FtsSearch implements SearchApi {
  readonly #index: SearchReader;
  readonly #taxonomy: Taxonomy;
  readonly #paperTerms = new PaperTermsCache();
  readonly #termCounts = new TermCountsCache();

  constructor(index: SearchReader, taxonomy: Taxonomy) {
    this.#index = index;
    this.#taxonomy = taxonomy;
  }

  async search(q: string, page: SearchPage): Promise<SearchResponseDto> {
    const query = parseQuery(q);
    const sort = page.sort ?? 'relevance';
    if (query.paperId !== null) return this.#exact(query, query.paperId, sort);
    this.#checkTopics(query);
    const filters = await indexFilters(query, this.#taxonomy, (slug) => this.#index.storedNarrower(slug));
    const person = sort === 'relevance' ? personNameKey(query) : null;
    if (person === null) return this.#textSearch(query, filters, page, sort);
    // Any two or three words read as a name ("second training"), and most name no author. On a network
    // engine their search is asked beside the name's look-up, so its round trips are off the path; where
    // reads cannot overlap it would only be work thrown away whenever the name is found.
    const ahead = this.#index.readsOverlap ? this.#textSearch(query, filters, page, sort) : null;
    ahead?.catch(() => undefined);
    const byName = await this.#byAuthor(query, person, filters);
    if (byName === null) return ahead ?? this.#textSearch(query, filters, page, sort);
    // The person's papers first, then the papers holding the words without them (read far enough to fill
    // the page however many of the person's papers the words also found).
    const { ids, total, results: named } = byName;
    const end = page.offset + page.limit;
    // The name is whole (a stored author has it), so its last word is not one being typed: asked as a
    // prefix, a surname such as "wang" stands for hundreds of longer names, each list merged by FTS5.
    const words = await this.#textSearch(
      query,
      filters,
      { offset: 0, limit: Math.max(0, end - ids.length) + ids.length },
      sort,
      { wholeWords: true },
    );
    const first = new Set(ids);
    const listed = [...named, ...words.results.filter((r) => !first.has(r.id))];
    return {
      ...words,
      total: Math.max(words.total, total),
      byAuthor: { name: query.text, papers: total },
      results: listed.slice(page.offset, end),
    };
  }

  related(id: string, limit: number, topicSizes: ReadonlyMap<string, number>): Promise<RelatedPapersDto> {
    return relatedPapers(this.#index, this.#taxonomy, id, limit, topicSizes);
  }

  /** The page of papers matching the words, phrases and filters, ranked or newest first. */
  async #textSearch(
    query: ParsedQuery,
    filters: IndexFilters,
    page: SearchPage,
    sort: SearchSort,
    { wholeWords = false }: { wholeWords?: boolean } = {},
  ): Promise<SearchResponseDto> {
    const terms = [...new Set(queryTermsOf(query.text))];
    const base = phrasesAndAuthors(query);
    const groups: TermGroup[] = terms.map((term, i) => ({
      term,
      prefix: !wholeWords && i === terms.length - 1 && term.length >= PREFIX_MIN_LENGTH,
      corrections: [],
    }));
    // Each word's reads are independent of the others': asked together, a network engine answers them at once
    // (a whole word's near spellings too, which `#correctIfRare` reads only for words hardly anyone used).
    const fuzzy = groups.length <= MAX_FUZZY_TERMS;
    await Promise.all(
      groups.map(async (group) => {
        if (!group.prefix) {
          if (fuzzy) await this.#correctIfRare(group);
          return;
        }
        const longer = await this.#wordCompletions(group.term);
        if (longer) Object.assign(group, { asWord: true, completions: longer });
      }),
    );
    const parts: QueryParts = { ...base, groups };
    const first = textMatch(parts, 'AND');
    if (first === null) return this.#unranked(query, null, filters, page, sort);
    // Authors narrow but do not rank: with no words or phrases, the newest first.
    if (groups.length === 0 && parts.phrases.length === 0) {
      return this.#unranked(query, first, filters, page, sort);
    }
    // Only a ranked search reads the index's totals: newest first asks nothing of them.
    const totals = sort === 'newest' ? null : this.#totals();

    // Cheapest first: whole words hardly anyone used got near spellings above; if no paper has them all, the
    // word being typed too (it may be a finished word with a typo); then every word; then any word.
    const pass = (mode: 'AND' | 'OR') =>
      totals === null
        ? this.#newest(mode, first, filters, page, parts)
        : this.#ranked(mode, first, filters, page, parts, totals);
    let found = await pass('AND');
    const typed = groups.find((g) => g.prefix);
    if (found.total === 0 && fuzzy && typed && (await this.#correctIfRare(typed))) found = await pass('AND');
    if (found.total === 0 && fuzzy) {
      await Promise.all(groups.filter((g) => g.corrections.length === 0).map((g) => this.#correctAll(g)));
      found = await pass('AND');
    }
    let matchedAllTerms = true;
    if (found.total === 0 && groups.length > 1 && groups.length <= MAX_OR_RETRY_TERMS) {
      found = await pass('OR');
      matchedAllTerms = false;
    }
    const wanted = matchedTerms(parts);
    const results = found.rows.flatMap((hit) => {
      const row = found.text.get(hit.paperId);
      return row ? [resultOf(row, hit.score, wanted, found.terms.get(hit.paperId))] : [];
    });
    const { total, estimated } = told(found);
    return {
      query,
      total,
      ...(estimated ? { totalEstimated: true } : {}),
      matchedAllTerms,
      sort,
      exact: null,
      byAuthor: null,
      results,
    };
  }

  /** The paper an arXiv id names, alone (none when the store lacks it: the answer says so). */
  async #exact(query: ParsedQuery, id: string, sort: SearchSort): Promise<SearchResponseDto> {
    const row = (await this.#index.paperRows([id])).get(id);
    return {
      query,
      total: row ? 1 : 0,
      matchedAllTerms: true,
      sort,
      exact: { id, stored: row !== undefined },
      byAuthor: null,
      results: row ? [resultOf(row, 0, NO_TERMS)] : [],
    };
  }

  /**
   * The newest papers (at most AUTHOR_FIRST) one of whose authors has the whole name `key`, under the
   * query's filters and author filters, as results naming that author; null when no paper has one.
   */
  async #byAuthor(query: ParsedQuery, key: string, filters: IndexFilters) {
    const { authorKeys } = phrasesAndAuthors(query);
    const match = textMatch({ groups: [], phrases: [], authorKeys: [key, ...authorKeys] }, 'AND');
    if (match === null) return null;
    const found = await this.#index.newest(match, filters, { limit: AUTHOR_SCAN, offset: 0 });
    const text = await this.#index.paperRows(found.ids);
    const named = found.ids.flatMap((id) => {
      const row = text.get(id);
      const authorMatch = row && authorNamed(authorNames(row), key);
      return row && authorMatch ? [{ ...resultOf(row, 0, NO_TERMS), authorMatch }] : [];
    });
    if (named.length === 0) return null;
    const results = named.slice(0, AUTHOR_FIRST);
    // Past the scan the count is the key's, which a rare other name may share.
    const total = named.length + Math.max(0, found.total - found.ids.length);
    return { ids: results.map((r) => r.id), total, results };
  }

  /**
   * A page of the papers matching the query: every one re-ranked when few match (see few-matches.ts),
   * else the index's first RERANK_CANDIDATES (see rerank.ts).
   */
  async #ranked(
    mode: 'AND' | 'OR',
    fallback: Match,
    filters: IndexFilters,
    page: SearchPage,
    parts: QueryParts,
    totals: IndexTotals,
  ): Promise<Found> {
    // Only an AND query can be answered from its few matches: an OR query does not ask for the count.
    const few =
      mode === 'AND'
        ? await fewMatches(
            this.#index,
            parts,
            filters,
            fewMatchesIn(await totals.papers, RERANK_CANDIDATES),
            (row) => this.#paperTerms.of(row),
          )
        : null;
    const picked = few ?? (await this.#window(mode, fallback, filters, page, parts));
    return this.#rerank(picked, page, parts, totals);
  }

  /**
   * The papers indexed and their mean terms per column, asked once per ranked search as it starts, beside
   * its first reads: the few-matches check and the re-ranking both read them, and on a network engine each
   * ask is a round trip on the query's path. Settled at once, so that a search failing before it reads
   * them leaves no unhandled rejection; a read that fails still fails the search where it is awaited.
   */
  #totals(): IndexTotals {
    const totals = { papers: this.#index.indexedPapers(), average: this.#index.averageTerms() };
    totals.papers.catch(() => undefined);
    totals.average.catch(() => undefined);
    return totals;
  }

  /** The index's first ranking: its best RERANK_CANDIDATES, and the best matches in titles and joined forms. */
  async #window(
    mode: 'AND' | 'OR',
    fallback: Match,
    filters: IndexFilters,
    page: SearchPage,
    parts: QueryParts,
  ): Promise<Picked> {
    let match = textMatch(parts, mode) ?? fallback;
    let subset = wordsMatch(parts, mode);
    let titleParts = parts;
    // FTS5 reads a prefix only after merging every completion's list, positions and all, in each
    // statement naming it (at 10x "training*" merges 76,000 papers' lists, 5 ms, and it grows with the
    // store); it reads a word's list lazily, as far as the window goes. When the words alone, the typed
    // one taken whole, match more than PREFIX_AS_WORD_FROM papers, they are what is ranked and counted:
    // the ranked window is the newest matches, nearly all the same papers (only one holding a longer form,
    // "trainingset", and never "training", is left out), and the total an estimate either way.
    if (
      subset !== null &&
      (await this.#index.hitsUpTo(subset, PREFIX_AS_WORD_FROM + 1)) > PREFIX_AS_WORD_FROM
    ) {
      match = subset;
      subset = null;
      titleParts = asWords(parts);
    }
    // A prefix asked as its word: the best papers holding its joined forms join the candidates too, as
    // they did when the prefix's ranking counted them (the re-ranking weighs each form as a completion).
    // Not under filters: the newest forms passing them may lie anywhere, so finding them reads every form.
    const filtered = filters.topics !== null || filters.categories !== null;
    const joined = filtered ? null : completionMatch(parts, mode);
    const titled = titleMatch(titleParts, mode);
    // Asked together with the ranking, which it does not depend on.
    const [{ rows, total, estimated }, forms] = await Promise.all([
      this.#index.ranked(match, filters, FIELD_BOOSTS, {
        limit: Math.max(RERANK_CANDIDATES, page.offset + page.limit),
        offset: 0,
        window: RANK_WINDOW,
        ...(subset === null ? {} : { subset }),
      }),
      joined === null
        ? []
        : this.#index.best(joined, filters, FIELD_BOOSTS, {
            limit: COMPLETION_CANDIDATES,
            window: COMPLETION_WINDOW,
          }),
    ]);
    const head = rows.slice(0, RERANK_CANDIDATES);
    // As many matches as the window ranks, or more: the best title matches are read apart, over the newest
    // title matches, which reach much further back than the window's newest matches of any field (an older
    // paper named by the words must stay findable). An estimated total can round to the window exactly.
    // Fewer: every match was ranked, titles included.
    const named =
      total >= RANK_WINDOW && titled !== null
        ? await this.#index.best(titled, filters, FIELD_BOOSTS, {
            limit: TITLE_CANDIDATES,
            window: RANK_WINDOW,
          })
        : [];
    const seen = new Set(head.map((r) => r.paperId));
    for (const r of [...named, ...forms]) {
      if (seen.has(r.paperId)) continue;
      seen.add(r.paperId);
      head.push(r);
    }
    const headText = await this.#index.paperRows(head.map((r) => r.paperId));
    return { head, rest: rows.slice(RERANK_CANDIDATES), headText, total, estimated };
  }

  /** The candidates re-ranked as minisearch scores them, then the page's rows and text. */
  async #rerank(picked: Picked, page: SearchPage, parts: QueryParts, totals: IndexTotals): Promise<Found> {
    const { head, rest, headText, total, estimated } = picked;
    const candidates = head.flatMap((r) => {
      const row = headText.get(r.paperId);
      return row ? [{ id: r.paperId, ...this.#paperTerms.of(row) }] : [];
    });
    // Their terms again, for marking the page's results: tokenizing is most of a search's own work.
    const terms = new Map(candidates.map((c) => [c.id, c.fields]));
    const words: RankedWord[] = [
      ...parts.groups,
      ...parts.phrases.flat().map((term) => ({ term, prefix: false, corrections: [] })),
    ];
    const counts = new Map<string, number>();
    const [indexed, averageTerms] = await Promise.all([totals.papers, totals.average]);
    const papers = Math.max(1, indexed);
    const matched = matchedTermsOf(words, candidates);
    for (const c of await this.#termCounts.counts(matched, papers, (t) => this.#index.columnVocabulary(t))) {
      counts.set(`${c.field} ${c.term}`, c.docs);
    }
    // The index counts its own terms per field; minisearch's lengths relate to them about as they do
    // over these candidates.
    const average = (field: SearchField) => {
      const terms = candidates.reduce((n, c) => n + c.fields[field].length, 0);
      const words = candidates.reduce((n, c) => n + c.lengths[field], 0);
      return averageTerms[field] * (terms > 0 ? words / terms : 1);
    };
    const scores = rerankScores(words, candidates, {
      papers,
      averageLength: { title: average('title'), authors: average('authors'), abstract: average('abstract') },
      papersWith: (term, field) => counts.get(`${field} ${term}`) ?? 0,
    });
    const reranked = candidates
      .map((c, i) => ({ paperId: c.id, score: scores[i] ?? 0, at: i }))
      .sort((a, b) => b.score - a.score || a.at - b.at)
      .map(({ paperId, score }) => ({ paperId, score }));
    const inHead = new Set(reranked.map((r) => r.paperId));
    const ordered = [...reranked, ...rest.filter((r) => !inHead.has(r.paperId))];
    const pageRows = ordered.slice(page.offset, page.offset + page.limit);
    const missing = pageRows.filter((r) => !headText.has(r.paperId)).map((r) => r.paperId);
    const text = new Map([...headText, ...(await this.#index.paperRows(missing))]);
    return { rows: pageRows, total, estimated, text, terms };
  }

  /** The same matches as `#ranked`, newest listing first (the reader asked for that order). */
  async #newest(
    mode: 'AND' | 'OR',
    fallback: Match,
    filters: IndexFilters,
    page: SearchPage,
    parts: QueryParts,
  ): Promise<Found> {
    const match = textMatch(parts, mode) ?? fallback;
    const { ids, total } = await this.#index.newest(match, filters, page);
    const rows = ids.map((paperId) => ({ paperId, score: 0 }));
    const text = await this.#index.paperRows(ids);
    return { rows, total, estimated: false, text, terms: NO_FIELD_TERMS };
  }

  /** Filters only (or authors only): newest first, nothing to rank by. */
  async #unranked(
    query: ParsedQuery,
    match: Match | null,
    filters: IndexFilters,
    page: SearchPage,
    sort: SearchSort,
  ): Promise<SearchResponseDto> {
    const { ids, total } = await this.#index.newest(match, filters, page);
    const text = await this.#index.paperRows(ids);
    const results = ids.flatMap((id) => {
      const row = text.get(id);
      return row ? [resultOf(row, 0, NO_TERMS)] : [];
    });
    return { query, total, matchedAllTerms: true, sort, exact: null, byAuthor: null, results };
  }

  /**
   * The prefix's longer completions (at most MAX_COMPLETIONS) when it is a word held by every paper
   * holding one of them, as a hyphenated word's joined form is held only with
   * its parts ("counterfactual-to-interactive" is indexed as "counterfactual", ..., and
   * "counterfactualtointeractive"): the prefix then matches the papers the word alone matches, and is
   * ranked nearly as the index ranks the prefix (FTS5 counts the joined forms' occurrences too), without
   * merging every completion's list (see TermGroup.asWord). Undefined otherwise: the index's prefix.
   */
  async #wordCompletions(prefix: string): Promise<string[] | undefined> {
    const found = await this.#index.vocabularyRange(
      `${prefix}\u0001`,
      prefixEnd(prefix),
      MAX_COMPLETIONS + 1,
    );
    if (found.length > MAX_COMPLETIONS) return undefined;
    const longer = found.map((t) => t.term);
    if (longer.length === 0) return longer;
    const any = anyOf(longer.map((t) => word(t)));
    return (await this.#index.hitsUpTo(without(any, word(prefix)), 1)) === 0 ? longer : undefined;
  }

  /** Near spellings for a word found in at most FEW_HITS papers (as a prefix, if it is one); true if any. */
  async #correctIfRare(group: TermGroup): Promise<boolean> {
    if (!correctable(group.term)) return false;
    const hits = await this.#index.hitsUpTo(word(group.term, group.prefix), FEW_HITS + 1);
    if (hits > FEW_HITS) return false;
    group.corrections = await this.#nearSpellings(group.term, 1, hits);
    if (group.corrections.length === 0 && hits === 0 && group.term.length >= RETRY_FUZZY_MIN_LENGTH) {
      group.corrections = await this.#nearSpellings(group.term, 2, 0);
    }
    return group.corrections.length > 0;
  }

  /** Near spellings for every correctable word: one edit, two for a long word that has none at one. */
  async #correctAll(group: TermGroup): Promise<void> {
    if (!correctable(group.term)) return;
    const near = await this.#nearSpellings(group.term, 1, 0);
    group.corrections =
      near.length === 0 && group.term.length >= RETRY_FUZZY_MIN_LENGTH
        ? await this.#nearSpellings(group.term, 2, 0)
        : near;
  }

  /** Indexed terms `edits` away from `term`, found in more than `moreThan` papers, most used first. */
  async #nearSpellings(term: string, edits: 1 | 2, moreThan: number): Promise<string[]> {
    const found =
      edits === 1 ? await this.#index.vocabulary(oneEditAway(term)) : await this.#twoEditsAway(term);
    return found
      .filter((t) => t.term !== term && t.docs > moreThan)
      .sort((a, b) => b.docs - a.docs || (a.term < b.term ? -1 : 1))
      .slice(0, MAX_CORRECTIONS)
      .map((t) => t.term);
  }

  /**
   * Terms two edits away that share the first half of the word: two slips in one word are usually close
   * together, and a prefix is what the vocabulary can be scanned by.
   */
  async #twoEditsAway(term: string) {
    const prefix = term.slice(0, Math.max(2, Math.floor(term.length / 2)));
    const found = await this.#index.vocabularyRange(prefix, prefixEnd(prefix), TWO_EDIT_SCAN);
    return found.filter((t) => editDistance(term, t.term, 2) <= 2);
  }

  #checkTopics(query: ParsedQuery): void {
    for (const slug of query.topics) {
      if (!this.#taxonomy.bySlug.has(slug)) {
        throw new QuireError(
          'bad-input',
          `The topic: filter names "${slug}", which is not a topic; GET /api/topics lists them.`,
        );
      }
    }
  }
}

/** What the index counts over all its papers, asked once per search (see FtsSearch's #totals). */
interface IndexTotals {
  papers: Promise<number>;
  average: Promise<AverageTerms>;
}

/** A pass's page: rows in order, how many match, and the rows' text (and terms, when tokenized). */
interface Found {
  rows: RankedRow[];
  total: number;
  estimated: boolean;
  text: Map<string, PaperTextRow>;
  terms: ReadonlyMap<string, FieldTerms>;
}

/**
 * A text search's total as the reader is told it, in either order and on either engine: exact up to
 * EXACT_TOTAL_UP_TO, past it rounded to two figures and marked estimated (an engine may have counted it
 * exactly: newest first reads every match, and a window holding them all counts them).
 */
function told({ total, estimated }: { total: number; estimated: boolean }) {
  return estimated ? { total: roundedTotal(total), estimated } : toldTotal(total);
}

/** No result's terms known ahead: each is tokenized for its marks. */
const NO_FIELD_TERMS: ReadonlyMap<string, FieldTerms> = new Map();

/** `terms`: the row's own index terms when already computed (a re-ranked candidate's). */
function resultOf(
  row: PaperTextRow,
  score: number,
  wanted: MatchedTerms,
  terms?: FieldTerms,
): SearchResultDto {
  return toSearchResult(hitOf(row, score, wanted, terms), resultText(row));
}

function correctable(term: string): boolean {
  return term.length >= FUZZY_MIN_LENGTH && !/^\d+$/.test(term);
}
