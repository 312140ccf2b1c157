/**
 * How the neighbour index reads a paper: the words of `tokenise(text).lower` that are at least three
 * characters and not all digits, title words counted twice, weighted (1 + ln tf) · idf. The same reading
 * as tests/eval/neighbourhood.ts's exact scan, so the index's neighbours are that scan's, pruned.
 */
import { foldLowered, pluralCut } from './tokenise.ts';
import { wordCharWidth } from './word-scan.ts';

const ALL_DIGITS = /^\d+$/;
const TITLE_WEIGHT = 2;

/**
 * A paper's counts over a numbered vocabulary, gathered in arrays reused from paper to paper (one paper's
 * distinct words are listed in `terms[0..length)`, their counts in `count[term]`); `clear` readies it for
 * the next paper without touching the whole vocabulary.
 */
export class TermCounts {
  count: Uint16Array;
  terms: Int32Array;
  length = 0;

  constructor(vocabulary: number) {
    this.count = new Uint16Array(Math.max(16, vocabulary));
    this.terms = new Int32Array(256);
  }

  add(term: number, weight: number): void {
    if (term >= this.count.length) {
      const grown = new Uint16Array(Math.max(term + 1, this.count.length * 2));
      grown.set(this.count);
      this.count = grown;
    }
    const before = this.count[term] ?? 0;
    if (before === 0) {
      if (this.length === this.terms.length) {
        const grown = new Int32Array(this.terms.length * 2);
        grown.set(this.terms);
        this.terms = grown;
      }
      this.terms[this.length++] = term;
    }
    // A word repeated 65,535 times in one abstract weighs as much as one repeated that often less one.
    this.count[term] = Math.min(0xffff, before + weight);
  }

  clear(): void {
    for (let i = 0; i < this.length; i++) this.count[this.terms[i]!] = 0;
    this.length = 0;
  }
}

/**
 * A paper's unit vector over the kept vocabulary, then only its `limit` heaviest terms, written to `outTerms`/`outWeights`; returns how many. The norm is the whole vector's, so
 * the weights kept are the true cosine components and a pruned dot product never exceeds the exact one.
 */
export function heaviestTerms(
  counts: TermCounts,
  idf: Float32Array,
  limit: number,
  outTerms: Int32Array,
  outWeights: Float32Array,
  scratch: { terms: Int32Array; weights: Float32Array },
): number {
  let n = 0;
  let sumSquares = 0;
  if (scratch.terms.length < counts.length) {
    scratch.terms = new Int32Array(counts.length * 2);
    scratch.weights = new Float32Array(counts.length * 2);
  }
  const terms = scratch.terms;
  const weights = scratch.weights;
  for (let i = 0; i < counts.length; i++) {
    const t = counts.terms[i]!;
    const w = (1 + Math.log(counts.count[t]!)) * idf[t]!;
    if (!(w > 0)) continue;
    terms[n] = t;
    weights[n] = w;
    sumSquares += w * w;
    n++;
  }
  if (n === 0) return 0;
  const norm = Math.sqrt(sumSquares);
  if (n > limit) selectHeaviest(terms, weights, n, limit);
  const kept = Math.min(n, limit);
  for (let i = 0; i < kept; i++) {
    outTerms[i] = terms[i]!;
    outWeights[i] = weights[i]! / norm;
  }
  return kept;
}

/** Moves the `limit` heaviest of the first `n` entries to the front (in no particular order). */
export function selectHeaviest(terms: Int32Array, weights: Float32Array, n: number, limit: number): void {
  // Quickselect on the weights, the terms moved alongside: a paper has a few hundred words at most.
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const pivot = weights[(lo + hi) >>> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (weights[i]! > pivot) i++;
      while (weights[j]! < pivot) j--;
      if (i <= j) {
        swap(terms, weights, i, j);
        i++;
        j--;
      }
    }
    if (limit - 1 <= j) hi = j;
    else if (limit - 1 >= i) lo = i;
    else return;
  }
}

function swap(terms: Int32Array, weights: Float32Array, i: number, j: number): void {
  const t = terms[i]!;
  terms[i] = terms[j]!;
  terms[j] = t;
  const w = weights[i]!;
  weights[i] = weights[j]!;
  weights[j] = w;
}

const LOWER_Y = 0x79;

/**
 * A vocabulary looked up straight from a text's characters: every word of every paper is read, and a
 * lowercase ASCII word (most of them) is then found without making a string. Open addressing over an FNV-1a
 * hash of the UTF-16 units; `intern` adds the words it has not seen (the builder's use).
 */
export class WordTable {
  #chars = new Uint16Array(1024);
  #charLength = 0;
  #starts = new Uint32Array(256);
  #size = 0;
  #slots = new Int32Array(64).fill(-1);
  #mask = 63;

  /** Term i is `words[i]`. */
  constructor(words: readonly string[] = []) {
    for (const w of words) this.intern(w, 0, w.length, -1);
  }

  get size(): number {
    return this.#size;
  }

  /** The term of `text[start, end)` followed by the unit `tail` (-1: none), or -1 when it is not held. */
  find(text: string, start: number, end: number, tail: number): number {
    return this.#slots[this.#slot(text, start, end, tail)]!;
  }

