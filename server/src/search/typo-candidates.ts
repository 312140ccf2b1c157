/**
 * Spellings near a word, for correcting a typo against the index's vocabulary before a query runs. Pure:
 * the service looks the candidates up.
 */

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';

/**
 * Every string one edit away: a character dropped, two neighbours swapped (a common slip, one edit here
 * rather than two), one replaced or one added. Replacements and additions use ASCII letters (digits too
 * in a word that has one) plus the word's own characters, so an accent-folded or non-Latin word is still
 * covered. About 55 per letter: each is looked up in the vocabulary.
 */
export function oneEditAway(word: string): string[] {
  const chars = [...word];
  const letters = new Set([...LETTERS, ...(/\d/.test(word) ? DIGITS : ''), ...chars]);
  const out = new Set<string>();
  const at = (i: number, j: number) => chars.slice(i, j).join('');
  for (let i = 0; i <= chars.length; i++) {
    const head = at(0, i);
    const tail = at(i, chars.length);
    const rest = at(i + 1, chars.length);
    if (i < chars.length) out.add(head + rest);
    if (i + 1 < chars.length)
      out.add(head + (chars[i + 1] ?? '') + (chars[i] ?? '') + at(i + 2, chars.length));
    for (const c of letters) {
      if (i < chars.length && c !== chars[i]) out.add(head + c + rest);
      out.add(head + c + tail);
    }
  }
  out.delete(word);
  return [...out];
}

/**
 * Edits between `a` and `b` (dropped, added, replaced or swapped neighbours: the optimal string alignment
 * distance), or `max + 1` as soon as it is certain to exceed `max`.
 */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let d = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d = Math.min(d, (before[j - 2] ?? 0) + 1);
      }
      current[j] = d;
      best = Math.min(best, d);
    }
    if (best > max) return max + 1;
    before = previous;
    previous = current;
  }
  const d = previous[b.length] ?? max + 1;
  return d > max ? max + 1 : d;
}

// Kept where both engines' readers find it; search's callers and tests read it here as before.
export { prefixEnd } from '../store/search-match.ts';
