/**
 * The neighbour index's storage: typed arrays that grow by doubling while papers are added, the table of
 * topics interned to small numbers (a paper's topics are a run of Uint16 codes), papers' vectors in byte
 * weights, and the top-k heap of a query.
 */
/** Unit weights are stored in a byte: round(w × 255); a weight under 1/510 is left out. */
export const BYTE = 255;

type NumberArray = Int32Array | Uint32Array | Uint16Array | Uint8Array | Float32Array;

export class GrowableArray<T extends NumberArray> {
  #data: T;
  length = 0;
  readonly #make: (size: number) => T;

  constructor(make: (size: number) => T, capacity = 1024) {
    this.#make = make;
    this.#data = make(capacity);
  }

  push(value: number): void {
    if (this.length === this.#data.length) {
      const grown = this.#make(this.#data.length * 2);
      grown.set(this.#data);
      this.#data = grown;
    }
    this.#data[this.length++] = value;
  }

  at(i: number): number {
    return this.#data[i] ?? 0;
  }

  /** The values so far, in an array of their exact length (the buffer's spare room given back). */
  trimmed(): T {
    return this.#data.slice(0, this.length) as T;
  }

  get view(): T {
    return this.#data;
  }
}

/** Topic slugs interned to codes; each paper's topics a run of codes (paper i: `start[i]`..`start[i+1]`). */
export class TopicTable {
  readonly #code = new Map<string, number>();
  readonly names: string[] = [];
  codes = new GrowableArray((n) => new Uint16Array(n));
  starts = new GrowableArray((n) => new Uint32Array(n));

  constructor() {
    this.starts.push(0);
  }

  push(topics: readonly string[]): void {
    for (const slug of topics) {
      let code = this.#code.get(slug);
      if (code === undefined) {
        if (this.names.length > 0xffff) throw new Error('The neighbour index holds at most 65,536 topics.');
        code = this.names.length;
        this.#code.set(slug, code);
        this.names.push(slug);
      }
      this.codes.push(code);
    }
    this.starts.push(this.codes.length);
  }

  /** Paper `i`'s topics as slugs. */
  of(i: number): string[] {
    const codes = this.codes.view;
    const starts = this.starts.view;
    const out: string[] = [];
    for (let j = starts[i] ?? 0, end = starts[i + 1] ?? 0; j < end; j++)
      out.push(this.names[codes[j]!] ?? '');
    return out;
  }

  /** Gives back the spare room of the growing arrays (after build; later additions grow them again). */
  trim(): void {
    const codes = this.codes.trimmed();
    const starts = this.starts.trimmed();
    this.codes = new GrowableArray((n) => new Uint16Array(n), Math.max(1, codes.length));
    for (const c of codes) this.codes.push(c);
    this.starts = new GrowableArray((n) => new Uint32Array(n), Math.max(1, starts.length));
    for (const s of starts) this.starts.push(s);
  }

  get bytes(): number {
    return this.codes.view.byteLength + this.starts.view.byteLength;
  }
}

/** The `k` best (most similar; ties to the lower paper number) of the papers offered: a min-heap. */
export class TopK {
  #docs = new Int32Array(16);
  #sims = new Float64Array(16);
  #size = 0;
  #cap = 0;

  reset(cap: number): void {
    if (this.#docs.length < cap) {
      this.#docs = new Int32Array(cap);
      this.#sims = new Float64Array(cap);
    }
    this.#size = 0;
    this.#cap = cap;
  }

  offer(doc: number, sim: number): void {
    if (this.#size < this.#cap) {
      let i = this.#size++;
      this.#docs[i] = doc;
      this.#sims[i] = sim;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!this.#worse(i, parent)) break;
        this.#swap(i, parent);
        i = parent;
      }
      return;
    }
    const rootSim = this.#sims[0]!;
    if (sim < rootSim || (sim === rootSim && doc > this.#docs[0]!)) return;
    this.#docs[0] = doc;
    this.#sims[0] = sim;
    for (let i = 0; ;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let worst = i;
      if (l < this.#size && this.#worse(l, worst)) worst = l;
      if (r < this.#size && this.#worse(r, worst)) worst = r;
      if (worst === i) break;
      this.#swap(i, worst);
      i = worst;
    }
  }

  /** How many papers are kept; `docAt(i)` reads them in no particular order. */
  get size(): number {
    return this.#size;
  }

  docAt(i: number): number {
    return this.#docs[i] ?? -1;
  }

  /** The papers kept, most similar first. */
  sorted(): { doc: number; sim: number }[] {
    const out: { doc: number; sim: number }[] = [];
    for (let i = 0; i < this.#size; i++) out.push({ doc: this.#docs[i]!, sim: this.#sims[i]! });
    return out.sort((a, b) => b.sim - a.sim || a.doc - b.doc);
  }

  #worse(a: number, b: number): boolean {
    const sa = this.#sims[a]!;
    const sb = this.#sims[b]!;
    return sa < sb || (sa === sb && this.#docs[a]! > this.#docs[b]!);
  }

  #swap(a: number, b: number): void {
    const d = this.#docs[a]!;
    this.#docs[a] = this.#docs[b]!;
    this.#docs[b] = d;
    const s = this.#sims[a]!;
    this.#sims[a] = this.#sims[b]!;
    this.#sims[b] = s;
  }
}

/** A paper's vector: term numbers and byte weights, paper i at starts[i]..starts[i + 1]. */
export interface Vectors {
  starts: Uint32Array;
  terms: Uint16Array | Uint32Array;
  weights: Uint8Array;
}

/** Papers' vectors as they are read, in byte weights; the `first` terms of each (those posted) lead. */
export class VectorWriter {
  readonly starts = new GrowableArray((n) => new Uint32Array(n));
  readonly terms = new GrowableArray((n) => new Uint32Array(n), 1 << 16);
  readonly weights = new GrowableArray((n) => new Uint8Array(n), 1 << 16);

  constructor() {
    this.starts.push(0);
  }

  /** Writes one paper; returns how many of its `first` terms were kept (a weight rounding to 0 is not). */
  write(terms: Int32Array, weights: Float32Array, m: number, first: number): number {
    let lead = 0;
    for (let i = 0; i < m; i++) {
      const byte = Math.round(weights[i]! * BYTE);
      if (byte === 0) continue;
      this.terms.push(terms[i]!);
      this.weights.push(byte);
      if (i < first) lead++;
    }
    this.starts.push(this.terms.length);
    return lead;
  }

  /** The vectors in arrays of their exact length; term numbers in 16 bits when the vocabulary allows. */
  done(vocabulary: number): Vectors {
    const terms = this.terms.trimmed();
    return {
      starts: this.starts.trimmed(),
      terms: vocabulary <= 0x10000 ? Uint16Array.from(terms) : terms,
      weights: this.weights.trimmed(),
    };
  }
}
