/**
 * Author lines as arXiv writes them in one string (arXivRaw <authors>, RSS dc:creator, the Kaggle
 * `authors` field).
 *
 * The rule, kept simple on purpose: whitespace is collapsed; outside parentheses, a comma, a semicolon
 * or the word "and" ends a name; text in top-level parentheses is an affiliation of the name being
 * read (or of the previous name, when it follows a separator); a lone "Jr." / "Sr." / "II" / "III" /
 * "IV" piece is a suffix of the previous name, not a person. arXiv's numbered style, "A (1,2), B (2)
 * ((1) MIT, (2) CERN)", is resolved through the trailing legend. Other nested parentheses stay inside
 * the affiliation text. Names are not reordered: arXiv writes "Forenames Surname" in these fields.
 */
import { collapse } from './whitespace.ts';

export interface AuthorName {
  name: string;
  affiliations: string[];
}

const SUFFIX = /^(?:jr|sr|ii|iii|iv)\.?$/i;

export function splitAuthorLine(value: string): AuthorName[] {
  const line = collapse(value);
  const authors: AuthorName[] = [];
  let name = '';
  let affiliations: string[] = [];
  let depth = 0;
  let group = '';

  const finish = (): void => {
    const trimmed = name.trim();
    const last = authors[authors.length - 1];
    if (trimmed === '') {
      if (last) last.affiliations.push(...affiliations);
    } else if (last && SUFFIX.test(trimmed)) {
      last.name = `${last.name} ${trimmed}`;
      last.affiliations.push(...affiliations);
    } else {
      authors.push({ name: trimmed, affiliations });
    }
    name = '';
    affiliations = [];
  };

  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (c === '(') {
      if (depth > 0) group += c;
      depth++;
    } else if (c === ')' && depth > 0) {
      depth--;
      if (depth > 0) group += c;
      else {
        const affiliation = group.trim();
        if (affiliation !== '') affiliations.push(affiliation);
        group = '';
      }
    } else if (depth > 0) {
      group += c;
    } else if (c === ',' || c === ';') {
      finish();
    } else if (c === ' ' && line.startsWith(' and ', i)) {
      finish();
      i += 4; // skip "and"; the loop steps over the following space
    } else {
      name += c;
    }
  }
  finish();
  resolveNumberedAffiliations(authors);
  return authors;
}

const LEGEND = /^\(\d+\)/;
const NUMBERS = /^\d+(?:\s*,\s*\d+)*$/;

function resolveNumberedAffiliations(authors: AuthorName[]): void {
  const last = authors[authors.length - 1];
  const legend = last?.affiliations[last.affiliations.length - 1];
  if (!last || legend === undefined || !LEGEND.test(legend)) return;
  const names = new Map<string, string>();
  // "(1) University of Cape Town, (2) University of Edinburgh" → pieces '', '1', 'University…, ', '2', …
  const pieces = legend.split(/\((\d+)\)/);
  for (let i = 1; i + 1 < pieces.length; i += 2) {
    names.set(pieces[i] as string, (pieces[i + 1] as string).trim().replace(/[,;]$/, '').trim());
  }
  last.affiliations.pop();
  for (const author of authors) {
    author.affiliations = author.affiliations.flatMap((a) =>
      NUMBERS.test(a) ? a.split(',').map((n) => names.get(n.trim()) ?? n.trim()) : [a],
    );
  }
}

/** "Surname, Forenames[, Suffix]" (oai_dc creators) → "Forenames Surname[ Suffix]". */
export function invertName(value: string): string {
  const pieces = value.split(',').map((piece) => piece.trim());
  const [surname, forenames, ...rest] = pieces;
  if (!surname || !forenames) return value.trim();
  return [forenames, surname, ...rest].filter((piece) => piece !== '').join(' ');
}

/** Joins name parts from structured sources, skipping the empty ones. */
export function joinName(...parts: ReadonlyArray<string | null | undefined>): string {
  let out = '';
  for (const part of parts) {
    if (!part) continue;
    out = out === '' ? part : `${out} ${part}`;
  }
  return out;
}
