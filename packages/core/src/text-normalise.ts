/**
 * Text cleanup for titles, abstracts and author names. Sources hard-wrap abstracts and indent titles; none
 * of that whitespace means anything. LaTeX is left exactly as written: the reader renders it, and rewriting
 * it here would lose information. Author lists written as one string are split in author-lines.ts.
 */

/** Runs of whitespace (newlines and tabs included) become one space; ends are trimmed. */
export function collapseWhitespace(s: string): string {
  // Runs of two or more, and single whitespace other than ' ': the single spaces between most words are
  // left alone rather than each replaced by itself (four times faster on arXiv abstracts).
  return s.replace(/\s{2,}|[^\S ]/g, ' ').trim();
}

/**
 * Whitespace collapsed and Unicode composed (NFC), so that "é" typed as one code point or as "e" plus an
 * accent compares and searches the same.
 */
export function normaliseText(s: string): string {
  // ASCII is its own NFC; most titles and abstracts skip the ICU call.
  return collapseWhitespace(NON_ASCII.test(s) ? s.normalize('NFC') : s);
}

const NON_ASCII = /[^\0-\x7f]/;
// What normaliseAuthorName strips, checked at the ends first: most names have none of it.
const LIST_PUNCTUATION = /^[\s,;]+|[\s,;]+$/g;

/** An author name as displayed: text-normalised, stray list punctuation at either end removed. */
export function normaliseAuthorName(name: string): string {
  const text = normaliseText(name);
  // Trimmed already, so only a comma or semicolon can sit at an end.
  const first = text.charAt(0);
  const last = text.charAt(text.length - 1);
  const clean =
    first !== ',' &&
    first !== ';' &&
    last !== ',' &&
    last !== ';' &&
    !text.startsWith('and') &&
    !text.endsWith('and');
  if (clean) return text;
  return text
    .replace(LIST_PUNCTUATION, '')
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
