import { FIELD_BOOSTS, SEARCH_FIELDS, type SearchField } from '@quire/core';
import { editDistance } from './typo-candidates.ts';

/**
 * The second stage of ranking. FTS5's bm25 adds a word's title and abstract occurrences before
 * saturating and divides by the whole paper's length, so a title match counts for little against an
 * abstract that repeats the word. The first candidates it returns are scored again here as minisearch
 * scores (the browser's offline search, and the server's before the index moved to disk): BM25+ per
 * field, each field against its own average length, times core's field boosts, prefix and corrected
 * spellings weighted down, times the number of query words matched. Pure: the caller reads the numbers.
 */

/** minisearch's defaults, which the offline index ranks with. */
const K1 = 1.2;
const B = 0.7;
const D = 0.5;
const PREFIX_WEIGHT = 0.375;
const FUZZY_WEIGHT = 0.45;

/** One query word, the spellings it was widened to and whether it is a prefix (see TermGroup). */
export interface RankedWord {
  term: string;
  prefix: boolean;
  corrections: readonly string[];
}

export interface Candidate {
  id: string;
  /** Each field's index terms (`columnTerms`). */
  fields: Readonly<Record<SearchField, readonly string[]>>;
  /** Each field's length as minisearch counts it: distinct words, function words included. */
  lengths: Readonly<Record<SearchField, number>>;
}

export interface CorpusFigures {
  papers: number;
  /** Mean length per field (counted as `Candidate.lengths` counts it). */
  averageLength: Readonly<Record<SearchField, number>>;
  /** Papers holding `term` in `field`. */
  papersWith(term: string, field: SearchField): number;
}

function bm25(tf: number, matching: number, papers: number, length: number, average: number): number {
  const idf = Math.log(1 + (papers - matching + 0.5) / (matching + 0.5));
  return idf * (D + (tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * length) / Math.max(1, average))));
}

/** How much a paper's term counts for a query word: 1 as typed, less as a completion or a correction. */
function weightOf(word: RankedWord, term: string): number {
  if (term === word.term) return 1;
  if (word.prefix && term.startsWith(word.term)) {
    return (PREFIX_WEIGHT * term.length) / (term.length + 0.3 * (term.length - word.term.length));
  }
  if (word.corrections.includes(term)) {
    return (FUZZY_WEIGHT * term.length) / (term.length + editDistance(word.term, term, 2));
  }
  return 0;
}

/** Every term of the candidates some word matches, for the caller to look up the counts of. */
export function matchedTermsOf(words: readonly RankedWord[], candidates: readonly Candidate[]): string[] {
  const out = new Set<string>();
  for (const c of candidates) {
    for (const field of SEARCH_FIELDS) {
      for (const term of c.fields[field]) if (words.some((w) => weightOf(w, term) > 0)) out.add(term);
    }
  }
  return [...out];
}

/** Each candidate's score, in the candidates' order. */
export function rerankScores(
  words: readonly RankedWord[],
  candidates: readonly Candidate[],
  corpus: CorpusFigures,
): number[] {
  return candidates.map((c) => {
    let score = 0;
    let matchedWords = 0;
    for (const word of words) {
      let wordScore = 0;
      for (const field of SEARCH_FIELDS) {
        const terms = c.fields[field];
        const counts = new Map<string, number>();
        for (const term of terms) if (weightOf(word, term) > 0) counts.set(term, (counts.get(term) ?? 0) + 1);
        const length = c.lengths[field];
        for (const [term, tf] of counts) {
          wordScore +=
            weightOf(word, term) *
            FIELD_BOOSTS[field] *
            bm25(tf, corpus.papersWith(term, field), corpus.papers, length, corpus.averageLength[field]);
        }
      }
      if (wordScore > 0) matchedWords += 1;
      score += wordScore;
    }
    return score * Math.max(1, matchedWords);
  });
}
