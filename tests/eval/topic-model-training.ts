/**
 * Fitting the learned per-topic models (packages/core/src/tagging/topic-model.ts) on development data only:
 * the locked sets are never opened (the file patterns below cannot name them).
 *
 * Per topic, a logistic regression with L2 over the paper's features, trained on
 * - every development judgment of the topic (weight HUMAN_WEIGHT): the taxonomy-wide samples label every
 *   topic (one a judge did not add does not apply), the per-topic files only the pairs they judged;
 * - weak positives: papers the rules tag with strong support (score ≥ WEAK_RATIO × the threshold, and
 *   either a title match or two phrase groups), among the tags the rules alone would keep;
 * - hard negatives: papers the rules tag with a parent, child or sibling of the topic but that have no
 *   passing evidence for it; and random papers with none.
 * Then only the topic's TOP_FEATURES strongest features are kept and refitted alone, and the weights are
 * rounded: that compact model is what ships and what every figure is computed with.
 *
 * Out of fold: every judged paper belongs to one of FOLDS folds (the taxonomy-wide papers as
 * train-calibration.ts splits them, the rest by a hash of the id); a fold's papers are scored only by
 * models fitted without any of them — neither their judgments nor their weak labels.
 */
import {
  compileTaxonomy,
  collectionStats,
  defaultTaxonomy,
  modelFeatures,
  type PaperTag,
  type TaggablePaper,
  type TopicModelFile,
} from '@quire/core';
import { seededRandom } from '@quire/server/search/search-timing';
import { loadJudgments, type Judgment } from './tagging-eval.ts';

export const FOLDS = 5;
const HUMAN_WEIGHT = 3;
const WEAK_RATIO = 1.5;
const MIN_DF = 3;
const TOP_FEATURES = 40;
const MAX_WEAK_POSITIVES = 1200;
const MAX_HARD_NEGATIVES = 1200;
const RANDOM_NEGATIVES = 1500;
/** A topic with fewer positives than this gets no model: a handful of papers teaches only their words. */
const MIN_POSITIVES = 8;
const L2 = 3e-4;
const EPOCHS = 8;
const REFIT_EPOCHS = 20;

/** Majority label per (paper, topic); ties count as "does not apply". */
export function majority(judgments: readonly Judgment[]): Map<string, Map<string, boolean>> {
  const votes = new Map<string, Map<string, number[]>>();
  for (const j of judgments) {
    const m = votes.get(j.paper) ?? new Map<string, number[]>();
    m.set(j.topic, [...(m.get(j.topic) ?? []), j.label ? 1 : 0]);
    votes.set(j.paper, m);
  }
  const out = new Map<string, Map<string, boolean>>();
  for (const [id, m] of votes)
    out.set(id, new Map([...m].map(([slug, v]) => [slug, v.reduce((s, x) => s + x, 0) * 2 > v.length])));
  return out;
}

