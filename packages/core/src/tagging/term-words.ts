import { wordForms } from './tokenise.ts';
import { wordCharWidth } from './word-scan.ts';

/**
 * The words the taxonomy's terms are made of, each with an id, and the reading of a text into those ids.
 *
 * Why not a map from each text word: the engine reads about 200 words a paper, most of which no term
 * holds, and making a string of each word to look it up costs more than all the matching. Here an ASCII
 * word (nearly every word of an abstract) is hashed from its char codes in the form tokenise gives it —
 * lowercased with the plural fold, and the exact-case form — and looked up in a small open-addressing table
 * of the taxonomy's words, compared char by char; no string is made. A word with other characters is read
 * through tokenise's own `wordForms`. Both give the same ids (term-words.test.ts pins them equal).
 */

/** Positions of a text's words with their ids: the lowercase form's and the exact form's (-1: no term's). */
export class WordBuffer {
  lowerId = new Int32Array(512);
  exactId = new Int32Array(512);
  start = new Int32Array(512);
  end = new Int32Array(512);
  /** 1 when the word may start with one of the prefix terms read at the root ("Qwen*"): check it. */
  maybePrefix = new Uint8Array(512);

  ensure(size: number): void {
    if (size <= this.start.length) return;
    const length = Math.max(size, this.start.length * 2);
    const widen = <T extends Int32Array | Uint8Array>(a: T, make: (n: number) => T): T => {
      const b = make(length);
      b.set(a);
      return b;
    };
    this.lowerId = widen(this.lowerId, (n) => new Int32Array(n));
    this.exactId = widen(this.exactId, (n) => new Int32Array(n));
    this.start = widen(this.start, (n) => new Int32Array(n));
    this.end = widen(this.end, (n) => new Int32Array(n));
    this.maybePrefix = widen(this.maybePrefix, (n) => new Uint8Array(n));
  }
}

const SEED = 0x811c9dc5 | 0;
const step = (h: number, c: number) => Math.imul(h ^ c, 0x01000193);
const slotOf = (h: number, mask: number) => (h ^ (h >>> 15)) & mask;

function hashOf(word: string): number {
  let h = SEED;
  for (let i = 0; i < word.length; i++) h = step(h, word.charCodeAt(i));
  return h;
}

// ASCII classes: a word character, and its lowercase.
const ASCII_WORD = new Uint8Array(128);
const LOWER = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  ASCII_WORD[c] = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) ? 1 : 0;
  LOWER[c] = c >= 65 && c <= 90 ? c + 32 : c;
}
const LOWER_S = 115;
const LOWER_I = 105;
const LOWER_E = 101;
const LOWER_U = 117;
const LOWER_Y = 121;

/** How tokenise's plural fold ends a lowercase word: kept whole, its last letter dropped, or "-ies" → "-y". */
const WHOLE = 0;
const DROP_S = 1;
const IES = 2;

/** A lowercase ASCII letter or digit as 0-35, for the prefix tables. */
function alnum(lower: number): number {
  return lower <= 57 ? lower - 48 : lower - 87;
}

export class TermWords {
  private readonly ids = new Map<string, number>();
  private readonly words: string[] = [];
  private hashes = new Int32Array(0);
  private slots = new Int32Array(0);
  private mask = 0;
  /** Which first one, two or three letters (lowercased) a root prefix term starts with. */
  private readonly prefix1 = new Uint8Array(36);
  private readonly prefix2 = new Uint8Array(36 * 36);
  private readonly prefix3 = new Uint8Array(36 * 36 * 36);
  private built = true;

  /** The id of a word of some term, given a new one if it has none. */
  idOf(word: string): number {
    let id = this.ids.get(word);
    if (id === undefined) {
      id = this.words.length;
      this.ids.set(word, id);
      this.words.push(word);
      this.built = false;
    }
    return id;
  }

  /** Notes a prefix term read at a trie's root, so the words that may start with it are checked. */
  addRootPrefix(prefix: string): void {
    const c = [...prefix.slice(0, 3).toLowerCase()].map((ch) => ch.charCodeAt(0));
    // A prefix starting with other characters can only meet words that are read through wordForms.
    if (c.some((x) => x >= 128 || ASCII_WORD[x] !== 1)) return;
    const [a = 0, b = 0, d = 0] = c.map(alnum);
    if (c.length === 1) this.prefix1[a] = 1;
    else if (c.length === 2) this.prefix2[a * 36 + b] = 1;
    else this.prefix3[(a * 36 + b) * 36 + d] = 1;
  }

  private build(): void {
    let size = 16;
    while (size < this.words.length * 3) size *= 2;
    this.mask = size - 1;
    this.slots = new Int32Array(size);
    this.hashes = new Int32Array(this.words.length);
    this.words.forEach((word, id) => {
      const h = hashOf(word);
      this.hashes[id] = h;
      let i = slotOf(h, this.mask);
      while (this.slots[i] !== 0) i = (i + 1) & this.mask;
      this.slots[i] = id + 1;
    });
    this.built = true;
  }

