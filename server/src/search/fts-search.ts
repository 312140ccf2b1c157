import {
  AUTHOR_SEPARATOR,
  columnTerms,
  FIELD_BOOSTS,
  FUZZY_MIN_LENGTH,
  MAX_FUZZY_TERMS,
  MAX_OR_RETRY_TERMS,
  parseQuery,
  PREFIX_MIN_LENGTH,
  queryTermsOf,
  RETRY_FUZZY_MIN_LENGTH,
  tokenizeField,
  toSearchResult,
  type Author,
  type ParsedQuery,
  type RelatedPapersDto,
  type SearchField,
  type SearchHit,
  type SearchResponseDto,
  type Taxonomy,
} from '@quire/core';
import type { Database } from 'better-sqlite3';
import { QuireError } from '../errors.ts';
import { SearchIndex, type IndexFilters, type PaperTextRow } from '../store/search-index.ts';
import {
  indexFilters,
  matchExpression,
  phrasesAndAuthors,
  titleExpression,
  type QueryParts,
  type TermGroup,
} from './fts-query.ts';
import { relatedPapers } from './fts-related.ts';
import { matchedTermsOf, rerankScores, type Candidate, type RankedWord } from './rerank.ts';
import type { SearchApi, SearchPage } from './search-api.ts';
import { editDistance, oneEditAway, prefixEnd } from './typo-candidates.ts';

/** FTS5's first matches scored again per field, as minisearch scores them (see rerank.ts). */
export const RERANK_CANDIDATES = 60;
/** Matches scored per query at most (the most recently indexed ones when more match); see SearchIndex. */
export const RANK_WINDOW = 5_000;
/**
 * When more than RANK_WINDOW match, the best this many matching in titles alone join the candidates
 * re-ranked, so a paper its title names is not lost among the most recent matches.
 */
export const TITLE_CANDIDATES = 20;
/** A word found in at most this many papers may be a typo: near spellings found more often join it. */
export const FEW_HITS = 2;
/** Spellings tried besides a word, the most used first. */
export const MAX_CORRECTIONS = 5;
/** Indexed terms read at most when looking for a long word's two-edit spellings. */
export const TWO_EDIT_SCAN = 2_000;

/**
 * Full-text search over the on-disk index (SQLite FTS5), with core's query syntax and field weights. The
 * index is written with the papers, so there is nothing to build or refresh: a search reads what is
 * committed.
 *
 * Typo tolerance happens before the query runs: a word found in almost no paper is looked up, spelt one
 * edit away, in the index's vocabulary, and the spellings found in more papers are searched with it. If
 * no paper has every word, every word gets its near spellings (two edits for long ones); if still none,
 * papers with any of the words are listed.
 */
export class FtsSearch implements SearchApi {
  readonly #index: SearchIndex;
  readonly #taxonomy: Taxonomy;

  constructor(db: Database, taxonomy: Taxonomy) {
    this.#index = new SearchIndex(db);
    this.#taxonomy = taxonomy;
  }

  search(q: string, page: SearchPage): Promise<SearchResponseDto> {
    return settled(() => this.searchNow(q, page));
  }

