/**
 * A paper's nearest papers by TF-IDF cosine over title and abstract words (issue 9: the neighbourhood as a
 * tagging signal), fast enough to ask for every paper of a whole-store tagging. The vectors are those of
 * tests/eval/neighbourhood.ts's exact scan (neighbour-index-terms.ts). Two stages:
 * - candidates by impact pruning: each paper is posted under its `postingTerms` heaviest terms only, so a
 *   query reads short posting lists (a common word is rarely among a paper's heaviest) and scores the papers
 *   met by the dot product over the terms both kept; the best `candidates` go on;
 * - those are re-scored with the whole cosine from each paper's stored vector (its `forwardTerms`
 *   heaviest terms, weights in a byte), so the order and the similarities are the exact scan's, up to the
 *   byte's rounding, for every paper the first stage found.
 * Postings and vectors are typed arrays (CSR), topics small numbers.
 */
import {
  BYTE,
  GrowableArray,
  TopicTable,
  TopK,
  VectorWriter,
  type Vectors,
} from './neighbour-index-arrays.ts';
import { countTerms, heaviestTerms, selectHeaviest, TermCounts, WordTable } from './neighbour-index-terms.ts';

export interface NeighbourSource {
  id: string;
  title: string;
  abstract: string;
  /** The paper's tags from the engine WITHOUT neighbours, direct and implied, as slugs. */
  topics: readonly string[];
}

export interface Neighbour {
  id: string;
  title: string;
  sim: number;
  topics: readonly string[];
}

export interface NeighbourIndexOptions {
  /** Each paper is posted under this many of its heaviest terms (impact pruning). */
  postingTerms?: number;
  /** The first stage reads this many of the query paper's heaviest terms. */
  queryTerms?: number;
  /** Papers of the first stage re-scored with the whole cosine. */
  candidates?: number;
  /**
   * The first stage reads at most this many postings of a term, its heaviest (lists are kept heaviest
   * first): a common word's list grows with the store, its tail holds papers it barely describes.
   */
  postingCap?: number;
  /** Terms of each paper's stored vector (its heaviest), for the re-scoring. */
  forwardTerms?: number;
  /** Words in more than this share of the papers carry no topic (a stand-in for a stopword list). */
  maxDfShare?: number;
  /** Words in fewer papers than this link no two papers worth linking. */
  minDf?: number;
}

const DEFAULTS: Required<NeighbourIndexOptions> = {
  postingTerms: 24,
  queryTerms: 16,
  candidates: 100,
  postingCap: 500,
  forwardTerms: 1000,
  maxDfShare: 0.08,
  minDf: 2,
};

/** The index advises a rebuild once papers added after build make it this many times its built size. */
const REBUILD_GROWTH = 1.25;
const DEFAULT_K = 15;

/** Collects the papers, then fixes the vocabulary and idf over all of them in `build`. */
export class NeighbourIndexBuilder {
  readonly #options: Required<NeighbourIndexOptions>;
  readonly #words = new WordTable();
  readonly #df = new GrowableArray((n) => new Int32Array(n));
  readonly #ids: string[] = [];
  readonly #titles: string[] = [];
  readonly #topics = new TopicTable();
  // Each paper's distinct words and counts, paper i at starts[i]..starts[i + 1].
  readonly #terms = new GrowableArray((n) => new Int32Array(n), 1 << 16);
  readonly #counts = new GrowableArray((n) => new Uint16Array(n), 1 << 16);
  readonly #starts = new GrowableArray((n) => new Uint32Array(n));
  readonly #scratch = new TermCounts(1024);

  constructor(options?: NeighbourIndexOptions) {
    this.#options = { ...DEFAULTS, ...options };
    const { postingTerms, forwardTerms } = this.#options;
    if (!(postingTerms >= 1 && postingTerms <= 255 && forwardTerms >= postingTerms))
      throw new Error(
        `postingTerms must be 1–255 and forwardTerms at least as many; got ${postingTerms} and ${forwardTerms}.`,
      );
    this.#starts.push(0);
  }