  /** As `find`, adding the word when it is not held. */
  intern(text: string, start: number, end: number, tail: number): number {
    const slot = this.#slot(text, start, end, tail);
    const held = this.#slots[slot]!;
    if (held !== -1) return held;
    const n = end - start + (tail < 0 ? 0 : 1);
    if (this.#charLength + n > this.#chars.length) this.#chars = grown(this.#chars, this.#charLength + n);
    for (let i = start; i < end; i++) this.#chars[this.#charLength++] = text.charCodeAt(i);
    if (tail >= 0) this.#chars[this.#charLength++] = tail;
    const t = this.#size++;
    if (this.#size + 1 > this.#starts.length) this.#starts = grown(this.#starts, this.#size + 1);
    this.#starts[t + 1] = this.#charLength;
    this.#slots[slot] = t;
    if (this.#size * 2 > this.#slots.length) this.#rehash();
    return t;
  }

  /** Term t's word. */
  word(t: number): string {
    return String.fromCharCode(...this.#chars.subarray(this.#starts[t], this.#starts[t + 1]));
  }

  get bytes(): number {
    return this.#chars.byteLength + this.#starts.byteLength + this.#slots.byteLength;
  }

  /** The slot holding the word, or the empty slot where it would go. */
  #slot(text: string, start: number, end: number, tail: number): number {
    const n = end - start + (tail < 0 ? 0 : 1);
    for (let slot = hash(text, start, end, tail) & this.#mask; ; slot = (slot + 1) & this.#mask) {
      const t = this.#slots[slot]!;
      if (t === -1) return slot;
      const from = this.#starts[t]!;
      if (this.#starts[t + 1]! - from !== n) continue;
      let same = true;
      for (let i = start; i < end && same; i++) same = this.#chars[from + i - start] === text.charCodeAt(i);
      if (same && (tail < 0 || this.#chars[from + n - 1] === tail)) return slot;
    }
  }

  #rehash(): void {
    this.#slots = new Int32Array(this.#slots.length * 2).fill(-1);
    this.#mask = this.#slots.length - 1;
    for (let t = 0; t < this.#size; t++) {
      let h = 0x811c9dc5;
      for (let i = this.#starts[t]!; i < this.#starts[t + 1]!; i++)
        h = Math.imul(h ^ this.#chars[i]!, 0x01000193);
      let slot = (h >>> 0) & this.#mask;
      while (this.#slots[slot] !== -1) slot = (slot + 1) & this.#mask;
      this.#slots[slot] = t;
    }
  }
}

function grown<T extends Uint16Array | Uint32Array>(array: T, atLeast: number): T {
  const out = new (array.constructor as new (n: number) => T)(Math.max(atLeast, array.length * 2));
  out.set(array);
  return out;
}

function hash(text: string, start: number, end: number, tail: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  if (tail >= 0) h = Math.imul(h ^ tail, 0x01000193);
  return h >>> 0;
}

/**
 * Adds the paper's words to `counts`, title words twice: the words of `tokenise(text).lower` (runs of
 * letters and digits, lowercased, plural-folded) of three characters or more and not all digits. Those
 * `table` holds, or with `grow` every one, the table taking in the new ones. A hand-written scan: it reads
 * every word of every paper, and a lowercase ASCII word (most of them) is found without making a string.
 */
export function countTerms(
  title: string,
  abstract: string,
  table: WordTable,
  counts: TermCounts,
  grow = false,
): void {
  countText(title, TITLE_WEIGHT, table, counts, grow);
  countText(abstract, 1, table, counts, grow);
}

function countText(text: string, weight: number, table: WordTable, counts: TermCounts, grow: boolean): void {
  const n = text.length;
  let i = 0;
  while (i < n) {
    let c = text.charCodeAt(i);
    let width = wordCharWidth(text, i);
    if (width === 0) {
      i += c >= 0xd800 && c <= 0xdbff ? 2 : 1;
      continue;
    }
    const start = i;
    let plain = true;
    let digits = true;
    while (width > 0) {
      if (c > 0x7a || (c >= 0x41 && c <= 0x5a)) plain = false;
      if (c < 0x30 || c > 0x39) digits = false;
      i += width;
      if (i >= n) break;
      c = text.charCodeAt(i);
      width = wordCharWidth(text, i);
    }
    if (digits) continue;
    let t: number;
    if (plain && text.charCodeAt(start) > 0x39) {
      // Three lowercase ASCII characters or more, the first a letter: the fold keeps three or more.
      if (i - start < 3) continue;
      t = findFolded(table, text, start, i, grow);
    } else {
      const word = foldLowered(text.slice(start, i).toLowerCase());
      if (word.length < 3 || (word.charCodeAt(0) <= 0x39 && ALL_DIGITS.test(word))) continue;
      t = grow ? table.intern(word, 0, word.length, -1) : table.find(word, 0, word.length, -1);
    }
    if (t >= 0) counts.add(t, weight);
  }
}

/** `table.find` (or `intern`) of foldLoweredSlice(text, start, end), the fold done on the characters. */
function findFolded(table: WordTable, text: string, start: number, end: number, grow: boolean): number {
  const cut = pluralCut(text, start, end);
  const stop = cut >= 0 ? cut : -1 - cut;
  const tail = cut >= 0 ? -1 : LOWER_Y;
  return grow ? table.intern(text, start, stop, tail) : table.find(text, start, stop, tail);
}
