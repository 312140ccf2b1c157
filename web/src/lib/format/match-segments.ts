import type { HighlightSegment } from '@quire/core';

const WORD = /[\p{L}\p{N}]+/gu;

/** Lower-cased without accents, so "Réseau" starts with "reseau". */
function fold(word: string): string {
  return word.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/**
 * Cuts a sentence into runs of text, marking every word that starts with one of `matched` (case-insensitive).
 * The server matches folded word forms, so a word-start match also catches "assignments" for "assignment".
 */
export function matchSegments(sentence: string, matched: readonly string[]): HighlightSegment[] {
  const terms = matched.map(fold).filter((t) => t.length > 0);
  const out: HighlightSegment[] = [];
  const push = (text: string, hit: boolean): void => {
    if (!text) return;
    const last = out.at(-1);
    if (last && last.hit === hit && !hit) last.text += text;
    else out.push({ text, hit });
  };
  let at = 0;
  for (const m of sentence.matchAll(WORD)) {
    const word = fold(m[0]);
    if (!terms.some((t) => word.startsWith(t))) continue;
    push(sentence.slice(at, m.index), false);
    push(m[0], true);
    at = m.index + m[0].length;
  }
  push(sentence.slice(at), false);
  return out;
}
