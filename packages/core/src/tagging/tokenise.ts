/**
 * Tokenisation shared by topic terms and paper text, so both sides are read the same way. Words are runs
 * of letters and digits; everything else (hyphens, slashes, LaTeX punctuation) separates words, so
 * "multi-agent" and "multi agent" meet. Two forms are kept per word:
 * - `lower`: lowercased with a light plural fold ("agents" → "agent", "policies" → "policy"), for
 *   ordinary terms;
 * - `exact`: acronym-like words (a capital after the first letter: "RAG", "LLMs", "3DGS", "LLaMA") keep
 *   their case, with an acronym plural fold ("LLMs" → "LLM"); other words are read as in `lower`. Capitalised
 *   terms such as "agentic RL" are matched on this form, so "RAG" does not match "rag" or "Rag".
 */
const WORD = /[\p{L}\p{N}]+/gu;

export interface Tokens {
  lower: string[];
  exact: string[];
}

export function foldLower(word: string): string {
  return foldLowered(word.toLowerCase());
}

// Char codes, compared directly: this runs for every word of every paper.
const S = 115;
const I = 105;
const E = 101;
const U = 117;

/** `foldLower` of a word already lowercased. */
export function foldLowered(w: string): string {
  return foldLoweredSlice(w, 0, w.length);
}

/**
 * Where the light plural fold cuts `text[start, end)`, a lowercased word: the end of the part kept, or,
 * when a "y" replaces the cut ("policies" → "polic" + "y"), that end as `-1 - end`. The one rule behind
 * foldLoweredSlice and the readers that look words up without making strings (neighbour-index-terms.ts).
 */
export function pluralCut(text: string, start: number, end: number): number {
  const n = end - start;
  if (n <= 3 || text.charCodeAt(end - 1) !== S) return end;
  const before = text.charCodeAt(end - 2);
  if (before === S || before === U || before === I) return end; // "process", "focus", "analysis"
  if (n > 4 && before === E && text.charCodeAt(end - 3) === I) return -1 - (end - 3); // "policies"
  return end - 1;
}

/**
 * `foldLowered(text.slice(start, end))`, cutting the folded word straight from the text: a tokenizer
 * reading a long text then makes one string per plural word instead of two.
 */
export function foldLoweredSlice(text: string, start: number, end: number): string {
  const cut = pluralCut(text, start, end);
  return cut >= 0 ? text.slice(start, cut) : `${text.slice(start, -1 - cut)}y`;
}

export function foldExact(word: string): string {
  const low = word.toLowerCase();
  return low === word ? foldLowered(low) : exactOf(word, low, foldLowered(low));
}

function exactOf(word: string, low: string, folded: string): string {
  // Only the first letter capitalised ("Agentic"): an ordinary word.
  if (word.slice(1) === low.slice(1)) return folded;
  // "LLMs", "VLAs", "PRMs": an acronym followed by a plural s.
  const n = word.length;
  if (n >= 3 && word.charCodeAt(n - 1) === S) {
    const stem = word.slice(0, -1);
    if (stem === stem.toUpperCase()) return stem;
  }
  return word;
}

/** The two forms of one word as `tokenise` reads it: [lower, exact]. */
export function wordForms(word: string): [lower: string, exact: string] {
  const low = word.toLowerCase();
  const folded = foldLowered(low);
  return [folded, low === word ? folded : exactOf(word, low, folded)];
}

export function tokenise(text: string): Tokens {
  const lower: string[] = [];
  const exact: string[] = [];
  WORD.lastIndex = 0;
  for (let m = WORD.exec(text); m !== null; m = WORD.exec(text)) {
    const word = m[0];
    const low = word.toLowerCase();
    const folded = foldLowered(low);
    lower.push(folded);
    exact.push(low === word ? folded : exactOf(word, low, folded));
  }
  return { lower, exact };
}

/** Common words that carry no topic signal; excluded from exemplar profiles. */
export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a an the and or of in on for to with by from as at is are be been was were this that these those it its we our ' +
    'their they which who whom whose while where when than then such can could may might will would should also ' +
    'into over under between across via using use used based approach method methods model propose proposed ' +
    'paper work result show shows shown present new novel existing however both each all any more most other ' +
    'state art performance task data dataset experiment further not only but has have had do does two three one ' +
    'first second well large small high low significant significantly improve improve improvement achieve ' +
    'demonstrate framework extensive across without within through different various furthermore moreover'
  )
    .split(' ')
    .map(foldLower),
);
