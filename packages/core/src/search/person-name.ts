import type { ParsedQuery } from './query-syntax.ts';
import { authorFilterKey, authorKeys, wordSequence } from './search-text.ts';

/**
 * A plain person's name typed as a search ("Ying Wen", "Yoshua Bengio", "Jane M. Doe"): both the server
 * and the offline index list the papers one author of which has that whole name before the papers that
 * merely hold the words ("King Wen Sequence" for "Ying Wen"). A single word is left to the field weights:
 * "long" or "graph" are surnames too, and promoting their authors would bury the papers about them.
 */

/** Free words a name may have: given name(s) and surname, an initial between. */
const NAME_WORDS = { min: 2, max: 3 } as const;
/** Letters only (accents folded by the tokenizer), an initial with or without its dot. */
const NAME_WORD = /^\p{L}[\p{L}'’-]*\.?$/u;

/**
 * The whole-name key (see `authorFilterKey`) the free text would be as one author's name, or null when the
 * query is not a bare name: other words, digits, a phrase, or an arXiv id.
 */
export function personNameKey(query: ParsedQuery): string | null {
  if (query.phrases.length > 0 || query.paperId !== null) return null;
  const words = query.text.split(' ').filter((w) => w.length > 0);
  if (words.length < NAME_WORDS.min || words.length > NAME_WORDS.max) return null;
  if (!words.every((w) => NAME_WORD.test(w))) return null;
  // Initials alone ("J. D.") say too little to be a name.
  if (!wordSequence(query.text).some((w) => w.length > 1)) return null;
  return authorFilterKey(query.text);
}

/**
 * The first of `names` whose whole-name keys hold `key`: the author a name search found, as written. The
 * index alone cannot tell "Ying Wen" from "Yingwen Wu" (both hold the term "yingwen"); this can.
 */
export function authorNamed(names: readonly string[], key: string): string | undefined {
  return names.find((name) => authorKeys(wordSequence(name)).includes(key));
}
