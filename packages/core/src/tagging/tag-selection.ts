import { tagFeatures, type Calibration, type TagContext } from './tag-calibration.ts';
import type { PaperTag } from './tagging-engine.ts';
import type { Taxonomy } from './taxonomy-load.ts';

/** A paper keeps at most this many direct tags; the card shows them with the broader topics they imply. */
export const MAX_DIRECT_TAGS = 6;
/**
 * Calibrated confidence a tag needs to be kept: 0.75, chosen by tests/eval/train-calibration.ts's
 * cross-validation on the development judgments only (the best precision of one tag per paper, a bare
 * paper counting as a miss, while recall of judged-in topics stays at 0.665 or more; near-ties go to the
 * setting with the fewest bare papers).
 */
export const KEEP_CONFIDENCE = 0.75;
/** A paper with no tag that sure keeps its best one if it reaches this (chosen with KEEP_CONFIDENCE). */
export const FLOOR_CONFIDENCE = 0.4;
/**
 * A tag whose calibrated score (score ÷ its topic's threshold) is under this share of the paper's best
 * is dropped: beside a paper's clear topics, a topic that only scraped past its threshold is noise.
 */
export const RELATIVE_FLOOR = 0.4;

const DEFAULT_THRESHOLD = 3;

/**
 * Chooses a paper's direct tags among the topics that passed: the best-supported first, none far weaker
 * than the best, none implied by a narrower kept tag (a 3D Gaussian Splatting paper is in Computer Vision
 * through its parent chain, so Computer Vision need not be a direct tag), and at most MAX_DIRECT_TAGS.
 */
export class TagSelection {
  readonly #ancestors: Taxonomy['ancestors'];
  readonly #depth: Taxonomy['depth'];
  readonly #threshold = new Map<string, number>();
  readonly #gated = new Set<string>();
  readonly #calibration: Calibration | null;
  readonly #keep: number;
  readonly #floor: number;

  /**
   * `cutoffs` exist for the calibration trainer's cross-validation; the engine uses the calibration file's
   * own, else the defaults.
   */
  constructor(
    taxonomy: Taxonomy,
    calibration: Calibration | null = null,
    cutoffs: { keep?: number; floor?: number } = {},
  ) {
    this.#calibration = calibration;
    this.#keep = cutoffs.keep ?? calibration?.cutoffs.keep ?? KEEP_CONFIDENCE;
    this.#floor = cutoffs.floor ?? calibration?.cutoffs.floor ?? FLOOR_CONFIDENCE;
    this.#ancestors = taxonomy.ancestors;
    this.#depth = taxonomy.depth;
    for (const topic of taxonomy.topics) {
      this.#threshold.set(topic.slug, topic.definition.threshold ?? DEFAULT_THRESHOLD);
      if (topic.definition.requireAll?.length) this.#gated.add(topic.slug);
    }
  }

  /** Score over threshold: 1 at the threshold, comparable across topics with different thresholds. */
  confidence(tag: PaperTag): number {
    return tag.score / (this.#threshold.get(tag.slug) ?? DEFAULT_THRESHOLD);
  }

  /** Each passing tag with what its calibrated confidence is read from. */
  contexts(passing: readonly PaperTag[]): { tag: PaperTag; context: TagContext }[] {
    const ranked = [...passing].sort((x, y) => this.#rank(x, y));
    const best = ranked[0] ? this.confidence(ranked[0]) : 1;
    return ranked.map((tag, rank) => ({
      tag,
      context: {
        ratio: this.confidence(tag),
        // Only the learned models named topics (every score 0): none is relative to a rule's best.
        relative: best > 0 ? this.confidence(tag) / best : 0,
        rank,
        passing: passing.length,
        depth: this.#depth.get(tag.slug) ?? 0,
        gated: this.#gated.has(tag.slug),
      },
    }));
  }

  /**
   * With a calibration: the tags a reader would likely agree with (confidence ≥ KEEP_CONFIDENCE; the best
   * one alone down to FLOOR_CONFIDENCE, so a paper is not left bare for want of a sure tag), narrowest
   * first, at most MAX_DIRECT_TAGS, each with its confidence as evidence. Without one: by score ratio.
   */
  choose(passing: readonly PaperTag[]): PaperTag[] {
    if (!this.#calibration) return this.#chooseByRatio(passing);
    const calibration = this.#calibration;
    const scored = this.contexts(passing).map(({ tag, context }) => ({
      tag,
      p: calibration.probability(tagFeatures(tag, context, calibration.readsNeighbours), tag.slug),
    }));
    let kept = scored.filter((s) => s.p >= this.#keep);
    const best = [...scored].sort((x, y) => y.p - x.p)[0];
    if (kept.length === 0 && best && best.p >= this.#floor) kept = [best];
    const byP = new Map(kept.map((s) => [s.tag.slug, s.p]));
    const descendantsBetter = (slug: string, p: number) =>
      kept.some((s) => s.p >= p && (this.#ancestors.get(s.tag.slug) ?? []).includes(slug));
    kept = kept.filter((s) => !descendantsBetter(s.tag.slug, s.p));
    kept.sort(
      (x, y) =>
        (this.#depth.get(y.tag.slug) ?? 0) - (this.#depth.get(x.tag.slug) ?? 0) ||
        y.p - x.p ||
        (x.tag.slug < y.tag.slug ? -1 : 1),
    );
    return kept.slice(0, MAX_DIRECT_TAGS).map(({ tag }) => {
      const p = byP.get(tag.slug) ?? 0;
      const detail = `a reader agrees with such a tag about ${Math.round(100 * p)}% of the time`;
      return { ...tag, evidence: [...tag.evidence, { rule: 'confidence' as const, detail, points: 0 }] };
    });
  }

  #chooseByRatio(all: readonly PaperTag[]): PaperTag[] {
    // A tag only a learned model names (score 0) needs a calibration to be weighed: without one it is not kept.
    const passing = all.filter((tag) => tag.score > 0);
    if (passing.length <= 1) return [...passing];
    const implied = new Set<string>();
    for (const tag of passing)
      for (const ancestor of this.#ancestors.get(tag.slug) ?? []) implied.add(ancestor);
    const narrow = passing.filter((tag) => !implied.has(tag.slug)).sort((x, y) => this.#rank(x, y));
    const bar = RELATIVE_FLOOR * this.confidence(narrow[0] as PaperTag);
    const kept = narrow.filter((tag) => this.confidence(tag) >= bar);
    return kept.slice(0, MAX_DIRECT_TAGS);
  }

  #rank(x: PaperTag, y: PaperTag): number {
    return (
      this.confidence(y) - this.confidence(x) ||
      (this.#depth.get(y.slug) ?? 0) - (this.#depth.get(x.slug) ?? 0) ||
      (x.slug < y.slug ? -1 : 1)
    );
  }
}