  /**
   * Reads the words of text[from, to) into `out` from position `at`; returns the position after the last.
   * A range holds the same words as its substring would: words never run across the whitespace that
   * ends a sentence.
   */
  read(text: string, from: number, to: number, out: WordBuffer, at: number): number {
    if (!this.built) this.build();
    let n = at;
    let i = from;
    while (i < to) {
      const c = text.charCodeAt(i);
      if (c < 128 ? ASCII_WORD[c] !== 1 : wordCharWidth(text, i) === 0) {
        i++;
        continue;
      }
      const start = i;
      let ascii = true;
      while (i < to) {
        const d = text.charCodeAt(i);
        if (d < 128) {
          if (ASCII_WORD[d] !== 1) break;
          i++;
        } else {
          const width = wordCharWidth(text, i);
          if (width === 0) break;
          ascii = false;
          i += width;
        }
      }
      out.ensure(n + 1);
      if (ascii) this.readAscii(text, start, i, out, n);
      else this.readOther(text, start, i, out, n);
      n++;
    }
    return n;
  }

  private readAscii(text: string, start: number, end: number, out: WordBuffer, at: number): void {
    const n = end - start;
    // Hashes of the lowercase word, and of it without its last one and three letters; of the raw word,
    // and of it without its last letter.
    let lower = SEED;
    let lower1 = SEED;
    let lower2 = SEED;
    let lower3 = SEED;
    let raw = SEED;
    let raw1 = SEED;
    let upperAfterFirst = false;
    let lowercase = 0;
    for (let i = start; i < end; i++) {
      const c = text.charCodeAt(i);
      const l = LOWER[c] ?? c;
      if (l !== c) {
        if (i > start) upperAfterFirst = true;
      } else if (c >= 97) lowercase++;
      lower3 = lower2;
      lower2 = lower1;
      lower1 = lower;
      lower = step(lower, l);
      raw1 = raw;
      raw = step(raw, c);
    }
    const last = LOWER[text.charCodeAt(end - 1)] ?? 0;
    const before = n >= 2 ? (LOWER[text.charCodeAt(end - 2)] ?? 0) : 0;
    let fold = WHOLE;
    if (n > 3 && last === LOWER_S && before !== LOWER_S && before !== LOWER_U && before !== LOWER_I) {
      fold = n > 4 && before === LOWER_E && LOWER[text.charCodeAt(end - 3)] === LOWER_I ? IES : DROP_S;
    }
    const lowerHash = fold === WHOLE ? lower : fold === DROP_S ? lower1 : step(lower3, LOWER_Y);
    const lowerId = this.findLower(lowerHash, text, start, n, fold);
    out.lowerId[at] = lowerId;
    // The exact form: the lowercase one for a word capitalised at most in its first letter; an acronym's
    // plural ("LLMs") without its s; the word as written otherwise.
    if (!upperAfterFirst) out.exactId[at] = lowerId;
    else if (n >= 3 && text.charCodeAt(end - 1) === LOWER_S && lowercase === 1)
      out.exactId[at] = this.findRaw(raw1, text, start, n - 1);
    else out.exactId[at] = this.findRaw(raw, text, start, n);
    out.start[at] = start;
    out.end[at] = end;
    const a = alnum(LOWER[text.charCodeAt(start)] ?? 0);
    const b = n >= 2 ? alnum(LOWER[text.charCodeAt(start + 1)] ?? 0) : 0;
    const d = n >= 3 ? alnum(LOWER[text.charCodeAt(start + 2)] ?? 0) : 0;
    out.maybePrefix[at] =
      this.prefix1[a] === 1 ||
      (n >= 2 && this.prefix2[a * 36 + b] === 1) ||
      (n >= 3 && this.prefix3[(a * 36 + b) * 36 + d] === 1) ||
      // "flies" folds to "fly": its third letter changes.
      (fold === IES && n === 5 && this.prefix3[(a * 36 + b) * 36 + alnum(LOWER_Y)] === 1)
        ? 1
        : 0;
  }

  private readOther(text: string, start: number, end: number, out: WordBuffer, at: number): void {
    const [lower, exact] = wordForms(text.slice(start, end));
    out.lowerId[at] = this.ids.get(lower) ?? -1;
    out.exactId[at] = this.ids.get(exact) ?? -1;
    out.start[at] = start;
    out.end[at] = end;
    out.maybePrefix[at] = 1;
  }

  /** The id of the word whose lowercase form, folded as `fold` says, is text[start, start + n); or -1. */
  private findLower(hash: number, text: string, start: number, n: number, fold: number): number {
    const length = fold === WHOLE ? n : fold === DROP_S ? n - 1 : n - 2;
    const same = fold === IES ? n - 3 : length;
    for (let i = slotOf(hash, this.mask); ; i = (i + 1) & this.mask) {
      const id = (this.slots[i] ?? 0) - 1;
      if (id < 0) return -1;
      if (this.hashes[id] !== hash) continue;
      const word = this.words[id] ?? '';
      if (word.length !== length) continue;
      let j = 0;
      while (j < same && word.charCodeAt(j) === LOWER[text.charCodeAt(start + j)]) j++;
      if (j === same && (fold !== IES || word.charCodeAt(same) === LOWER_Y)) return id;
    }
  }

  /** The id of the word text[start, start + n) exactly as written; or -1. */
  private findRaw(hash: number, text: string, start: number, n: number): number {
    for (let i = slotOf(hash, this.mask); ; i = (i + 1) & this.mask) {
      const id = (this.slots[i] ?? 0) - 1;
      if (id < 0) return -1;
      if (this.hashes[id] !== hash) continue;
      const word = this.words[id] ?? '';
      if (word.length !== n) continue;
      let j = 0;
      while (j < n && word.charCodeAt(j) === text.charCodeAt(start + j)) j++;
      if (j === n) return id;
    }
  }
}
