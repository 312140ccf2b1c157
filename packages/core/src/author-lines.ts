/**
 * Author lists written as one string (arXivRaw <authors>, RSS dc:creator, the Kaggle `authors` field, a
 * RawPaper whose `authors` is a string), and names that structured sources give in parts.
 *
 * The rule, kept simple on purpose: whitespace is collapsed; outside parentheses and brackets, a comma, a
 * semicolon or the word "and" ends a name; text in top-level parentheses is an affiliation of the name being
 * read (or of the previous name, when it follows a separator); text in brackets stays in the name, as written;
 * a lone "Jr." / "Sr." / "II" / "III" / "IV" piece is a suffix of the previous name, joined with a space as the
 * structured sources write it ("John Smith, Jr." → "John Smith Jr."). arXiv's numbered style,
 * "A (1,2), B (2) ((1) MIT, (2) CERN)", is resolved through the trailing legend; other nested parentheses stay
 * inside the affiliation text. Names are not reordered: arXiv writes "Forenames Surname" in these fields, and
 * "Surname, Forenames" cannot be told apart from two authors.
 */
import type { Author } from './paper.ts';
import { normaliseAuthorName, normaliseText } from './text-normalise.ts';

const SUFFIX = /^(?:jr|sr|ii|iii|iv)\.?$/i;

export function splitAuthorLine(value: string): Author[] {
  const line = normaliseText(value);
  const authors: Author[] = [];
  let name = '';
  let affiliations: string[] = [];
  let depth = 0; // parentheses: an affiliation is being read
  let brackets = 0; // brackets: text kept in the name, separators included
  let group = '';

  const closeGroup = (): void => {
    const affiliation = group.trim();
    if (affiliation !== '') affiliations.push(affiliation);
    group = '';
  };
  const finish = (): void => {
    const piece = normaliseAuthorName(name);
    const last = authors[authors.length - 1];
    if (piece === '') {
      last?.affiliations.push(...affiliations);
    } else if (last && SUFFIX.test(piece)) {
      last.name = `${last.name} ${piece}`;
      last.affiliations.push(...affiliations);
    } else {
      authors.push({ name: piece, affiliations });
    }
    name = '';
    affiliations = [];
  };

  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (depth > 0) {
      if (c === '(') depth++;
      else if (c === ')') depth--;
      if (depth > 0) group += c;
      else closeGroup();
    } else if (brackets > 0) {
      if (c === '[') brackets++;
      else if (c === ']') brackets--;
      name += c;
    } else if (c === '(') {
      depth = 1;
    } else if (c === '[') {
      brackets = 1;
      name += c;
    } else if (c === ',' || c === ';') {
      finish();
    } else if (c === ' ' && line.startsWith(' and ', i)) {
      finish();
      i += 4; // skip "and"; the loop steps over the following space
    } else {
      name += c;
    }
  }
  // An unclosed parenthesis runs to the end of the line; its text is still an affiliation.
  if (depth > 0) closeGroup();
  finish();
  resolveNumberedAffiliations(authors);
  return authors;
}

const LEGEND = /^\(\d+\)/;
const NUMBERS = /^\d+(?:\s*,\s*\d+)*$/;

function resolveNumberedAffiliations(authors: Author[]): void {
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
  const [surname, forenames, ...rest] = value.split(',').map((piece) => piece.trim());
  if (!surname || !forenames) return value.trim();
  return [forenames, surname, ...rest].filter((piece) => piece !== '').join(' ');
}

/** A name from the parts structured sources give (forenames, surname, suffix), skipping empty ones. */
export function joinName(...parts: ReadonlyArray<string | null | undefined>): string {
  return parts.filter((part) => !!part).join(' ');
}
