import { foldLower, foldLowered, foldLoweredSlice } from '../tagging/tokenise.ts';

/**
 * How search reads arXiv text. The index, the query and the highlighter all go through these functions, so
 * a word is found and marked the same way on the server and in the browser.
 *
 * - LaTeX markup is dropped but its words kept: `\textbf{O}ffline` reads "Offline", `$\alpha$` reads "alpha".
 * - Accents are folded ("Müller" = "muller") and a light plural fold is applied ("agents" = "agent").
 * - A hyphenated word is indexed as its parts and joined ("multi-agent" → multi, agent, multiagent), while a
 *   query reads it joined only; so "multi-agent", "multiagent" and "multi agent" all find it.
 */

// Formatting commands whose argument is the text itself; removed without a space so `\textbf{O}ffline`
// stays one word.
const FORMATTING =
  /\\(?:text(?:bf|it|sc|tt|sf|rm|up|md|normal)?|emph|math(?:rm|bf|cal|bb|it|sf|tt|frak|scr|op)|boldsymbol|bm|operatorname|underline|mbox|hbox)(?![A-Za-z])\s*/g;
// Commands whose argument is a key, not prose.
const REFERENCES = /\\(?:cite[a-z]*|ref|eqref|autoref|label|url)\s*\{[^{}]*\}/g;
const SYMBOL_ACCENT = /\\['"^`~=.]\s*(?:\{\s*([A-Za-z])\s*\}|([A-Za-z]))/g;
const LETTER_ACCENT = /\\[uvHckrdb]\s*\{\s*([A-Za-z])\s*\}/g;
const COMMAND = /\\([A-Za-z]+)/g;
const ESCAPED = /\\./g;
const BRACES = /[{}]/g;
const MATH_PUNCTUATION = /[$^_~]/g;
const MARKS = /\p{M}/gu;

/** Words, with inner hyphens and apostrophes kept so compounds can be indexed both ways. */
const COMPOUND = /[\p{L}\p{N}]+(?:['’\-‐‑][\p{L}\p{N}]+)*/gu;
const JOINERS = /['’\-‐‑]/;

/**
 * Function words that would match nearly every abstract. Kept deliberately short: "model" or "data" are
 * poor topic signals but real search words. Authors keep every word ("An", "Do", "Le" are surnames).
 */
const STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a an and are as at be by for from has have in into is it its of on or our that the their these this to ' +
    'was we were which with'
  ).split(' '),
);
// Longer terms skip the set, which would hash each one: most words of an abstract are longer.
const LONGEST_STOPWORD = Math.max(...[...STOPWORDS].map((w) => w.length));

// Most abstracts are plain ASCII without maths; they skip the replacements below, which dominate the
// time to index the corpus otherwise.
const LATEX_CHARS = /[\\{}$^_~]/;
// Code units, not code points: the same answer, without the slower Unicode mode.
const NON_ASCII = /[\u0080-\uffff]/;
// Either of the two above, in one scan: text without them is only lowercased.
const LATEX_OR_NON_ASCII = /[\\{}$^_~\u0080-\uffff]/;

/** Lowercased, accent-free text with LaTeX markup removed. */
export function normaliseSearchText(text: string): string {
  let out = LATEX_CHARS.test(text) ? stripLatex(text) : text;
  if (NON_ASCII.test(out)) out = out.normalize('NFKD').replace(MARKS, '');
  return out.toLowerCase();
}

function stripLatex(text: string): string {
  return text
    .replace(REFERENCES, ' ')
    .replace(SYMBOL_ACCENT, (_, braced: string | undefined, bare: string | undefined) => braced ?? bare ?? '')
    .replace(LETTER_ACCENT, '$1')
    .replace(FORMATTING, '')
    .replace(COMMAND, ' $1 ')
    .replace(ESCAPED, ' ')
    .replace(BRACES, '')
    .replace(MATH_PUNCTUATION, ' ');
}

/** The tokenizer of the index and of queries: words and hyphenated compounds of normalised text. */
export function tokenizeSearchText(text: string): string[] {
  return normaliseSearchText(text).match(COMPOUND) ?? [];
}

/** Between names in `SearchDoc.authors`; names never contain it (list punctuation is trimmed from them). */
export const AUTHOR_SEPARATOR = ', ';

/**
 * Whole-name keys for one author's words, so an author filter matches one person rather than a first name
 * from one author and a surname from another: first+last ("janedoe"), initial+last ("jdoe") and all
 * initials+last ("jmdoe" for Jane M. Doe). Single names have none; their word is the key.
 */
export function authorKeys(words: readonly string[]): string[] {
  const n = words.length;
  const first = words[0];
  const last = words[n - 1];
  if (n < 2 || first === undefined || last === undefined) return [];
  let initials = '';
  for (let i = 0; i < n - 1; i++) initials += words[i]?.charAt(0) ?? '';
  // The three keys, each once, in this order (two coincide for a one-letter first name or one given name).
  const firstLast = `${first}${last}`;
  const initialLast = `${first.charAt(0)}${last}`;
  const initialsLast = `${initials}${last}`;
  const keys = [firstLast];
  if (initialLast !== firstLast) keys.push(initialLast);
  if (initialsLast !== firstLast && initialsLast !== initialLast) keys.push(initialsLast);
  return keys;
}

/** The key an author filter's name is looked up by: its first+last or, when written as initials, that form. */
export function authorFilterKey(name: string): string | null {
  const words = wordSequence(name);
  const last = words.at(-1);
  if (last === undefined) return null;
  if (words.length === 1) return last;
  const given = words.slice(0, -1);
  return given.every((w) => w.length === 1) ? `${given.join('')}${last}` : `${given[0] ?? ''}${last}`;
}

/** The authors field's tokens: each name's words, then its whole-name keys. */
export function tokenizeAuthors(authors: string): string[] {
  const out: string[] = [];
  for (const name of authors.split(AUTHOR_SEPARATOR)) {
    const tokens = tokenizeSearchText(name);
    out.push(...tokens, ...authorKeys(sequenceOf(tokens)));
  }
  return out;
}

/** The index tokenizer: per field, since authors get whole-name keys. */
export function tokenizeField(text: string, field?: string): string[] {
  return field === 'authors' ? tokenizeAuthors(text) : tokenizeSearchText(text);
}

/** One already-normalised word as stored in the index. */
export function foldTerm(word: string): string {
  return foldLower(word);
}

/** A function word, or a single letter or mark (a single digit is kept). */
function isNoise(term: string): boolean {
  const n = term.length;
  if (n !== 1) return n <= LONGEST_STOPWORD && STOPWORDS.has(term);
  const c = term.charCodeAt(0);
  return c < 48 || c > 57;
}

/**
 * Index-side term processing (minisearch `processTerm`). Title and abstract drop function words; the
 * authors field keeps everything, initials included.
 */
export function indexTerms(token: string, field?: string): string[] {
  const keepAll = field === 'authors';
  if (!JOINERS.test(token)) {
    const term = foldTerm(token);
    return keepAll || !isNoise(term) ? [term] : [];
  }
  const parts = token.split(JOINERS).filter((p) => p.length > 0);
  const out: string[] = [];
  for (const part of parts) {
    const term = foldTerm(part);
    if (keepAll || !isNoise(term)) out.push(term);
  }
  if (parts.length > 1) out.push(foldTerm(parts.join('')));
  return out;
}

/** Query-side term processing for free text and phrases: compounds joined, function words dropped. */
export function queryTerm(token: string): string | null {
  const term = foldTerm(token.split(JOINERS).join(''));
  return term.length === 0 || isNoise(term) ? null : term;
}

/** Query-side term processing for an author filter's key: nothing dropped, since "An" is a surname. */
export function authorQueryTerm(token: string): string | null {
  return token.length === 0 ? null : foldTerm(token);
}

/** The terms a free-text query string searches for, in order. */
export function queryTermsOf(text: string): string[] {
  return tokenizeSearchText(text).flatMap((t) => queryTerm(t) ?? []);
}

/** Tokens as a sequence of simple folded words, function words included (see `wordSequence`). */
export function sequenceOf(tokens: readonly string[]): string[] {
  const out: string[] = [];
  for (const token of tokens) {
    if (!JOINERS.test(token)) out.push(foldTerm(token));
    else for (const part of token.split(JOINERS)) if (part) out.push(foldTerm(part));
  }
  return out;
}

/**
 * Every word as a sequence of simple parts, function words included: what phrases and author names are
 * checked against, since the index alone cannot tell whether words are adjacent.
 */
export function wordSequence(text: string): string[] {
  return sequenceOf(tokenizeSearchText(text));
}

/**
 * A text's simple parts in order (function words dropped unless `keepAll`), and its compounds joined;
 * with `tokens`, each of `tokenizeSearchText`'s tokens of the text added to it.
 */
function partsAndCompounds(
  text: string,
  keepAll: boolean,
  parts: string[],
  joined: string[],
  tokens?: Set<string>,
): void {
  if (!LATEX_OR_NON_ASCII.test(text)) {
    asciiPartsAndCompounds(text.toLowerCase(), keepAll, parts, joined, tokens);
    return;
  }
  const normalised = normaliseSearchText(text);
  if (!NON_ASCII.test(normalised)) {
    asciiPartsAndCompounds(normalised, keepAll, parts, joined, tokens);
    return;
  }
  for (const token of normalised.match(COMPOUND) ?? []) {
    tokens?.add(token);
    if (!JOINERS.test(token)) {
      const term = foldTerm(token);
      if (keepAll || !isNoise(term)) parts.push(term);
      continue;
    }
    let count = 0;
    for (const part of token.split(JOINERS)) {
      if (!part) continue;
      count++;
      const term = foldTerm(part);
      if (keepAll || !isNoise(term)) parts.push(term);
    }
    if (count > 1) joined.push(foldTerm(token.split(JOINERS).join('')));
  }
}

const APOSTROPHE = 39;
const ASCII_JOINERS = /['-]/g;
const HYPHEN = 45;

/** [a-z0-9]: COMPOUND's letters and digits in lowercased ASCII. */
function isWordChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 48 && c <= 57);
}

/**
 * `partsAndCompounds` of lowercased ASCII text (most titles and abstracts), read in one pass over the
 * characters: the same terms as COMPOUND's matches split at their joiners, without the Unicode regular
 * expressions, which took most of the time to index a harvested page.
 */
function asciiPartsAndCompounds(
  text: string,
  keepAll: boolean,
  parts: string[],
  joined: string[],
  tokens?: Set<string>,
): void {
  const n = text.length;
  let i = 0;
  while (i < n) {
    if (!isWordChar(text.charCodeAt(i))) {
      i++;
      continue;
    }
    const tokenStart = i;
    let count = 0;
    for (;;) {
      const start = i;
      while (i < n && isWordChar(text.charCodeAt(i))) i++;
      count++;
      const term = foldLoweredSlice(text, start, i);
      if (keepAll || !isNoise(term)) parts.push(term);
      const c = text.charCodeAt(i);
      if ((c === HYPHEN || c === APOSTROPHE) && isWordChar(text.charCodeAt(i + 1))) i++;
      else break;
    }
    if (tokens || count > 1) {
      const token = text.slice(tokenStart, i);
      tokens?.add(token);
      if (count > 1) joined.push(foldLowered(token.replace(ASCII_JOINERS, '')));
    }
  }
}

/**
 * One field's terms for an index that keeps word positions (SQLite FTS5 on the server), which splits on
 * spaces only: the same terms `indexTerms` and `tokenizeAuthors` give minisearch, laid out so positions
 * mean something. First every word as simple parts in order, so a quoted phrase matches adjacent words;
 * then each hyphenated compound joined ("multiagent"), after the text so it never sits between two words
 * of a phrase. Authors keep every word, and each name is followed by its compounds and whole-name keys.
 */
export function columnTerms(text: string, field?: string): string[] {
  const out: string[] = [];
  if (field === 'authors') {
    for (const name of text.split(AUTHOR_SEPARATOR)) {
      const parts: string[] = [];
      const joined: string[] = [];
      partsAndCompounds(name, true, parts, joined);
      out.push(...parts, ...joined, ...authorKeys(parts));
    }
    return out;
  }
  const joined: string[] = [];
  partsAndCompounds(text, false, out, joined);
  for (const term of joined) out.push(term);
  return out;
}

/**
 * `columnTerms` of the text, and how many distinct tokens `tokenizeField` finds in it (a field's length
 * as minisearch counts it), read in one pass: the server's re-ranking tokenizes each candidate for both.
 */
export function columnTermsAndLength(text: string, field?: string): { terms: string[]; length: number } {
  const tokens = new Set<string>();
  const terms: string[] = [];
  if (field === 'authors') {
    for (const name of text.split(AUTHOR_SEPARATOR)) {
      const parts: string[] = [];
      const joined: string[] = [];
      partsAndCompounds(name, true, parts, joined, tokens);
      const keys = authorKeys(parts);
      for (const key of keys) tokens.add(key);
      terms.push(...parts, ...joined, ...keys);
    }
    return { terms, length: tokens.size };
  }
  const joined: string[] = [];
  partsAndCompounds(text, false, terms, joined, tokens);
  for (const term of joined) terms.push(term);
  return { terms, length: tokens.size };
}

/** The terms a quoted phrase must match in this order in `columnTerms`: its simple parts, function words left out. */
export function phraseTerms(phrase: string): string[] {
  const parts: string[] = [];
  partsAndCompounds(phrase, false, parts, []);
  return parts;
}
