import { TermWords, type WordBuffer } from './term-words.ts';
import { tokenise, wordForms } from './tokenise.ts';

/**
 * All terms of all topics in two tries of words (one case-folded, one exact-case), so a paper is matched
 * against the whole taxonomy in one pass over its words instead of once per term.
 *
 * Speed: the tries are keyed by integer word ids (term-words.ts reads a text into them without making a
 * string of each word), the node each word starts is found by its id, and hits go into typed arrays.
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

interface PrefixTerm {
  prefix: string;
  /** Ids of the refs, in the order they were added. */
  refs: number[];
}

interface TrieNode {
  next: Map<number, TrieNode>;
  /** Refs of the terms that end here. */
  ends: number[];
  /** Terms whose last word is a prefix ("reinforc*"), matched against the next word. */
  prefixes: PrefixTerm[] | null;
}

function node(): TrieNode {
  return { next: new Map(), ends: [], prefixes: null };
}

/** Term occurrences: the ref, the first word's position, the position after the last word. */
export class Hits {
  ref = new Int32Array(256);
  start = new Int32Array(256);
  end = new Int32Array(256);
  length = 0;

  push(ref: number, start: number, end: number): void {
    if (this.length === this.ref.length) this.grow();
    const i = this.length++;
    this.ref[i] = ref;
    this.start[i] = start;
    this.end[i] = end;
  }

  private grow(): void {
    const size = this.ref.length * 2;
    const widen = (a: Int32Array) => {
      const b = new Int32Array(size);
      b.set(a);
      return b;
    };
    this.ref = widen(this.ref);
    this.start = widen(this.start);
    this.end = widen(this.end);
  }
}

export class TermIndex {
  readonly refs: TermRef[] = [];
  readonly words = new TermWords();
  private readonly lowerRoot = node();
  private readonly exactRoot = node();
  /** One-word prefix terms at each root, in the order they were added. */
  private readonly lowerRootPrefixes: PrefixTerm[] = [];
  private readonly exactRootPrefixes: PrefixTerm[] = [];
  /** By word id: the node of each trie the word leads to from its root. */
  private lowerStart: (TrieNode | undefined)[] = [];
  private exactStart: (TrieNode | undefined)[] = [];

  add(term: string, ref: TermRef): void {
    const id = this.refs.length;
    this.refs.push(ref);
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
    const root = exact ? this.exactRoot : this.lowerRoot;
    let at = root;
    const steps = isPrefix ? words.length - 1 : words.length;
    for (let i = 0; i < steps; i++) {
      const word = this.words.idOf(words[i] ?? '');
      let child = at.next.get(word);
      if (!child) {
        child = node();
        at.next.set(word, child);
        if (at === root) (exact ? this.exactStart : this.lowerStart)[word] = child;
      }
      at = child;
    }
    if (!isPrefix) {
      at.ends.push(id);
      return;
    }
    const prefix = words[words.length - 1] ?? '';
    let list: PrefixTerm[];
    if (at === root) {
      list = exact ? this.exactRootPrefixes : this.lowerRootPrefixes;
      this.words.addRootPrefix(prefix);
    } else list = at.prefixes ??= [];
    const slot = list.find((p) => p.prefix === prefix);
    if (slot) slot.refs.push(id);
    else list.push({ prefix, refs: [id] });
  }

  /**
   * Adds to `hits` every term occurrence among the words read from `text` into positions [from, to) of
   * `words`; hit positions are positions of `words`.
   */
  scan(text: string, words: WordBuffer, from: number, to: number, hits: Hits): void {
    const { lowerId, exactId, maybePrefix } = words;
    for (let start = from; start < to; start++) {
      const lower = lowerId[start] ?? -1;
      const lowerNode = lower < 0 ? undefined : this.lowerStart[lower];
      if (lowerNode) walk(lowerNode, text, words, lowerId, 0, to, start, hits);
      const check = maybePrefix[start] === 1;
      if (check) this.rootPrefixHits(this.lowerRootPrefixes, formAt(text, words, start, 0), start, hits);
      const exact = exactId[start] ?? -1;
      const exactNode = exact < 0 ? undefined : this.exactStart[exact];
      if (exactNode) walk(exactNode, text, words, exactId, 1, to, start, hits);
      if (check) this.rootPrefixHits(this.exactRootPrefixes, formAt(text, words, start, 1), start, hits);
    }
  }

  private rootPrefixHits(prefixes: readonly PrefixTerm[], word: string, start: number, hits: Hits): void {
    for (const p of prefixes)
      if (word.startsWith(p.prefix)) for (const ref of p.refs) hits.push(ref, start, start + 1);
  }
}

/** tokenise's lowercase (0) or exact (1) form of the word at a position, as a string: for prefix terms. */
export function formAt(text: string, words: WordBuffer, at: number, form: 0 | 1): string {
  return wordForms(text.slice(words.start[at], words.end[at]))[form];
}

/** Continues a match from the node the word at `start` reached, in the trie of one form of the words. */
function walk(
  first: TrieNode,
  text: string,
  words: WordBuffer,
  ids: Int32Array,
  form: 0 | 1,
  n: number,
  start: number,
  hits: Hits,
): void {
  let at = first;
  for (let i = start + 1; ; i++) {
    const ends = at.ends;
    for (let k = 0; k < ends.length; k++) hits.push(ends[k] ?? 0, start, i);
    if (i >= n || (at.next.size === 0 && at.prefixes === null)) return;
    if (at.prefixes !== null) {
      const word = formAt(text, words, i, form);
      for (const p of at.prefixes)
        if (word.startsWith(p.prefix)) for (const ref of p.refs) hits.push(ref, start, i + 1);
    }
    const id = ids[i] ?? -1;
    const next = id < 0 ? undefined : at.next.get(id);
    if (!next) return;
    at = next;
  }
}
