/**
 * The paper's neighbourhood as a tagging signal (issue 9, an experiment for the eval scripts only): for a
 * judged paper, its k nearest neighbours in the whole corpus by TF-IDF cosine over title and abstract words
 * (title words counted twice), and for each topic the similarity-weighted share of those neighbours that
 * the shipped engine tags with it, directly or by implication. A paper that only uses a VLM as a tool sits
 * among papers of its own field; a paper about VLMs sits among VLM papers.
 *
 * The share reaches train-calibration.ts and fresh-check-curve.ts through the engine's `logits` argument
 * (the learned stage's slot, empty in the shipped engine): `z = 8 × (share − at)`, so the calibration reads
 * it as its `model-logit` feature, and with `recall` a topic the rules missed becomes a candidate when its
 * share reaches `at` (the engine's model-only path, weighed by the `model-only` features).
 * QUIRE_NEIGHBOURS=1 turns it on; QUIRE_NEIGHBOURS_K (15), QUIRE_NEIGHBOURS_AT (0.5) and
 * QUIRE_NEIGHBOURS_RECALL=1 set it. Only the judged papers' neighbours are computed, never the locked sets'.
 * They come from core's NeighbourIndex (pruned postings, what the server ships); QUIRE_NEIGHBOURS_EXACT=1
 * takes the exact scan instead (every shared word of every paper, `ExactNeighbours`) to compare the two.
 */
import {
  compileTaxonomy,
  collectionStats,
  NeighbourIndexBuilder,
  tokenise,
  withAncestors,
  type NeighbourIndex,
  type CompiledTaxonomy,
  type TaggablePaper,
  type Taxonomy,
} from '@quire/core';
import { loadJudgments } from './tagging-eval.ts';

export interface NeighbourOptions {
  k: number;
  /** The share at which z is 0: a topic the rules missed is a candidate from here (with `recall`). */
  at: number;
  recall: boolean;
  /** Words in more than this share of the corpus carry no topic (a stand-in for a stopword list). */
  maxDfShare?: number;
  /** Papers never taken as a neighbour (QUIRE_NEIGHBOURS_SKIP_FIT=1: the calibration fit's papers). */
  skip?: ReadonlySet<string>;
  /** The exact scan instead of the pruned index (QUIRE_NEIGHBOURS_EXACT=1). */
  exact?: boolean;
}

export function neighbourOptionsFromEnv(): NeighbourOptions | null {
  if (!process.env.QUIRE_NEIGHBOURS) return null;
  const k = Number(process.env.QUIRE_NEIGHBOURS_K ?? 15);
  const at = Number(process.env.QUIRE_NEIGHBOURS_AT ?? 0.5);
  if (!(k >= 1) || !(at > 0 && at <= 1))
    throw new Error(
      `QUIRE_NEIGHBOURS_K must be ≥ 1 and QUIRE_NEIGHBOURS_AT in (0, 1]; got ${String(k)} and ${String(at)}.`,
    );
  const skip = process.env.QUIRE_NEIGHBOURS_SKIP_FIT
    ? new Set(
        loadJudgments(/^(dev-set-taxonomy(-[23])?|dev-set-[a-c]|test-set|dev-recall-2)\.jsonl$/).map(
          (j) => j.paper,
        ),
      )
    : undefined;
  return {
    k,
    at,
    recall: Boolean(process.env.QUIRE_NEIGHBOURS_RECALL),
    ...(skip ? { skip } : {}),
    ...(process.env.QUIRE_NEIGHBOURS_EXACT ? { exact: true } : {}),
  };
}

const MAX_DF_SHARE = 0.08;
const TITLE_WEIGHT = 2;

/** Each paper's tags from the shipped engine (its calibration and cut-offs), direct and implied. */
export function shippedTags(taxonomy: Taxonomy, papers: readonly TaggablePaper[]): Set<string>[] {
  const shipped: CompiledTaxonomy = compileTaxonomy(taxonomy, collectionStats(taxonomy, papers));
  return papers.map((p) => new Set(withAncestors(taxonomy, shipped.tag(p)).map((t) => t.slug)));
}

/**
 * The exact k nearest papers: every paper's whole TF-IDF vector, scored against every paper sharing any
 * of its words (an inverted index, no pruning). The reference the pruned NeighbourIndex is measured by.
 */
export class ExactNeighbours {
  readonly #papers: readonly TaggablePaper[];
  readonly #index = new Map<string, number>();
  readonly #postings: { doc: Int32Array; weight: Float32Array }[] = [];
  readonly #vectors: { terms: Int32Array; weights: Float32Array }[] = [];
  readonly #position: Map<string, number>;
  readonly #scores: Float32Array;

  constructor(papers: readonly TaggablePaper[], maxDfShare = MAX_DF_SHARE) {
    this.#papers = papers;
    const counts = papers.map((p) => {
      const tf = new Map<string, number>();
      const add = (text: string, w: number) => {
        for (const word of tokenise(text).lower)
          if (word.length >= 3 && !/^\d+$/.test(word)) tf.set(word, (tf.get(word) ?? 0) + w);
      };
      add(p.title, TITLE_WEIGHT);
      add(p.abstract, 1);
      return tf;
    });
    const df = new Map<string, number>();
    for (const tf of counts) for (const word of tf.keys()) df.set(word, (df.get(word) ?? 0) + 1);
    const n = papers.length;
    const lists: { doc: number[]; weight: number[] }[] = [];
    for (const [word, d] of df) {
      if (d < 2 || d > maxDfShare * n) continue;
      this.#index.set(word, lists.length);
      lists.push({ doc: [], weight: [] });
    }
    counts.forEach((tf, doc) => {
      const terms: number[] = [];
      const weights: number[] = [];
      for (const [word, c] of tf) {
        const t = this.#index.get(word);
        if (t === undefined) continue;
        terms.push(t);
        weights.push((1 + Math.log(c)) * Math.log(n / (df.get(word) ?? 1)));
      }
      const norm = Math.sqrt(weights.reduce((s, w) => s + w * w, 0)) || 1;
      const unit = weights.map((w) => w / norm);
      this.#vectors.push({ terms: Int32Array.from(terms), weights: Float32Array.from(unit) });
      terms.forEach((t, i) => {
        lists[t]?.doc.push(doc);
        lists[t]?.weight.push(unit[i] ?? 0);
      });
    });
    for (const l of lists)
      this.#postings.push({ doc: Int32Array.from(l.doc), weight: Float32Array.from(l.weight) });
    this.#position = new Map(papers.map((p, i) => [p.id, i]));
    this.#scores = new Float32Array(n);
  }