  related(id: string, limit: number, topicSizes: ReadonlyMap<string, number>): Promise<RelatedPapersDto> {
    return settled(() => relatedPapers(this.#index, this.#taxonomy, id, limit, topicSizes));
  }

  /** `search` without the promise (benchmarks). */
  searchNow(q: string, page: SearchPage): SearchResponseDto {
    const query = parseQuery(q);
    this.#checkTopics(query);
    const filters = indexFilters(query, this.#taxonomy, (slug) => this.#index.storedNarrower(slug));
    const terms = [...new Set(queryTermsOf(query.text))];
    const base = phrasesAndAuthors(query);
    const groups = terms.map((term, i) => ({
      term,
      prefix: i === terms.length - 1 && term.length >= PREFIX_MIN_LENGTH,
      corrections: [] as string[],
    }));
    const parts: QueryParts = { ...base, groups };
    const first = matchExpression(parts, 'AND');
    if (first === null) return this.#unranked(query, null, filters, page);
    // Authors narrow but do not rank: with no words or phrases, the newest first.
    if (groups.length === 0 && parts.phrases.length === 0) return this.#unranked(query, first, filters, page);

    // Cheapest first: whole words hardly anyone used get near spellings; if no paper has them all, the
    // word being typed too (it may be a finished word with a typo); then every word; then any word.
    const fuzzy = groups.length <= MAX_FUZZY_TERMS;
    if (fuzzy) for (const group of groups) if (!group.prefix) this.#correctIfRare(group);
    const run = () => this.#ranked('AND', first, filters, page, parts);
    let found = run();
    const typed = groups.find((g) => g.prefix);
    if (found.total === 0 && fuzzy && typed && this.#correctIfRare(typed)) found = run();
    if (found.total === 0 && fuzzy) {
      for (const group of groups) if (group.corrections.length === 0) this.#correctAll(group);
      found = run();
    }
    let matchedAllTerms = true;
    if (found.total === 0 && groups.length > 1 && groups.length <= MAX_OR_RETRY_TERMS) {
      found = this.#ranked('OR', first, filters, page, parts);
      matchedAllTerms = false;
    }
    const wanted = matchedTerms(parts);
    const results = found.rows.flatMap((hit) => {
      const row = found.text.get(hit.paperId);
      return row ? [toSearchResult(hitOf(row, hit.score, wanted), resultText(row))] : [];
    });
    return { query, total: found.total, matchedAllTerms, results };
  }

  /** A page of the papers matching the query, FTS5's first RERANK_CANDIDATES re-ranked (see rerank.ts). */
  #ranked(mode: 'AND' | 'OR', fallback: string, filters: IndexFilters, page: SearchPage, parts: QueryParts) {
    const match = matchExpression(parts, mode) ?? fallback;
    const { rows, total } = this.#index.ranked(match, filters, FIELD_BOOSTS, {
      limit: Math.max(RERANK_CANDIDATES, page.offset + page.limit),
      offset: 0,
      window: RANK_WINDOW,
    });
    const head = rows.slice(0, RERANK_CANDIDATES);
    const titled = titleExpression(parts, mode);
    if (total > RANK_WINDOW && titled !== null) {
      const seen = new Set(head.map((r) => r.paperId));
      const named = this.#index.ranked(titled, filters, FIELD_BOOSTS, {
        limit: TITLE_CANDIDATES,
        offset: 0,
        window: RANK_WINDOW,
      });
      for (const r of named.rows) if (!seen.has(r.paperId)) head.push(r);
    }
    const headText = this.#index.paperRows(head.map((r) => r.paperId));
    const candidates = head.flatMap((r) => {
      const row = headText.get(r.paperId);
      return row ? [{ id: r.paperId, ...fieldTerms(row) }] : [];
    });
    const words: RankedWord[] = [
      ...parts.groups,
      ...parts.phrases.flat().map((term) => ({ term, prefix: false, corrections: [] })),
    ];
    const counts = new Map<string, number>();
    for (const c of this.#index.columnVocabulary(matchedTermsOf(words, candidates))) {
      counts.set(`${c.field} ${c.term}`, c.docs);
    }
    const averageTerms = this.#index.averageTerms();
    // The index counts its own terms per field; minisearch's lengths relate to them about as they do
    // over these candidates.
    const average = (field: SearchField) => {
      const terms = candidates.reduce((n, c) => n + c.fields[field].length, 0);
      const words = candidates.reduce((n, c) => n + c.lengths[field], 0);
      return averageTerms[field] * (terms > 0 ? words / terms : 1);
    };
    const scores = rerankScores(words, candidates, {
      papers: Math.max(1, this.#index.indexedPapers()),
      averageLength: { title: average('title'), authors: average('authors'), abstract: average('abstract') },
      papersWith: (term, field) => counts.get(`${field} ${term}`) ?? 0,
    });
    const reranked = candidates
      .map((c, i) => ({ paperId: c.id, score: scores[i] ?? 0, at: i }))
      .sort((a, b) => b.score - a.score || a.at - b.at)
      .map(({ paperId, score }) => ({ paperId, score }));
    const inHead = new Set(reranked.map((r) => r.paperId));
    const ordered = [...reranked, ...rows.slice(RERANK_CANDIDATES).filter((r) => !inHead.has(r.paperId))];
    const pageRows = ordered.slice(page.offset, page.offset + page.limit);
    const missing = pageRows.filter((r) => !headText.has(r.paperId)).map((r) => r.paperId);
    const text = new Map([...headText, ...this.#index.paperRows(missing)]);
    return { rows: pageRows, total, text };
  }

  /** Filters only (or authors only): newest first, nothing to rank by. */
  #unranked(
    query: ParsedQuery,
    match: string | null,
    filters: IndexFilters,
    page: SearchPage,
  ): SearchResponseDto {
    const { ids, total } = this.#index.newest(match, filters, page);
    const text = this.#index.paperRows(ids);
    const none = { exact: new Set<string>(), prefixes: [] };
    const results = ids.flatMap((id) => {
      const row = text.get(id);
      return row ? [toSearchResult(hitOf(row, 0, none), resultText(row))] : [];
    });
    return { query, total, matchedAllTerms: true, results };
  }

  /** Near spellings for a word found in at most FEW_HITS papers (as a prefix, if it is one); true if any. */
  #correctIfRare(group: TermGroup): boolean {
    if (!correctable(group.term)) return false;
    const hits = this.#index.hitsUpTo(`"${group.term}"${group.prefix ? '*' : ''}`, FEW_HITS + 1);
    if (hits > FEW_HITS) return false;
    group.corrections = this.#nearSpellings(group.term, 1, hits);
    if (group.corrections.length === 0 && hits === 0 && group.term.length >= RETRY_FUZZY_MIN_LENGTH) {
      group.corrections = this.#nearSpellings(group.term, 2, 0);
    }
    return group.corrections.length > 0;
  }

