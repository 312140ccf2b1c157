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

// A sentence ends at . ! or ? followed by space and something that can start a sentence.
const SENTENCE_END = /(?<=[.!?])\s+(?=[A-Z0-9(["'$\\])/;

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
  return abstract
    .split(SENTENCE_END)
    .map((text) => text.trim())
    .filter((text) => text.length > 0)
    .map((text) => ({ text, role: roleOf(text) }));
}
