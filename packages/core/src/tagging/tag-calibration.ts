import type { PaperTag } from './tagging-engine.ts';

/**
 * A calibrated confidence for each tag a paper passes: the chance a careful reader agrees with it,
 * from a logistic model over the tag's own evidence and its place among the paper's tags. The weights are
 * data (taxonomy/calibration.json), fitted by `tests/eval/train-calibration.ts` on the development
 * judgments only, so the engine stays deterministic, explainable and the same in Node and the browser.
 */
export interface CalibrationFile {
  version: string;
  features: readonly string[];
  weights: readonly number[];
  bias: number;
  /**
   * Per topic, a shift of the log-odds learnt from how often readers agreed with that topic's tags
   * (shrunk towards 0, so a topic judged a few times moves little): broad topics whose words are
   * everywhere ("efficient", "vision") earn less trust than a narrow one whose phrases are its own.
   */
  topicBias?: Readonly<Record<string, number>>;
  /**
   * The cut-offs chosen with this fit (tag-selection.ts's KEEP_CONFIDENCE and FLOOR_CONFIDENCE when left
   * out): a fit that reads other features places its probabilities elsewhere.
   */
  keep?: number;
  floor?: number;
}

/** What a tag's confidence is read from, besides its evidence. */
export interface TagContext {
  /** score ÷ the topic's threshold. */
  ratio: number;
  /** This tag's ratio over the best ratio among the paper's passing tags. */
  relative: number;
  /** 0 for the paper's best-supported tag, 1 for the next, … */
  rank: number;
  passing: number;
  depth: number;
  /** The topic has required concepts (a co-occurrence gate). */
  gated: boolean;
}

export const CALIBRATION_FEATURES = [
  'log-ratio',
  'relative',
  'rank',
  'log-passing',
  'depth',
  'root',
  'gated',
  'phrase-groups',
  'title-match',
  'category-prior',
  'exemplar',
  'weak-sentence',
  'top-share',
  'model-logit',
  'model-only',
  'model-only-logit',
] as const;

/**
 * Read after CALIBRATION_FEATURES by a calibration fitted with the paper's neighbourhood
 * (calibration-neighbours.json): the share of the paper's nearest papers tagged with the topic
 * (neighbour-shares.ts). A dedicated feature rather than the learned models' slot, so both can ship.
 */
export const NEIGHBOUR_FEATURES = ['neighbour-share'] as const;

/** A model's log-odds is read within these bounds: past them a word list says little more. */
const LOGIT_BOUND = 8;

/** `neighbours`: the features of a calibration fitted with the neighbourhood, the share last. */
export function tagFeatures(tag: PaperTag, context: TagContext, neighbours = false): number[] {
  const phrases = tag.evidence.filter((e) => e.rule === 'phrase');
  const top = phrases.reduce((m, e) => Math.max(m, e.points), 0);
  const model = Math.max(-LOGIT_BOUND, Math.min(LOGIT_BOUND, tag.model ?? 0));
  // A tag only the model names has no rule score: its ratio reads as the threshold's, and the model-only
  // features carry it.
  const modelOnly = tag.score === 0 && tag.model !== undefined ? 1 : 0;
  return [
    modelOnly === 1 ? 0 : Math.log(Math.max(1e-3, context.ratio)),
    context.relative,
    Math.min(context.rank, 6),
    Math.log(1 + context.passing),
    context.depth,
    context.depth === 0 ? 1 : 0,
    context.gated ? 1 : 0,
    Math.min(phrases.length, 6),
    phrases.some((e) => e.field === 'title') ? 1 : 0,
    tag.evidence.some((e) => e.rule === 'category') ? 1 : 0,
    tag.evidence.some((e) => e.rule === 'exemplar' || e.rule === 'exemplar-paper') ? 1 : 0,
    phrases.some((e) => e.detail.includes('×')) ? 1 : 0,
    tag.score > 0 ? top / tag.score : 0,
    model,
    modelOnly,
    modelOnly * model,
    ...(neighbours ? [tag.neighbourShare ?? 0] : []),
  ];
}

export class Calibration {
  readonly #file: CalibrationFile;

  readonly #neighbours: boolean;

  constructor(file: CalibrationFile) {
    const features = file.features.join();
    this.#neighbours = features === [...CALIBRATION_FEATURES, ...NEIGHBOUR_FEATURES].join();
    if (
      (features !== CALIBRATION_FEATURES.join() && !this.#neighbours) ||
      file.weights.length !== file.features.length
    ) {
      throw new Error(
        `calibration ${file.version} was fitted on other features; run tests/eval/train-calibration.ts again.`,
      );
    }
    this.#file = file;
  }

  get version(): string {
    return this.#file.version;
  }

  /** Fitted with the paper's neighbourhood: tagFeatures(…, true) is what it reads. */
  get readsNeighbours(): boolean {
    return this.#neighbours;
  }

  /** The cut-offs fitted with it, when the file carries them. */
  get cutoffs(): { keep?: number; floor?: number } {
    const { keep, floor } = this.#file;
    return { ...(keep !== undefined ? { keep } : {}), ...(floor !== undefined ? { floor } : {}) };
  }

  /** The log-odds the neighbourhood's share adds (0 for a calibration fitted without it). */
  shareContribution(share: number): number {
    return this.#neighbours ? share * (this.#file.weights[CALIBRATION_FEATURES.length] ?? 0) : 0;
  }

  /** The topic's learnt shift of the log-odds, 0 when it has none; shown with the tag's evidence. */
  topicBias(slug: string): number {
    const bias = this.#file.topicBias;
    return bias && Object.hasOwn(bias, slug) ? (bias[slug] ?? 0) : 0;
  }

  probability(features: readonly number[], slug?: string): number {
    let z = this.#file.bias + (slug === undefined ? 0 : this.topicBias(slug));
    features.forEach((x, i) => (z += x * (this.#file.weights[i] ?? 0)));
    return 1 / (1 + Math.exp(-z));
  }
}