function hashId(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

export interface TrainingSet {
  taxonomy: ReturnType<typeof defaultTaxonomy>;
  papers: TaggablePaper[];
  byId: Map<string, TaggablePaper>;
  /** Taxonomy-wide judged papers (every topic labelled), sorted; per-topic judged pairs. */
  wide: Map<string, Map<string, boolean>>;
  wideIds: string[];
  narrow: Map<string, Map<string, boolean>>;
  /** Fold of every judged paper. */
  fold: Map<string, number>;
}

export function loadTrainingSet(papers: TaggablePaper[], byId: Map<string, TaggablePaper>): TrainingSet {
  const wide = majority(loadJudgments(/^dev-set-taxonomy(-[23])?\.jsonl$/));
  const narrow = majority(loadJudgments(/^(dev-set-[a-c]|test-set|dev-recall-[23])\.jsonl$/));
  const wideIds = [...wide.keys()].filter((id) => byId.has(id)).sort();
  const fold = new Map<string, number>();
  wideIds.forEach((id, i) => fold.set(id, i % FOLDS));
  for (const id of narrow.keys()) if (!fold.has(id)) fold.set(id, hashId(id) % FOLDS);
  return { taxonomy: defaultTaxonomy(), papers, byId, wide, wideIds, narrow, fold };
}

interface Example {
  paper: number;
  y: number;
  weight: number;
}

/** What the fits read: each paper's feature ids, the rules' passing and strong tags, the labels. */
class Prepared {
  readonly vocab: string[] = [];
  readonly rows: Int32Array[] = [];
  /** Per paper: slugs the rules pass, and those they tag with strong support. */
  readonly passing: Set<string>[] = [];
  readonly strong: Set<string>[] = [];
  readonly index = new Map<string, number>();
  readonly related = new Map<string, Set<string>>();
  /** Per topic: the papers the rules pass it for, and those they tag with strong support. */
  readonly passingPapers = new Map<string, number[]>();
  readonly strongPapers = new Map<string, number[]>();

  constructor(readonly set: TrainingSet) {
    const { papers, taxonomy } = set;
    papers.forEach((p, i) => this.index.set(p.id, i));
    const feats = papers.map((p) => modelFeatures(p.title, p.abstract));
    const df = new Map<string, number>();
    for (const f of feats) for (const x of f) df.set(x, (df.get(x) ?? 0) + 1);
    const ids = new Map<string, number>();
    for (const [x, n] of [...df].sort((a, b) => (a[0] < b[0] ? -1 : 1)))
      if (n >= MIN_DF) {
        ids.set(x, this.vocab.length);
        this.vocab.push(x);
      }
    for (const f of feats) {
      const row = [...f].map((x) => ids.get(x) ?? -1).filter((x) => x >= 0);
      this.rows.push(Int32Array.from(row.sort((a, b) => a - b)));
    }
    // The rules alone: no calibration, no model, so the weak labels depend on no learned file.
    const rules = compileTaxonomy(taxonomy, {
      ...collectionStats(taxonomy, papers),
      calibration: null,
      topicModels: null,
    });
    const threshold = new Map(taxonomy.topics.map((t) => [t.slug, t.definition.threshold ?? 3]));
    for (const p of papers) {
      const passing = rules.passing(p);
      this.passing.push(new Set(passing.map((t) => t.slug)));
      const kept = new Set(rules.tag(p).map((t) => t.slug));
      this.strong.push(
        new Set(
          passing
            .filter((t) => kept.has(t.slug) && isStrong(t, threshold.get(t.slug) ?? 3))
            .map((t) => t.slug),
        ),
      );
    }
    const post = (map: Map<string, number[]>, slug: string, i: number) =>
      map.set(slug, [...(map.get(slug) ?? []), i]);
    this.passing.forEach((slugs, i) => slugs.forEach((slug) => post(this.passingPapers, slug, i)));
    this.strong.forEach((slugs, i) => slugs.forEach((slug) => post(this.strongPapers, slug, i)));
    for (const t of taxonomy.topics) {
      const near = new Set<string>([...t.parents, ...(taxonomy.children.get(t.slug) ?? [])]);
      for (const parent of t.parents) for (const c of taxonomy.children.get(parent) ?? []) near.add(c);
      near.delete(t.slug);
      this.related.set(t.slug, near);
    }
  }

  /** The judged label of (paper, topic), if any. */
  label(id: string, slug: string): boolean | undefined {
    const wide = this.set.wide.get(id);
    if (wide) return wide.get(slug) === true;
    return this.set.narrow.get(id)?.get(slug);
  }

  /** The examples of one topic, leaving out every judged paper of fold `heldOut` (-1: none). */
  examples(slug: string, heldOut: number, seed: number): Example[] {
    const { papers, fold } = this.set;
    const out: Example[] = [];
    const humanPapers = new Set<number>();
    const skip = (id: string) => heldOut >= 0 && fold.get(id) === heldOut;
    for (const source of [this.set.wide, this.set.narrow])
      for (const id of source.keys()) {
        const i = this.index.get(id);
        if (i === undefined || skip(id) || humanPapers.has(i)) continue;
        const y = this.label(id, slug);
        if (y === undefined) continue;
        humanPapers.add(i);
        out.push({ paper: i, y: y ? 1 : 0, weight: HUMAN_WEIGHT });
      }
    const random = seededRandom(seed);
    const draw = (pool: number[], n: number): number[] => {
      const a = [...pool];
      for (let k = a.length - 1; k > 0; k--) {
        const j = Math.floor(random() * (k + 1));
        [a[k], a[j]] = [a[j] as number, a[k] as number];
      }
      return a.slice(0, n);
    };
    const usable = (i: number) => !humanPapers.has(i) && !skip(papers[i]?.id ?? '');
    const weak = (this.strongPapers.get(slug) ?? []).filter(usable);
    const near = new Set<number>();
    for (const s of this.related.get(slug) ?? [])
      for (const i of this.passingPapers.get(s) ?? []) near.add(i);
    const hard = [...near].sort((a, b) => a - b).filter((i) => usable(i) && !this.passing[i]?.has(slug));
    for (const i of draw(weak, MAX_WEAK_POSITIVES)) out.push({ paper: i, y: 1, weight: 1 });
    for (const i of draw(hard, MAX_HARD_NEGATIVES)) out.push({ paper: i, y: 0, weight: 1 });
    // Papers with no evidence for the topic, drawn at random (rejecting the others).
    const taken = new Set(out.map((e) => e.paper));
    for (let tries = 0, n = 0; n < RANDOM_NEGATIVES && tries < RANDOM_NEGATIVES * 20; tries++) {
      const i = Math.floor(random() * papers.length);
      if (taken.has(i) || !usable(i) || this.passing[i]?.has(slug) || near.has(i)) continue;
      taken.add(i);
      out.push({ paper: i, y: 0, weight: 1 });
      n++;
    }
    return out;
  }
}

function isStrong(tag: PaperTag, threshold: number): boolean {
  const phrases = tag.evidence.filter((e) => e.rule === 'phrase');
  return (
    tag.score >= WEAK_RATIO * threshold && (phrases.some((e) => e.field === 'title') || phrases.length >= 2)
  );
}

/**
 * Logistic regression by AdaGrad SGD over binary features (L2 applied to each weight as it is touched),
 * examples in a seeded order: deterministic.
 */
function fitSparse(
  rowOf: (paper: number) => Int32Array,
  examples: readonly Example[],
  dims: number,
  epochs: number,
  seed: number,
): { w: Float64Array; bias: number } {
  const w = new Float64Array(dims);
  const g2 = new Float64Array(dims).fill(1e-8);
  let bias = 0;
  let b2 = 1e-8;
  const order = examples.map((_, i) => i);
  const random = seededRandom(seed);
  const rate = 0.5;
  for (let epoch = 0; epoch < epochs; epoch++) {
    for (let k = order.length - 1; k > 0; k--) {
      const j = Math.floor(random() * (k + 1));
      [order[k], order[j]] = [order[j] as number, order[k] as number];
    }
    for (const e of order) {
      const ex = examples[e] as Example;
      const row = rowOf(ex.paper);
      let z = bias;
      for (let i = 0; i < row.length; i++) z += w[row[i] as number] as number;
      const d = ex.weight * (1 / (1 + Math.exp(-z)) - ex.y);
      for (let i = 0; i < row.length; i++) {
        const f = row[i] as number;
        const g = d + L2 * (w[f] as number);
        g2[f] = (g2[f] as number) + g * g;
        w[f] = (w[f] as number) - (rate * g) / Math.sqrt(g2[f] ?? 1);
      }
      b2 += d * d;
      bias -= (rate * d) / Math.sqrt(b2);
    }
  }
  return { w, bias };
}

const round2 = (x: number) => Math.round(x * 100) / 100;

export interface TopicModels {
  file: TopicModelFile;
  /** The log-odds of each topic for a paper, as the shipped (compact, rounded) models give it. */
  score(paper: TaggablePaper): Map<string, number>;
}

export class TopicModelTrainer {
  readonly prepared: Prepared;

  constructor(set: TrainingSet) {
    this.prepared = new Prepared(set);
  }

  /** Every topic's compact model, fitted without the judged papers of fold `heldOut` (-1: all data). */
  fit(heldOut: number): TopicModels {
    const { taxonomy } = this.prepared.set;
    const rows = this.prepared.rows;
    const vocab = this.prepared.vocab;
    const topics: Record<string, { bias: number; features: [string, number][] }> = {};
    taxonomy.topics.forEach((topic, t) => {
      const seed = 20261218 + t * 7919 + (heldOut + 1) * 104729;
      const examples = this.prepared.examples(topic.slug, heldOut, seed);
      if (examples.filter((e) => e.y === 1).length < MIN_POSITIVES) return;
      const full = fitSparse((i) => rows[i] as Int32Array, examples, vocab.length, EPOCHS, seed);
      const touched: number[] = [];
      for (let f = 0; f < full.w.length; f++) if (full.w[f] !== 0) touched.push(f);
      const top = touched
        .sort((a, b) => Math.abs(full.w[b] as number) - Math.abs(full.w[a] as number) || a - b)
        .slice(0, TOP_FEATURES);
      const local = new Map(top.map((f, i) => [f, i]));
      const small = new Map<number, Int32Array>();
      for (const e of examples)
        if (!small.has(e.paper)) {
          const row = [...(rows[e.paper] ?? [])].map((f) => local.get(f) ?? -1).filter((i) => i >= 0);
          small.set(e.paper, Int32Array.from(row));
        }
      const refit = fitSparse(
        (i) => small.get(i) as Int32Array,
        examples,
        top.length,
        REFIT_EPOCHS,
        seed + 1,
      );
      const features = top
        .map((f, i): [string, number] => [vocab[f] ?? '', round2(refit.w[i] ?? 0)])
        .filter(([, w]) => w !== 0)
        .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
      topics[topic.slug] = { bias: round2(refit.bias), features };
    });
    const file: TopicModelFile = {
      version: `${taxonomy.version}+${fingerprint(JSON.stringify(topics))}`,
      topics,
    };
    const weights = new Map<string, [string, number][]>();
    for (const [slug, m] of Object.entries(topics))
      for (const [f, w] of m.features) weights.set(f, [...(weights.get(f) ?? []), [slug, w]]);
    return {
      file,
      score(paper) {
        const z = new Map(Object.entries(topics).map(([slug, m]) => [slug, m.bias]));
        for (const f of modelFeatures(paper.title, paper.abstract))
          for (const [slug, w] of weights.get(f) ?? []) z.set(slug, (z.get(slug) ?? 0) + w);
        return z;
      },
    };
  }

  /**
   * Each judged paper's log-odds for every topic from the models of the fold that left it out — what
   * the calibration is fitted on and what every out-of-fold figure is computed with.
   */
  outOfFold(): Map<string, Map<string, number>> {
    const out = new Map<string, Map<string, number>>();
    const { fold, byId } = this.prepared.set;
    for (let f = 0; f < FOLDS; f++) {
      const models = this.fit(f);
      for (const [id, k] of fold) {
        const paper = byId.get(id);
        if (k === f && paper) out.set(id, models.score(paper));
      }
    }
    return out;
  }
}

function fingerprint(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(16).padStart(8, '0');
}
