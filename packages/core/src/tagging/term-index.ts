import { tokenise } from './tokenise.ts';

/**
 * All terms of all topics in two tries of words (one case-folded, one exact-case), so a paper is matched
 * against the whole taxonomy in one pass over its words instead of once per term.
 */
export type TermRole = 'phrase' | 'require' | 'exclude';

export interface TermRef {
  topic: number;
  role: TermRole;
  /** Phrase group or requireAll group index; 0 for exclusions. */
  group: number;
  /** The term as written in the taxonomy, for evidence. */
  term: string;
}

interface TrieNode {
  next: Map<string, TrieNode>;
  ends: TermRef[];
  /** Terms whose last word is a prefix ("reinforc*"), matched against the next word. */
  prefixes: { prefix: string; refs: TermRef[] }[];
}

function node(): TrieNode {
  return { next: new Map(), ends: [], prefixes: [] };
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
      words[words.length - 1] = exact ? last : last.toLowerCase();
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
      const slot = at.prefixes.find((p) => p.prefix === prefix);
      if (slot) slot.refs.push(ref);
      else at.prefixes.push({ prefix, refs: [ref] });
    } else {
      at.ends.push(ref);
    }
  }

  /** Calls `onHit` for every term occurrence in the word lists (both from one `tokenise`). */
  scan(lower: readonly string[], exact: readonly string[], onHit: (hit: TermHit) => void): void {
    for (let start = 0; start < lower.length; start++) {
      walk(this.lowerRoot, lower, start, onHit);
      walk(this.exactRoot, exact, start, onHit);
    }
  }
}

function walk(root: TrieNode, words: readonly string[], start: number, onHit: (hit: TermHit) => void): void {
  let at = root;
  for (let i = start; ; i++) {
    if (at !== root) for (const ref of at.ends) onHit({ ref, start, end: i });
    const word = words[i];
    if (word === undefined) return;
    for (const p of at.prefixes)
      if (word.startsWith(p.prefix)) for (const ref of p.refs) onHit({ ref, start, end: i + 1 });
    const next = at.next.get(word);
    if (!next) return;
    at = next;
  }
}