  /** The k most similar papers to corpus paper `id` (itself and `skip` left out), most similar first. */
  nearest(id: string, k: number, skip?: ReadonlySet<string>): { id: string; sim: number }[] {
    const at = this.#position.get(id);
    if (at === undefined) return [];
    const v = this.#vectors[at];
    const scores = this.#scores;
    scores.fill(0);
    v?.terms.forEach((t, i) => {
      const p = this.#postings[t];
      const w = v.weights[i] ?? 0;
      if (p) for (let j = 0; j < p.doc.length; j++) scores[p.doc[j]!]! += w * p.weight[j]!;
    });
    scores[at] = 0;
    if (skip) for (const other of skip) scores[this.#position.get(other) ?? at] = 0;
    const top: { doc: number; sim: number }[] = [];
    for (let d = 0; d < scores.length; d++) {
      const s = scores[d]!;
      if (s <= 0 || (top.length === k && s <= top[top.length - 1]!.sim)) continue;
      top.push({ doc: d, sim: s });
      top.sort((a, b) => b.sim - a.sim);
      if (top.length > k) top.pop();
    }
    return top.map((t) => ({ id: this.#papers[t.doc]?.id ?? '', sim: t.sim }));
  }
}

export class Neighbourhood {
  readonly #byId: ReadonlyMap<string, TaggablePaper>;
  readonly #position: ReadonlyMap<string, number>;
  /** Each corpus paper's shipped tags, direct and implied. */
  readonly #tags: readonly ReadonlySet<string>[];
  readonly #taxonomy: Taxonomy;
  readonly #options: NeighbourOptions;
  readonly #cache = new Map<string, { id: string; sim: number }[]>();
  readonly #exact: ExactNeighbours | null = null;
  readonly #index: NeighbourIndex | null = null;

  /** `tags[i]`: the topics of `papers[i]` (shippedTags: the shipped engine's, with ancestors). */
  constructor(
    taxonomy: Taxonomy,
    papers: readonly TaggablePaper[],
    options: NeighbourOptions,
    tags: readonly ReadonlySet<string>[] = shippedTags(taxonomy, papers),
  ) {
    this.#taxonomy = taxonomy;
    this.#options = options;
    this.#tags = tags;
    this.#byId = new Map(papers.map((p) => [p.id, p]));
    this.#position = new Map(papers.map((p, i) => [p.id, i]));
    const maxDfShare = options.maxDfShare ?? MAX_DF_SHARE;
    if (options.exact) this.#exact = new ExactNeighbours(papers, maxDfShare);
    else {
      // A skipped paper is never a neighbour: it is left out of the index (and can still ask for its own).
      const builder = new NeighbourIndexBuilder({ maxDfShare });
      builder.add(
        papers.flatMap((p, i) => (options.skip?.has(p.id) ? [] : [{ ...p, topics: [...(tags[i] ?? [])] }])),
      );
      this.#index = builder.build();
    }
  }

  /** The k most similar corpus papers (the paper itself left out), most similar first. */
  neighbours(id: string): { id: string; sim: number }[] {
    const cached = this.#cache.get(id);
    if (cached) return cached;
    const paper = this.#byId.get(id);
    if (!paper) return [];
    const out = this.#index
      ? this.#index.nearest(paper, this.#options.k).map((n) => ({ id: n.id, sim: n.sim }))
      : (this.#exact?.nearest(id, this.#options.k, this.#options.skip) ?? []);
    this.#cache.set(id, out);
    return out;
  }

  /** Per topic, the similarity-weighted share of the neighbours the shipped engine tags with it. */
  shares(id: string): Map<string, number> {
    const near = this.neighbours(id);
    const total = near.reduce((s, n) => s + n.sim, 0);
    const out = new Map<string, number>();
    if (total <= 0) return out;
    for (const n of near)
      for (const slug of this.#tags[this.#position.get(n.id) ?? -1] ?? [])
        out.set(slug, (out.get(slug) ?? 0) + n.sim / total);
    return out;
  }

  /**
   * The engine's `logits` for a paper: every topic the rules pass (`ruled`) gets its share's z, and with
   * `recall` so does every other topic whose share reaches `at`.
   */
  logits(id: string, ruled: Iterable<string>): Map<string, number> {
    const shares = this.shares(id);
    const z = (share: number) => 8 * (share - this.#options.at);
    const out = new Map<string, number>();
    for (const slug of ruled) out.set(slug, z(shares.get(slug) ?? 0));
    if (this.#options.recall)
      for (const [slug, share] of shares)
        if (!out.has(slug) && share >= this.#options.at && this.#taxonomy.depth.has(slug))
          out.set(slug, z(share));
    return out;
  }
}