  add(papers: Iterable<NeighbourSource>): void {
    const counts = this.#scratch;
    for (const paper of papers) {
      countTerms(paper.title, paper.abstract, this.#words, counts, true);
      while (this.#df.length < this.#words.size) this.#df.push(0);
      const df = this.#df.view;
      for (let i = 0; i < counts.length; i++) {
        const t = counts.terms[i]!;
        this.#terms.push(t);
        this.#counts.push(counts.count[t]!);
        df[t]! += 1;
      }
      counts.clear();
      this.#starts.push(this.#terms.length);
      this.#ids.push(paper.id);
      this.#titles.push(paper.title);
      this.#topics.push(paper.topics);
    }
  }

  build(): NeighbourIndex {
    const n = this.#ids.length;
    const { minDf, maxDfShare, postingTerms, forwardTerms } = this.#options;
    // Renumber the kept words 0..V-1, the linking vocabulary only.
    const keptOf = new Int32Array(this.#words.size).fill(-1);
    const vocabulary: string[] = [];
    const idfs: number[] = [];
    for (let t = 0; t < this.#words.size; t++) {
      const df = this.#df.at(t);
      if (df < minDf || df > maxDfShare * n) continue;
      keptOf[t] = vocabulary.length;
      vocabulary.push(this.#words.word(t));
      idfs.push(Math.log(n / df));
    }
    const idf = Float32Array.from(idfs);
    const v = vocabulary.length;
    // Each paper's vector, heaviest terms first among the posted ones; postings counted per term.
    const fwd = new VectorWriter();
    const perTerm = new Uint32Array(v + 1);
    const counts = new TermCounts(v);
    const scratch = { terms: new Int32Array(512), weights: new Float32Array(512) };
    const out = { terms: new Int32Array(forwardTerms), weights: new Float32Array(forwardTerms) };
    const terms = this.#terms.view;
    const tfs = this.#counts.view;
    const starts = this.#starts.view;
    const posted = new Uint8Array(n);
    for (let d = 0; d < n; d++) {
      for (let j = starts[d]!, end = starts[d + 1]!; j < end; j++) {
        const kept = keptOf[terms[j]!]!;
        if (kept >= 0) counts.add(kept, tfs[j]!);
      }
      const m = heaviestTerms(counts, idf, forwardTerms, out.terms, out.weights, scratch);
      counts.clear();
      if (m > postingTerms) selectHeaviest(out.terms, out.weights, m, postingTerms);
      posted[d] = fwd.write(out.terms, out.weights, m, postingTerms);
      const at = fwd.starts.at(d);
      for (let i = 0; i < posted[d]!; i++) perTerm[fwd.terms.at(at + i) + 1]! += 1;
    }
    for (let t = 0; t < v; t++) perTerm[t + 1]! += perTerm[t]!;
    const vectors = fwd.done(v);
    const postingDocs = new Int32Array(perTerm[v]!);
    const postingWeights = new Uint8Array(perTerm[v]!);
    const fill = perTerm.slice(0, v);
    for (let d = 0; d < n; d++) {
      const at = vectors.starts[d]!;
      for (let i = 0; i < posted[d]!; i++) {
        const slot = fill[vectors.terms[at + i]!]!++;
        postingDocs[slot] = d;
        postingWeights[slot] = vectors.weights[at + i]!;
      }
    }
    heaviestFirst(perTerm, postingDocs, postingWeights, n);
    this.#topics.trim();
    return new NeighbourIndex({
      options: this.#options,
      vocabulary: new WordTable(vocabulary),
      idf,
      postingStarts: perTerm,
      postingDocs,
      postingWeights,
      vectors,
      ids: this.#ids,
      titles: this.#titles,
      topics: this.#topics,
    });
  }
}

/** Orders each term's postings by weight, heaviest first (ties: the lower paper number). */
function heaviestFirst(starts: Uint32Array, docs: Int32Array, weights: Uint8Array, n: number): void {
  let keys = new Float64Array(64);
  for (let t = 0; t + 1 < starts.length; t++) {
    const from = starts[t]!;
    const len = starts[t + 1]! - from;
    if (len < 2) continue;
    if (keys.length < len) keys = new Float64Array(len * 2);
    // One number per posting: the lighter, the larger; then the paper.
    for (let i = 0; i < len; i++) keys[i] = (BYTE - weights[from + i]!) * n + docs[from + i]!;
    const sorted = keys.subarray(0, len).sort();
    for (let i = 0; i < len; i++) {
      const key = sorted[i]!;
      const light = Math.floor(key / n);
      weights[from + i] = BYTE - light;
      docs[from + i] = key - light * n;
    }
  }
}

/** What `NeighbourIndexBuilder.build` hands the index. */
export interface NeighbourIndexParts {
  options: Required<NeighbourIndexOptions>;
  /** Term i's word; the terms numbered as `idf`. */
  vocabulary: WordTable;
  idf: Float32Array;
  postingStarts: Uint32Array;
  postingDocs: Int32Array;
  postingWeights: Uint8Array;
  vectors: Vectors;
  ids: string[];
  titles: string[];
  topics: TopicTable;
}

/** What an index holds, for the benchmark's memory figures. */
export interface NeighbourIndexFootprint {
  papers: number;
  words: number;
  postings: number;
  /** Bytes of the typed arrays (vocabulary, postings, vectors, idf, topics, the query's scratch). */
  arrayBytes: number;
  /** Characters of the ids and titles held (a byte each when Latin-1, two otherwise). */
  stringChars: number;
}

export class NeighbourIndex {
  readonly #options: Required<NeighbourIndexOptions>;
  readonly #vocabulary: WordTable;
  readonly #idf: Float32Array;
  readonly #postingStarts: Uint32Array;
  readonly #postingDocs: Int32Array;
  readonly #postingWeights: Uint8Array;
  readonly #vectors: Vectors;
  readonly #ids: string[];
  readonly #titles: string[];
  readonly #topics: TopicTable;
  readonly #builtSize: number;
  // Papers added after build: postings per term in plain arrays, vectors in growing ones (a small share
  // of the index: a rebuild is advised at a quarter).
  readonly #added = new Map<number, { docs: number[]; weights: number[] }>();
  readonly #addedVectors = new VectorWriter();
  #addedPostings = 0;
  // Per query, reused: the first stage's scores and the papers met, the query's vector spread out.
  #scores: Float32Array;
  #touched: Int32Array;
  readonly #query: Float32Array;
  readonly #counts: TermCounts;
  readonly #queryTerms: Int32Array;
  readonly #queryWeights: Float32Array;
  readonly #scratch = { terms: new Int32Array(512), weights: new Float32Array(512) };
  readonly #candidates = new TopK();
  readonly #best = new TopK();

  constructor(parts: NeighbourIndexParts) {
    this.#options = parts.options;
    this.#vocabulary = parts.vocabulary;
    this.#idf = parts.idf;
    this.#postingStarts = parts.postingStarts;
    this.#postingDocs = parts.postingDocs;
    this.#postingWeights = parts.postingWeights;
    this.#vectors = parts.vectors;
    this.#ids = parts.ids;
    this.#titles = parts.titles;
    this.#topics = parts.topics;
    this.#builtSize = parts.ids.length;
    this.#scores = new Float32Array(Math.max(1, this.#builtSize));
    this.#touched = new Int32Array(Math.max(1, this.#builtSize));
    this.#query = new Float32Array(Math.max(1, parts.idf.length));
    this.#counts = new TermCounts(parts.idf.length);
    const most = Math.max(parts.options.queryTerms, parts.options.forwardTerms);
    this.#queryTerms = new Int32Array(most);
    this.#queryWeights = new Float32Array(most);
  }

  get size(): number {
    return this.#ids.length;
  }

  /** True once papers added after build have made the index 25% larger than built: its idf has aged. */
  get rebuildAdvised(): boolean {
    return this.size > this.#builtSize && this.size >= this.#builtSize * REBUILD_GROWTH;
  }

  /** Up to k nearest papers of the index, most similar first, never the paper itself (same id). */
  nearest(paper: { id: string; title: string; abstract: string }, k = DEFAULT_K): Neighbour[] {
    if (k < 1 || this.size === 0) return [];
    const { queryTerms, forwardTerms } = this.#options;
    const m = this.#read(paper.title, paper.abstract, Math.max(queryTerms, forwardTerms));
    if (m === 0) return [];
    const query = this.#query;
    for (let i = 0; i < m; i++) query[this.#queryTerms[i]!] = this.#queryWeights[i]!;
    // Stage 1 reads the query's heaviest terms, as the papers were posted.
    const q = Math.min(m, queryTerms);
    if (q < m) selectHeaviest(this.#queryTerms, this.#queryWeights, m, q);
    const candidates = this.#candidates;
    candidates.reset(Math.max(this.#options.candidates, k + 1));
    this.#firstStage(q, candidates);
    // Stage 2: the whole cosine of each candidate (one more than asked, in case the paper itself is one).
    const best = this.#best;
    best.reset(k + 1);
    for (let i = 0; i < candidates.size; i++) {
      const doc = candidates.docAt(i);
      best.offer(doc, this.#cosine(doc));
    }
    for (let i = 0; i < m; i++) query[this.#queryTerms[i]!] = 0;
    const out: Neighbour[] = [];
    for (const { doc, sim } of best.sorted()) {
      const id = this.#ids[doc] ?? '';
      if (id === paper.id || out.length === k || !(sim > 0)) continue;
      out.push({ id, title: this.#titles[doc] ?? '', sim, topics: this.#topics.of(doc) });
    }
    return out;
  }

  /** Adds papers after build (new harvests) with the idf fixed at build. */
  add(papers: Iterable<NeighbourSource>): void {
    const { postingTerms, forwardTerms } = this.#options;
    const vectors = this.#addedVectors;
    for (const paper of papers) {
      const doc = this.#ids.length;
      const m = this.#read(paper.title, paper.abstract, forwardTerms);
      if (m > postingTerms) selectHeaviest(this.#queryTerms, this.#queryWeights, m, postingTerms);
      const posted = vectors.write(this.#queryTerms, this.#queryWeights, m, postingTerms);
      const at = vectors.starts.at(doc - this.#builtSize);
      for (let i = 0; i < posted; i++) {
        const t = vectors.terms.at(at + i);
        let list = this.#added.get(t);
        if (!list) this.#added.set(t, (list = { docs: [], weights: [] }));
        list.docs.push(doc);
        list.weights.push(vectors.weights.at(at + i));
      }
      this.#addedPostings += posted;
      this.#ids.push(paper.id);
      this.#titles.push(paper.title);
      this.#topics.push(paper.topics);
    }
    if (this.#scores.length < this.size) {
      this.#scores = new Float32Array(this.size * 2);
      this.#touched = new Int32Array(this.size * 2);
    }
  }

  footprint(): NeighbourIndexFootprint {
    let stringChars = 0;
    for (const id of this.#ids) stringChars += id.length;
    for (const title of this.#titles) stringChars += title.length;
    const v = this.#vectors;
    return {
      papers: this.size,
      words: this.#idf.length,
      postings: this.#postingDocs.length + this.#addedPostings,
      arrayBytes:
        this.#idf.byteLength +
        this.#vocabulary.bytes +
        this.#postingStarts.byteLength +
        this.#postingDocs.byteLength +
        this.#postingWeights.byteLength +
        v.starts.byteLength +
        v.terms.byteLength +
        v.weights.byteLength +
        this.#topics.bytes +
        this.#scores.byteLength +
        this.#touched.byteLength +
        this.#query.byteLength,
      stringChars,
    };
  }

  /** Scores the papers posted under the query's first `q` terms; offers each to `top`. */
  #firstStage(q: number, top: TopK): void {
    const scores = this.#scores;
    const touched = this.#touched;
    const starts = this.#postingStarts;
    const docs = this.#postingDocs;
    const weights = this.#postingWeights;
    const cap = this.#options.postingCap;
    let met = 0;
    for (let i = 0; i < q; i++) {
      const t = this.#queryTerms[i]!;
      const w = this.#queryWeights[i]!;
      for (let j = starts[t]!, end = Math.min(starts[t + 1]!, j + cap); j < end; j++) {
        const d = docs[j]!;
        if (scores[d] === 0) touched[met++] = d;
        scores[d]! += w * weights[j]!;
      }
      const added = this.#added.get(t);
      if (added)
        for (let j = 0; j < added.docs.length; j++) {
          const d = added.docs[j]!;
          if (scores[d] === 0) touched[met++] = d;
          scores[d]! += w * added.weights[j]!;
        }
    }
    for (let i = 0; i < met; i++) {
      const d = touched[i]!;
      top.offer(d, scores[d]!);
      scores[d] = 0;
    }
  }

  /** Paper `doc`'s cosine with the query spread out in #query. */
  #cosine(doc: number): number {
    const query = this.#query;
    let dot = 0;
    if (doc < this.#builtSize) {
      const { starts, terms, weights } = this.#vectors;
      for (let j = starts[doc]!, end = starts[doc + 1]!; j < end; j++) dot += query[terms[j]!]! * weights[j]!;
    } else {
      const { starts, terms, weights } = this.#addedVectors;
      const local = doc - this.#builtSize;
      for (let j = starts.at(local), end = starts.at(local + 1); j < end; j++)
        dot += query[terms.at(j)]! * weights.at(j);
    }
    return dot / BYTE;
  }

  /** The paper's `limit` heaviest terms into #queryTerms/#queryWeights; returns how many. */
  #read(title: string, abstract: string, limit: number): number {
    const counts = this.#counts;
    countTerms(title, abstract, this.#vocabulary, counts);
    const m = heaviestTerms(counts, this.#idf, limit, this.#queryTerms, this.#queryWeights, this.#scratch);
    counts.clear();
    return m;
  }
}
