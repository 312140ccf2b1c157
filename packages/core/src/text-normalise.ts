/**
 * Text cleanup for titles, abstracts and author names. Sources hard-wrap abstracts and indent titles; none
 * of that whitespace means anything. LaTeX is left exactly as written: the reader renders it, and rewriting
 * it here would lose information.
 */

/** Runs of whitespace (newlines and tabs included) become one space; ends are trimmed. */
export function collapseWhitespace(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/**
 * Whitespace collapsed and Unicode composed (NFC), so that "é" typed as one code point or as "e" plus an
 * accent compares and searches the same.
 */
export function normaliseText(s: string): string {
  return collapseWhitespace(s.normalize('NFC'));
}

/** An author name as displayed: text-normalised, stray list punctuation at either end removed. */
export function normaliseAuthorName(name: string): string {
  return normaliseText(name)
    .replace(/^[\s,;]+|[\s,;]+$/g, '')
    .replace(/^and(?:\s+|$)/, '')
    .replace(/\s+and$/, '');
}

/**
 * A key under which spellings of one name meet: case, accents, dots and commas ignored
 * ("J. Müller" and "j muller" share a key). For matching only, never for display.
 */
export function authorKey(name: string): string {
  return collapseWhitespace(
    name.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/[.,]/g, ' '),
  );
}

/** Generational suffixes that follow a name after a comma: "John Smith, Jr." is one author, not two. */
const NAME_SUFFIX = /^(?:jr|sr)\.?$|^(?:ii|iii|iv)$/i;

/**
 * Splits an author list written as one string: "A, B and C", "A, B, and C", "A; B" or "A, B, C".
 * Separators are commas, semicolons and the word "and"; those inside parentheses or brackets are ignored,
 * so "A (MIT, USA), B" gives two authors, with the parenthesised affiliation kept in the first name.
 * A piece that is only a suffix (Jr., Sr., II, III, IV) joins the name before it.
 *
 * Deliberately simple: the "Surname, Given" order (a comma inside one name) cannot be told apart from two
 * authors and is not supported; arXiv's author fields write names given-name first.
 */
export function splitAuthors(s: string): string[] {
  const text = normaliseText(s);
  const pieces: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(' || c === '[') depth++;
    else if ((c === ')' || c === ']') && depth > 0) depth--;
    else if (depth === 0 && (c === ',' || c === ';')) {
      pieces.push(text.slice(start, i));
      start = i + 1;
    } else if (depth === 0 && c === ' ' && text.startsWith(' and ', i)) {
      pieces.push(text.slice(start, i));
      start = i + ' and '.length;
      i = start - 1;
    }
  }
  pieces.push(text.slice(start));

  const names: string[] = [];
  for (const piece of pieces) {
    const name = normaliseAuthorName(piece);
    if (name === '') continue;
    const previous = names[names.length - 1];
    if (previous !== undefined && NAME_SUFFIX.test(name)) names[names.length - 1] = `${previous}, ${name}`;
    else names.push(name);
  }
  return names;
}
