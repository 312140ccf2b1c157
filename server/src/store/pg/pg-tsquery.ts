import type { Match, SearchColumn } from '../search-match.ts';

/**
 * A match as a tsquery over the stored tsvector (pg-search-schema.ts), whose lexemes are core's terms as
 * they are and whose weights say the column: title A, authors B, abstract C. A column filter becomes
 * weight labels on its lexemes; a phrase is matched within one column, as FTS5 matches it (the vector's
 * positions run on from one column into the next, so an unlabelled phrase could span two).
 */

const WEIGHT: Readonly<Record<SearchColumn, string>> = { title: 'A', authors: 'B', abstract: 'C' };
const EVERY_WEIGHT = 'ABC';
const NOTHING = `('nothing' & !'nothing')`;

/** A lexeme quoted for tsquery's input syntax (core's terms are letters and digits; quoting is for safety). */
export function lexeme(term: string): string {
  return `'${term.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

export function tsquery(match: Match): string {
  return render(match, EVERY_WEIGHT);
}

function labelled(term: string, prefix: boolean, weights: string): string {
  const labels = `${prefix ? '*' : ''}${weights === EVERY_WEIGHT ? '' : weights}`;
  return labels === '' ? lexeme(term) : `${lexeme(term)}:${labels}`;
}

function render(match: Match, weights: string): string {
  switch (match.kind) {
    case 'word':
      return labelled(match.term, match.prefix, weights);
    case 'phrase': {
      if (match.terms.length === 1) return labelled(match.terms[0] ?? '', false, weights);
      const within = [...weights].map((w) => match.terms.map((t) => labelled(t, false, w)).join(' <-> '));
      return within.length === 1 ? (within[0] ?? '') : `(${within.join(' | ')})`;
    }
    case 'all':
      return joined(match.of, ' & ', weights);
    case 'any':
      return joined(match.of, ' | ', weights);
    case 'columns': {
      const narrowed = narrow(weights, match.columns);
      // No column left (a filter inside a filter on others): nothing can match.
      return narrowed === '' ? NOTHING : render(match.of, narrowed);
    }
    case 'without':
      return `(${render(match.of, weights)} & !${render(match.not, weights)})`;
  }
}

/** The weights of `weights` a column filter on `columns` leaves ('' when none). */
function narrow(weights: string, columns: readonly SearchColumn[]): string {
  const allowed = columns.map((c) => WEIGHT[c]);
  return [...weights].filter((w) => allowed.includes(w)).join('');
}

function joined(of: readonly Match[], operator: string, weights: string): string {
  const parts = of.map((m) => render(m, weights));
  return parts.length === 1 ? (parts[0] ?? '') : `(${parts.join(operator)})`;
}

/** A part of a match that ranks: a word or phrase the papers must (or may) hold, with its columns. */
export interface RankedLeaf {
  query: string;
  /** The terms whose paper counts weigh it (a phrase by its rarest word), and whether it is a prefix. */
  terms: readonly string[];
  prefix: boolean;
}

/** The words and phrases of a match that rank it: every one but those it excludes. */
export function rankedLeaves(match: Match, weights: string = EVERY_WEIGHT): RankedLeaf[] {
  switch (match.kind) {
    case 'word':
      return [{ query: render(match, weights), terms: [match.term], prefix: match.prefix }];
    case 'phrase':
      return [{ query: render(match, weights), terms: match.terms, prefix: false }];
    case 'all':
    case 'any':
      return match.of.flatMap((m) => rankedLeaves(m, weights));
    case 'columns': {
      const narrowed = narrow(weights, match.columns);
      return narrowed === '' ? [] : rankedLeaves(match.of, narrowed);
    }
    case 'without':
      return rankedLeaves(match.of, weights);
  }
}

/**
 * Whether every word and phrase of `match` is asked of the title alone (FtsSearch's title candidates):
 * then the match finds the same papers on the title's own vector (pg-search-schema.ts: SEARCH_TITLE_VECTOR),
 * whose lexemes are all weighted A, as on the whole one. It ranks them on the title alone (ts_rank divides
 * by the vector's length), which is what a title candidate is chosen by.
 */
export function withinTitle(match: Match, weights: string = EVERY_WEIGHT): boolean {
  switch (match.kind) {
    case 'word':
    case 'phrase':
      return weights === WEIGHT.title;
    case 'all':
    case 'any':
      return match.of.every((m) => withinTitle(m, weights));
    case 'columns': {
      const narrowed = narrow(weights, match.columns);
      // No column left: it matches nothing on either vector.
      return narrowed === '' || withinTitle(match.of, narrowed);
    }
    case 'without':
      return withinTitle(match.of, weights) && withinTitle(match.not, weights);
  }
}
