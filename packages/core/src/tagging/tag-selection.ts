import type { PaperTag } from './tagging-engine.ts';
import type { Taxonomy } from './taxonomy-load.ts';

/** A paper keeps at most this many direct tags; the card shows them with the broader topics they imply. */
export const MAX_DIRECT_TAGS = 6;
/** Confidence a broader topic needs to stay a direct tag beside a narrower one that implies it. */
export const BROAD_KEEP = 1.5;
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

  constructor(taxonomy: Taxonomy) {
    this.#ancestors = taxonomy.ancestors;
    this.#depth = taxonomy.depth;
    for (const topic of taxonomy.topics) {
      this.#threshold.set(topic.slug, topic.definition.threshold ?? DEFAULT_THRESHOLD);
    }
  }

  /** Score over threshold: 1 at the threshold, comparable across topics with different thresholds. */
  confidence(tag: PaperTag): number {
    return tag.score / (this.#threshold.get(tag.slug) ?? DEFAULT_THRESHOLD);
  }

  choose(passing: readonly PaperTag[]): PaperTag[] {
    if (passing.length <= 1) return [...passing];
    const implied = new Set<string>();
    for (const tag of passing)
      for (const ancestor of this.#ancestors.get(tag.slug) ?? []) implied.add(ancestor);
    const narrow = passing.filter((tag) => !implied.has(tag.slug)).sort((x, y) => this.#rank(x, y));
    // The bar is set by the best of the narrowest tags, so a broad topic that many words support does not
    // raise it over the specific topics the paper is about.
    const bar = RELATIVE_FLOOR * this.confidence(narrow[0] as PaperTag);
    const kept = narrow.filter((tag) => this.confidence(tag) >= bar);
    // A broader topic the paper supports strongly on its own, better than any narrower tag implying it,
    // stays a direct tag too; otherwise it is left implied by its narrower tag.
    const broad = passing
      .filter(
        (tag) =>
          implied.has(tag.slug) &&
          this.confidence(tag) >= Math.max(bar, BROAD_KEEP) &&
          passing.every(
            (narrower) =>
              !(this.#ancestors.get(narrower.slug) ?? []).includes(tag.slug) ||
              this.confidence(tag) > this.confidence(narrower),
          ),
      )
      .sort((x, y) => this.#rank(x, y));
    return [...kept, ...broad].slice(0, MAX_DIRECT_TAGS);
  }

  #rank(x: PaperTag, y: PaperTag): number {
    return (
      this.confidence(y) - this.confidence(x) ||
      (this.#depth.get(y.slug) ?? 0) - (this.#depth.get(x.slug) ?? 0) ||
      (x.slug < y.slug ? -1 : 1)
    );
  }
}
