import { tokenise } from './tokenise.ts';

/**
 * All terms of all topics in two tries of words (one case-folded, one exact-case), so a paper is matched
 * against the whole taxonomy in one pass over its words instead of once per term.
 */
export type TermRole = 'phrase' | 'require' | 'exclude' | 'mask';

export interface TermRef {
  topic: number;
  role: TermRole;
  /** Phrase group or requireAll group index; 0 for exclusions. */
  group: number;
  /** The term as written in the taxonomy, for evidence. */
  term: string;
  /**
   * A phrase of several words or an exact-case acronym ("gaussian splatting", "GRPO"): specific enough to
   * carry a tag alone. A single lowercase word ("mesh", "physics") is not.
   */
  specific?: boolean;
  /** The term's phrase group names every required concept at once (PhraseGroup.bridges). */
  bridges?: boolean;
}

interface TrieNode {
  next: Map<string, TrieNode>;
  ends: TermRef[];
  /**
   * Terms whose last word is a prefix ("reinforc*"), matched against the next word; bucketed by first letter
   * because every word of every paper is checked against the root's prefixes.
   */
  prefixes: Map<number, { prefix: string; refs: TermRef[] }[]>;
}

function node(): TrieNode {
  return { next: new Map(), ends: [], prefixes: new Map() };
}

export interface TermHit {
  ref: TermRef;
  /** Position of the first word of the match. */
  start: number;
  /** Position after its last word. */
  end: number;
}

export class TermIndex {
  private readonly lowerRoot = node();
  private readonly exactRoot = node();

  add(term: string, ref: TermRef): void {
    const isPrefix = term.endsWith('*');
    const text = isPrefix ? term.slice(0, -1) : term;
    const exact = /\p{Lu}/u.test(text);
    const words = tokenise(text)[exact ? 'exact' : 'lower'];
    if (isPrefix) {
      // The prefix word is kept unfolded: "reinforc*" must not lose letters to the plural fold.
      const raw = [...text.matchAll(/[\p{L}\p{N}]+/gu)].map((m) => m[0]);
      const last = raw[raw.length - 1] ?? '';
      // A prefix capitalised only in its first letter ("Qwen*") meets text words the way tokenise reads
      // them: "Qwen3" is an ordinary word there, so its exact form is lowercase.
      const ordinary = last.slice(1) === last.slice(1).toLowerCase();
      words[words.length - 1] = exact && !ordinary ? last : last.toLowerCase();
    }
    let at = exact ? this.exactRoot : this.lowerRoot;
    const steps = isPrefix ? words.length - 1 : words.length;
    for (let i = 0; i < steps; i++) {
      const word = words[i] ?? '';
      let child = at.next.get(word);
      if (!child) {
        child = node();
        at.next.set(word, child);
      }
      at = child;
    }
    if (isPrefix) {
      const prefix = words[words.length - 1] ?? '';
      const bucket = at.prefixes.get(prefix.charCodeAt(0)) ?? [];
      const slot = bucket.find((p) => p.prefix === prefix);
      if (slot) slot.refs.push(ref);
      else bucket.push({ prefix, refs: [ref] });
      at.prefixes.set(prefix.charCodeAt(0), bucket);
    } else {
      at.ends.push(ref);
    }
  }

  /** Calls `onHit` for every term occurrence in the word lists (both from one `tokenise`). */
  scan(lower: readonly string[], exact: readonly string[], onHit: (hit: TermHit) => void): void {
    // The roots are looked up inline: this loop runs for every word of every paper, and most words start
    // no term at all.
    const lowerRoot = this.lowerRoot;
    const exactRoot = this.exactRoot;
    for (let start = 0; start < lower.length; start++) {
      const lw = lower[start] as string;
      const l = lowerRoot.next.get(lw);
      if (l) walk(l, lower, start, onHit);
      if (lowerRoot.prefixes.size > 0) prefixHits(lowerRoot, lw, start, start, onHit);
      const ew = exact[start] as string;
      const e = exactRoot.next.get(ew);
      if (e) walk(e, exact, start, onHit);
      if (exactRoot.prefixes.size > 0) prefixHits(exactRoot, ew, start, start, onHit);
    }
  }
}

function prefixHits(
  at: TrieNode,
  word: string,
  position: number,
  start: number,
  onHit: (hit: TermHit) => void,
): void {
  const bucket = at.prefixes.get(word.charCodeAt(0));
  if (!bucket) return;
  for (const p of bucket)
    if (word.startsWith(p.prefix)) for (const ref of p.refs) onHit({ ref, start, end: position + 1 });
}

/** Continues a match from a node reached by the word at `start`. */
function walk(first: TrieNode, words: readonly string[], start: number, onHit: (hit: TermHit) => void): void {
  let at = first;
  for (let i = start + 1; ; i++) {
    for (const ref of at.ends) onHit({ ref, start, end: i });
    const word = words[i];
    if (word === undefined) return;
    if (at.prefixes.size > 0) prefixHits(at, word, i, start, onHit);
    const next = at.next.get(word);
    if (!next) return;
    at = next;
  }
}
