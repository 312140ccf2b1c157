import {
  AUTHOR_SEPARATOR,
  columnTerms,
  columnTermsAndLength,
  type Author,
  type SearchHit,
} from '@quire/core';
import type { PaperTextRow } from '../store/search-reader.ts';
import type { QueryParts } from './query-match.ts';
import type { Candidate } from './rerank.ts';

/** How the index's rows become core's search hits and result text: what a result shows and marks. */

export interface MatchedTerms {
  exact: Set<string>;
  prefixes: string[];
}

/** The terms a result may hold because of this query: what to highlight. */
export function matchedTerms(parts: QueryParts): MatchedTerms {
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

/** A paper's index terms per field, as `fieldTerms` gives them (`columnTerms` of each). */
export type FieldTerms = Candidate['fields'];

/**
 * A result as core's result builder takes it, with the terms it matched found in its own text (`terms`,
 * when the caller has tokenized it already, else tokenized here).
 */
export function hitOf(row: PaperTextRow, score: number, wanted: MatchedTerms, terms?: FieldTerms): SearchHit {
  const match: Record<string, string[]> = {};
  if (wanted.exact.size > 0 || wanted.prefixes.length > 0) {
    for (const field of HIGHLIGHTED) {
      for (const term of new Set(terms?.[field] ?? columnTerms(row[field]))) {
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

export function authorNames(row: PaperTextRow): string[] {
  return (JSON.parse(row.authors) as Author[]).map((a) => a.name);
}

/** A candidate's terms and lengths, each field read once (`columnTermsAndLength`). */
export function fieldTerms(row: PaperTextRow): Pick<Candidate, 'fields' | 'lengths'> {
  const title = columnTermsAndLength(row.title);
  const authors = columnTermsAndLength(authorNames(row).join(AUTHOR_SEPARATOR), 'authors');
  const abstract = columnTermsAndLength(row.abstract);
  return {
    fields: { title: title.terms, authors: authors.terms, abstract: abstract.terms },
    lengths: { title: title.length, authors: authors.length, abstract: abstract.length },
  };
}

export function resultText(row: PaperTextRow) {
  return {
    title: row.title,
    abstract: row.abstract,
    authorNames: authorNames(row),
  };
}

/** Nothing to mark: a result listed for its id or its author, not for words. */
export const NO_TERMS: MatchedTerms = { exact: new Set(), prefixes: [] };
