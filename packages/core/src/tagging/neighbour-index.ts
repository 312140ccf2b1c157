/**
 * A paper's nearest papers by TF-IDF cosine over title and abstract words (issue 9: the neighbourhood as a
 * tagging signal), fast enough to ask for every paper of a whole-store tagging. The vectors are those of
 * tests/eval/neighbourhood.ts's exact scan (neighbour-index-terms.ts); speed comes from impact pruning:
 * each paper is posted under its `postingTerms` heaviest terms only and a query reads its `queryTerms`
 * heaviest, so a query touches a few hundred postings instead of every paper sharing any word. Scores are
 * the dot product over the terms both kept: never above the exact cosine, and equal to it for papers whose
 * weight sits in few terms. Postings are typed arrays (CSR), topics small numbers.
 */
import { GrowableArray, TopicTable, TopK } from './neighbour-index-arrays.ts';
import { forEachWord, heaviestTerms, TermCounts } from './neighbour-index-terms.ts';

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
  /** A query reads this many of its paper's heaviest terms. */
  queryTerms?: number;
  /** Words in more than this share of the papers carry no topic (a stand-in for a stopword list). */
  maxDfShare?: number;
  /** Words in fewer papers than this link no two papers worth linking. */
  minDf?: number;
}

const DEFAULTS: Required<NeighbourIndexOptions> = {
  postingTerms: 24,
  queryTerms: 12,
  maxDfShare: 0.08,
  minDf: 2,
};

/** The index advises a rebuild once papers added after build make it this many times its built size. */
const REBUILD_GROWTH = 1.25;
const DEFAULT_K = 15;

