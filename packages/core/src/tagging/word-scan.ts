/**
 * Where words are in a text, found without a regular expression: the tagging engine reads every word of
 * every paper, and a scan over char codes with a table per code unit is several times faster than
 * matching /[\p{L}\p{N}]+/gu. The words are exactly tokenise's: runs of Unicode letters and numbers, read
 * by code point (a letter outside the Basic Multilingual Plane is a surrogate pair).
 */
const UNICODE_WORD = /^[\p{L}\p{N}]$/u;

/** Per UTF-16 code unit: 1 a word character, -1 not one, 0 not yet known (or a high surrogate). */
const KIND = new Int8Array(65536);
for (let c = 0; c < 128; c++) KIND[c] = UNICODE_WORD.test(String.fromCharCode(c)) ? 1 : -1;
// A low surrogate is only ever read as the second half of a pair.
KIND.fill(-1, 0xdc00, 0xe000);

/** How many code units the word character at `i` takes (1, or 2 for a pair), or 0 when none starts there. */
export function wordCharWidth(text: string, i: number): number {
  const c = text.charCodeAt(i);
  const kind = KIND[c];
  if (kind === 1) return 1;
  if (kind === -1) return 0;
  return classify(text, i, c);
}

function classify(text: string, i: number, c: number): number {
  if (Number.isNaN(c)) return 0;
  if (c >= 0xd800 && c < 0xdc00) {
    const d = text.charCodeAt(i + 1);
    return d >= 0xdc00 && d < 0xe000 && UNICODE_WORD.test(text.slice(i, i + 2)) ? 2 : 0;
  }
  const word = UNICODE_WORD.test(String.fromCharCode(c));
  KIND[c] = word ? 1 : -1;
  return word ? 1 : 0;
}
