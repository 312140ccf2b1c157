/**
 * An abstract read sentence by sentence, each with a weight for how much its mentions say about what the
 * paper does. Tagging counts a concept the paper *does*, not one it names in passing: a code-availability
 * line, a list of possible applications or a sentence about other people's methods says little about the
 * paper's own topic.
 */

export type SentenceRole = 'plain' | 'background' | 'contrast' | 'aside' | 'boilerplate';

export interface Sentence {
  text: string;
  role: SentenceRole;
}

/** How much a mention counts in a sentence of each role. */
export const ROLE_WEIGHT: Readonly<Record<SentenceRole, number>> = {
  plain: 1,
  // What the field has done: "Reinforcement learning has improved reasoning in many domains".
  background: 0.6,
  // Named to be set against: "unlike SFT+RL pipelines", "rather than reinforcement learning".
  contrast: 0.5,
  // Possible uses and future work: "with applications in recommendation, search and robotics".
  aside: 0.25,
  // Links and availability: "our code is available at github.com/…".
  boilerplate: 0,
};

export const ROLE_NOTE: Readonly<Record<SentenceRole, string>> = {
  plain: '',
  background: 'in a sentence about the field',
  contrast: 'in a sentence about other methods',
  aside: 'in a list of possible applications',
  boilerplate: 'in a code or link sentence',
};

const BOILERPLATE =
  /https?:\/\/|www\.|github|gitlab|hugging ?face|\bproject (page|website)\b|\b(code|codes|data|datasets?|models?|weights|implementations?|checkpoints?|demos?|toolkit|library|software|benchmark)\b[^.]{0,80}?\b(available|released|open[- ]?sourced?|publicly|will be made)\b/i;
const ASIDE =
  /\b(future (work|research|directions?)|potential applications?|applications? (in|to|such as|including|across|ranging|like)|applicable to|(can|could|may) (be )?(applied|extended|benefit|used) (to|in)|wide range of (applications|domains|tasks)|broader impacts?)\b/i;
// The present perfect of a field's progress, or "recent …" openings.
const BACKGROUND =
  /\b(has|have) (been|shown|achieved|improved|emerged|become|demonstrated|enabled|made|gained|attracted|seen|advanced|revolutioni[sz]ed|transformed)\b|^(recent(ly)?|in recent years|over the past)\b/i;
const BACKGROUND_HINT = /ha(s|ve) |^(recent|in recent|over the past)/i;

// Only explicit contrast: "outperforms baselines" usually sits in the sentence about the paper's own method.
const CONTRAST =
  /\b(unlike|in contrast (to|with)|as opposed to|rather than|instead of|alternative to|without (relying on|requiring|the need for))\b/i;

// Words every sentence of a role holds one of: a cheap test that spares most sentences the patterns.
const BOILERPLATE_HINT = /http|www\.|git|hugging|project|availab|release|open|public|will be made/i;
const ASIDE_HINT = /future|applica|benefit|broader|extended|used (to|in)/i;
const CONTRAST_HINT = /unlike|contrast|opposed|rather|instead|alternative|without/i;

// Any of the hints above in one pattern: most sentences are plain, and one test tells them apart.
const ANY_HINT = new RegExp(
  [BOILERPLATE_HINT, ASIDE_HINT, CONTRAST_HINT, BACKGROUND_HINT].map((r) => r.source).join('|'),
  'i',
);

export function roleOf(text: string): SentenceRole {
  if (!ANY_HINT.test(text)) return 'plain';
  if (BOILERPLATE_HINT.test(text) && BOILERPLATE.test(text)) return 'boilerplate';
  if (ASIDE_HINT.test(text) && ASIDE.test(text)) return 'aside';
  if (CONTRAST_HINT.test(text) && CONTRAST.test(text)) return 'contrast';
  if (BACKGROUND_HINT.test(text) && BACKGROUND.test(text)) return 'background';
  return 'plain';
}

export function sentencesOf(abstract: string): Sentence[] {
  const bounds = sentenceBounds(abstract);
  const sentences: Sentence[] = [];
  for (let k = 0; k < bounds.length; k += 2) {
    const text = abstract.slice(bounds[k], bounds[k + 1]);
    sentences.push({ text, role: roleOf(text) });
  }
  return sentences;
}

/** JavaScript's `\s` (what `trim` removes too), by char code. */
export function isSpace(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 160) return false;
  return (
    c === 160 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** A character that can start a sentence: A-Z, 0-9, ( [ " ' $ or a backslash (LaTeX). */
function startsSentence(c: number): boolean {
  return (
    (c >= 65 && c <= 90) ||
    (c >= 48 && c <= 57) ||
    c === 40 ||
    c === 91 ||
    c === 34 ||
    c === 39 ||
    c === 36 ||
    c === 92
  );
}

/**
 * The sentences of an abstract as [start, end) pairs, trimmed and never empty. A sentence ends at . ! or ?
 * followed by a run of whitespace and a character that can start a sentence: the pieces of
 * `abstract.split(/(?<=[.!?])\s+(?=[A-Z0-9(["'$\\])/)`, found by one scan over char codes because the
 * engine reads every abstract and a lookbehind split is slow (sentence-roles.test.ts pins the two equal).
 */
export function sentenceBounds(abstract: string): number[] {
  const bounds: number[] = [];
  const n = abstract.length;
  let start = 0;
  const push = (from: number, to: number) => {
    while (from < to && isSpace(abstract.charCodeAt(from))) from++;
    while (to > from && isSpace(abstract.charCodeAt(to - 1))) to--;
    if (to > from) bounds.push(from, to);
  };
  // The next . ! and ? (native searches: far faster than a loop over every character).
  let dot = abstract.indexOf('.');
  let bang = abstract.indexOf('!');
  let question = abstract.indexOf('?');
  for (;;) {
    const p = nearest(dot, bang, question);
    if (p < 0) break;
    if (p === dot) dot = abstract.indexOf('.', p + 1);
    else if (p === bang) bang = abstract.indexOf('!', p + 1);
    else question = abstract.indexOf('?', p + 1);
    const i = p + 1;
    if (i >= n || !isSpace(abstract.charCodeAt(i))) continue;
    let j = i + 1;
    while (j < n && isSpace(abstract.charCodeAt(j))) j++;
    if (j < n && startsSentence(abstract.charCodeAt(j))) {
      push(start, i);
      start = j;
    }
  }
  push(start, n);
  return bounds;
}

/** The smallest of three positions that is not -1, or -1. */
function nearest(a: number, b: number, c: number): number {
  let m = a;
  if (b >= 0 && (m < 0 || b < m)) m = b;
  if (c >= 0 && (m < 0 || c < m)) m = c;
  return m;
}