/** Collects the papers, then fixes the vocabulary and idf over all of them in `build`. */
export class NeighbourIndexBuilder {
  readonly #options: Required<NeighbourIndexOptions>;
  readonly #words = new Map<string, number>();
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
    this.#starts.push(0);
  }

  add(papers: Iterable<NeighbourSource>): void {
    const counts = this.#scratch;
    const words = this.#words;
    const intern = (word: string, weight: number) => {
      let t = words.get(word);
      if (t === undefined) {
        t = words.size;
        words.set(word, t);
        this.#df.push(0);
      }
      counts.add(t, weight);
    };
    for (const paper of papers) {
      forEachWord(paper.title, paper.abstract, intern);
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
    const { minDf, maxDfShare, postingTerms } = this.#options;
    // Renumber the kept words 0..V-1, the most linking vocabulary only.
    const keptOf = new Int32Array(this.#words.size).fill(-1);
    const vocabulary = new Map<string, number>();
    const idfs: number[] = [];
    for (const [word, t] of this.#words) {
      const df = this.#df.at(t);
      if (df < minDf || df > maxDfShare * n) continue;
      keptOf[t] = vocabulary.size;
      vocabulary.set(word, vocabulary.size);
      idfs.push(Math.log(n / df));
    }
    const idf = Float32Array.from(idfs);
    // Each paper's heaviest terms, then posted by term (two passes: count, then fill).
    const chosenTerms = new Int32Array(n * postingTerms);
    const chosenWeights = new Float32Array(n * postingTerms);
    const chosen = new Uint8Array(n);
    const perTerm = new Uint32Array(vocabulary.size + 1);
    const counts = new TermCounts(vocabulary.size);
    const scratch = { terms: new Int32Array(512), weights: new Float32Array(512) };
    const terms = this.#terms.view;
    const tfs = this.#counts.view;
    const starts = this.#starts.view;
    for (let d = 0; d < n; d++) {
      for (let j = starts[d]!, end = starts[d + 1]!; j < end; j++) {
        const kept = keptOf[terms[j]!]!;
        if (kept >= 0) counts.add(kept, tfs[j]!);
      }
      const at = d * postingTerms;
      const m = heaviestTerms(
        counts,
        idf,
        postingTerms,
        chosenTerms.subarray(at, at + postingTerms),
        chosenWeights.subarray(at, at + postingTerms),
        scratch,
      );
      counts.clear();
      chosen[d] = m;
      for (let i = 0; i < m; i++) perTerm[chosenTerms[at + i]! + 1]! += 1;
    }
    for (let t = 0; t < vocabulary.size; t++) perTerm[t + 1]! += perTerm[t]!;
    const total = perTerm[vocabulary.size]!;
    const postingDocs = new Int32Array(total);
    const postingWeights = new Float32Array(total);
    const fill = perTerm.slice(0, vocabulary.size);
    for (let d = 0; d < n; d++) {
      const at = d * postingTerms;
      for (let i = 0; i < chosen[d]!; i++) {
        const t = chosenTerms[at + i]!;
        const slot = fill[t]!++;
        postingDocs[slot] = d;
        postingWeights[slot] = chosenWeights[at + i]!;
      }
    }
    this.#topics.trim();
    return new NeighbourIndex({
      options: this.#options,
      vocabulary,
      idf,
      postingStarts: perTerm,
      postingDocs,
      postingWeights,
      ids: this.#ids,
      titles: this.#titles,
      topics: this.#topics,
    });
  }
}

/** What `NeighbourIndexBuilder.build` hands the index. */
export interface NeighbourIndexParts {
  options: Required<NeighbourIndexOptions>;
  vocabulary: Map<string, number>;
  idf: Float32Array;
  postingStarts: Uint32Array;
  postingDocs: Int32Array;
  postingWeights: Float32Array;
  ids: string[];
  titles: string[];
  topics: TopicTable;
}

/** What an index holds, for the benchmark's memory figures. */
export interface NeighbourIndexFootprint {
  papers: number;
  words: number;
  postings: number;
  /** Bytes of the typed arrays (postings, idf, topics). */
  arrayBytes: number;
  /** Characters of the ids, titles and vocabulary words held (a byte each when Latin-1, two otherwise). */
  stringChars: number;
}

export class NeighbourIndex {
  readonly #options: Required<NeighbourIndexOptions>;
  readonly #vocabulary: Map<string, number>;
  readonly #idf: Float32Array;
  readonly #postingStarts: Uint32Array;
  readonly #postingDocs: Int32Array;
  readonly #postingWeights: Float32Array;
  readonly #ids: string[];
  readonly #titles: string[];
  readonly #topics: TopicTable;
  readonly #builtSize: number;
  // Papers added after build, posted per term in plain arrays (a small share of the index by design).
  readonly #added = new Map<number, { docs: number[]; weights: number[] }>();
  #addedPostings = 0;
  // Per query: the scores, the papers scored, the query's terms; reused from query to query.
  #scores: Float32Array;
  #touched: Int32Array;
  readonly #counts: TermCounts;
  readonly #queryTerms: Int32Array;
  readonly #queryWeights: Float32Array;
  readonly #scratch = { terms: new Int32Array(512), weights: new Float32Array(512) };
  readonly #top = new TopK();

  constructor(parts: NeighbourIndexParts) {
    this.#options = parts.options;
    this.#vocabulary = parts.vocabulary;
    this.#idf = parts.idf;
    this.#postingStarts = parts.postingStarts;
    this.#postingDocs = parts.postingDocs;
    this.#postingWeights = parts.postingWeights;
    this.#ids = parts.ids;
    this.#titles = parts.titles;
    this.#topics = parts.topics;
    this.#builtSize = parts.ids.length;
    this.#scores = new Float32Array(Math.max(1, this.#builtSize));
    this.#touched = new Int32Array(Math.max(1, this.#builtSize));
    this.#counts = new TermCounts(parts.vocabulary.size);
    const q = Math.max(parts.options.queryTerms, parts.options.postingTerms);
    this.#queryTerms = new Int32Array(q);
    this.#queryWeights = new Float32Array(q);
  }

  get size(): number {
    return this.#ids.length;
  }

  /** True once papers added after build have made the index 25% larger than built: its idf has aged. */
  get rebuildAdvised(): boolean {
    return this.size >= this.#builtSize * REBUILD_GROWTH && this.size > this.#builtSize;
  }

  /** Up to k nearest papers of the index, most similar first, never the paper itself (same id). */
  nearest(paper: { id: string; title: string; abstract: string }, k = DEFAULT_K): Neighbour[] {
    if (k < 1 || this.size === 0) return [];
    const q = this.#read(paper.title, paper.abstract, this.#options.queryTerms);
    const scores = this.#scores;
    const touched = this.#touched;
    let nTouched = 0;
    const docs = this.#postingDocs;
    const weights = this.#postingWeights;
    for (let i = 0; i < q; i++) {
      const t = this.#queryTerms[i]!;
      const w = this.#queryWeights[i]!;
      for (let j = this.#postingStarts[t]!, end = this.#postingStarts[t + 1]!; j < end; j++) {
        const d = docs[j]!;
        if (scores[d] === 0) touched[nTouched++] = d;
        scores[d]! += w * weights[j]!;
      }
      const added = this.#added.get(t);
      if (added)
        for (let j = 0; j < added.docs.length; j++) {
          const d = added.docs[j]!;
          if (scores[d] === 0) touched[nTouched++] = d;
          scores[d]! += w * added.weights[j]!;
        }
    }
    // One more than asked, in case the paper itself is among them.
    const top = this.#top;
    top.reset(k + 1);
    for (let i = 0; i < nTouched; i++) {
      const d = touched[i]!;
      top.offer(d, scores[d]!);
      scores[d] = 0;
    }
    const out: Neighbour[] = [];
    for (const { doc, sim } of top.sorted()) {
      const id = this.#ids[doc] ?? '';
      if (id === paper.id || out.length === k) continue;
      out.push({ id, title: this.#titles[doc] ?? '', sim, topics: this.#topics.of(doc) });
    }
    return out;
  }

  /** Adds papers after build (new harvests) with the idf fixed at build. */
  add(papers: Iterable<NeighbourSource>): void {
    const limit = this.#options.postingTerms;
    for (const paper of papers) {
      const doc = this.#ids.length;
      const m = this.#read(paper.title, paper.abstract, limit);
      for (let i = 0; i < m; i++) {
        const t = this.#queryTerms[i]!;
        let list = this.#added.get(t);
        if (!list) this.#added.set(t, (list = { docs: [], weights: [] }));
        list.docs.push(doc);
        list.weights.push(this.#queryWeights[i]!);
      }
      this.#addedPostings += m;
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
    for (const word of this.#vocabulary.keys()) stringChars += word.length;
    return {
      papers: this.size,
      words: this.#vocabulary.size,
      postings: this.#postingDocs.length + this.#addedPostings,
      arrayBytes:
        this.#idf.byteLength +
        this.#postingStarts.byteLength +
        this.#postingDocs.byteLength +
        this.#postingWeights.byteLength +
        this.#topics.bytes +
        this.#scores.byteLength +
        this.#touched.byteLength,
      stringChars,
    };
  }

  /** The paper's `limit` heaviest terms into #queryTerms/#queryWeights; returns how many. */
  #read(title: string, abstract: string, limit: number): number {
    const counts = this.#counts;
    const vocabulary = this.#vocabulary;
    forEachWord(title, abstract, (word, weight) => {
      const t = vocabulary.get(word);
      if (t !== undefined) counts.add(t, weight);
    });
    const m = heaviestTerms(counts, this.#idf, limit, this.#queryTerms, this.#queryWeights, this.#scratch);
    counts.clear();
    return m;
  }
}