  /** Near spellings for every correctable word: one edit, two for a long word that has none at one. */
  #correctAll(group: TermGroup): void {
    if (!correctable(group.term)) return;
    const near = this.#nearSpellings(group.term, 1, 0);
    group.corrections =
      near.length === 0 && group.term.length >= RETRY_FUZZY_MIN_LENGTH
        ? this.#nearSpellings(group.term, 2, 0)
        : near;
  }

  /** Indexed terms `edits` away from `term`, found in more than `moreThan` papers, most used first. */
  #nearSpellings(term: string, edits: 1 | 2, moreThan: number): string[] {
    const found = edits === 1 ? this.#index.vocabulary(oneEditAway(term)) : this.#twoEditsAway(term);
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
  #twoEditsAway(term: string) {
    const prefix = term.slice(0, Math.max(2, Math.floor(term.length / 2)));
    return this.#index
      .vocabularyRange(prefix, prefixEnd(prefix), TWO_EDIT_SCAN)
      .filter((t) => editDistance(term, t.term, 2) <= 2);
  }

  #checkTopics(query: ParsedQuery): void {
    for (const slug of query.topics) {
      if (!this.#taxonomy.bySlug.has(slug)) {
        throw new QuireError(
          'bad-input',
          `The topic: filter names "${slug}", which is not a topic; GET /api/topics lists them.`,
          400,
        );
      }
    }
  }
}

/** `fn`'s value as a promise, its error as a rejection (not thrown at the caller). */
function settled<T>(fn: () => T): Promise<T> {
  return new Promise((resolve) => resolve(fn()));
}

function correctable(term: string): boolean {
  return term.length >= FUZZY_MIN_LENGTH && !/^\d+$/.test(term);
}

interface MatchedTerms {
  exact: Set<string>;
  prefixes: string[];
}

/** The terms a result may hold because of this query: what to highlight. */
function matchedTerms(parts: QueryParts): MatchedTerms {
  const exact = new Set<string>();
  const prefixes: string[] = [];
  for (const g of parts.groups) {
    exact.add(g.term);
    for (const c of g.corrections) exact.add(c);
    if (g.prefix) prefixes.push(g.term);
  }
  for (const phrase of parts.phrases) for (const t of phrase) exact.add(t);
  return { exact, prefixes };
}

const HIGHLIGHTED = ['title', 'abstract'] as const;

/** A result as core's result builder takes it, with the terms it matched found in its own text. */
function hitOf(row: PaperTextRow, score: number, wanted: MatchedTerms): SearchHit {
  const match: Record<string, string[]> = {};
  if (wanted.exact.size > 0 || wanted.prefixes.length > 0) {
    for (const field of HIGHLIGHTED) {
      for (const term of new Set(columnTerms(row[field]))) {
        if (!wanted.exact.has(term) && !wanted.prefixes.some((p) => term.startsWith(p))) continue;
        (match[term] ??= []).push(field);
      }
    }
  }
  return {
    id: row.id,
    score,
    match,
    terms: Object.keys(match),
    // The result builder reads the title, listing date and primary category of these.
    stored: {
      id: row.id,
      title: row.title,
      listingDate: row.listing_date,
      primaryCategory: row.primary_category,
      categories: [],
      tags: [],
    },
  };
}

function authorNames(row: PaperTextRow): string[] {
  return (JSON.parse(row.authors) as Author[]).map((a) => a.name);
}

function fieldTerms(row: PaperTextRow): Pick<Candidate, 'fields' | 'lengths'> {
  const authors = authorNames(row).join(AUTHOR_SEPARATOR);
  const length = (text: string, field: SearchField) => new Set(tokenizeField(text, field)).size;
  return {
    fields: {
      title: columnTerms(row.title),
      authors: columnTerms(authors, 'authors'),
      abstract: columnTerms(row.abstract),
    },
    lengths: {
      title: length(row.title, 'title'),
      authors: length(authors, 'authors'),
      abstract: length(row.abstract, 'abstract'),
    },
  };
}

function resultText(row: PaperTextRow) {
  return {
    title: row.title,
    abstract: row.abstract,
    authorNames: authorNames(row),
  };
}
