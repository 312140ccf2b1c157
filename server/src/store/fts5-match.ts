import type { Match } from './search-match.ts';

/**
 * A match as an FTS5 expression over the search table's columns (search-index-schema.ts). Every term is
 * a run of letters and digits, so quoting it is always safe. NOT binds tighter than AND, AND than OR, so
 * alternatives and nested conjunctions are bracketed.
 */
export function fts5Expression(match: Match): string {
  return render(match, false);
}

const quoted = (term: string) => `"${term}"`;

function render(match: Match, nested: boolean): string {
  switch (match.kind) {
    case 'word':
      return match.prefix ? `${quoted(match.term)}*` : quoted(match.term);
    case 'phrase':
      return quoted(match.terms.join(' '));
    case 'all': {
      const text = match.of.map((m) => render(m, true)).join(' AND ');
      return nested && match.of.length > 1 ? `(${text})` : text;
    }
    case 'any': {
      const text = match.of.map((m) => render(m, true)).join(' OR ');
      return match.of.length > 1 ? `(${text})` : text;
    }
    case 'columns': {
      // Nested, a compound is bracketed already: the filter applies to all of it.
      const inner = render(match.of, true);
      return `{${match.columns.join(' ')}} : ${inner}`;
    }
    case 'without': {
      const text = `${render(match.of, true)} NOT ${render(match.not, true)}`;
      return nested ? `(${text})` : text;
    }
  }
}
