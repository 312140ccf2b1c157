import type { PaperTag, TagEvidence } from './tagging-engine.ts';
import type { Taxonomy } from './taxonomy-load.ts';

/** A tag as readers see it: direct tags plus the broader topics they imply. */
export interface TopicTag extends PaperTag {
  name: string;
  /** False when the tag comes only from a narrower topic. */
  direct: boolean;
  depth: number;
}

/**
 * Adds the ancestors of every direct tag (a paper on Step-Level Credit Assignment is also a paper on
 * Reinforcement Learning) and orders the result broad to narrow, like the reference site's tag rows.
 */
export function withAncestors(taxonomy: Taxonomy, direct: readonly PaperTag[]): TopicTag[] {
  const out = new Map<string, TopicTag>();
  for (const tag of direct) {
    const topic = taxonomy.bySlug.get(tag.slug);
    if (!topic) continue;
    out.set(tag.slug, { ...tag, name: topic.name, direct: true, depth: taxonomy.depth.get(tag.slug) ?? 0 });
  }
  for (const tag of direct) {
    for (const ancestor of taxonomy.ancestors.get(tag.slug) ?? []) {
      const topic = taxonomy.bySlug.get(ancestor);
      if (!topic) continue;
      const existing = out.get(ancestor);
      if (existing) {
        if (!existing.direct) existing.score = Math.max(existing.score, tag.score);
        continue;
      }
      const via: TagEvidence = {
        rule: 'implied',
        detail: `implied by ${taxonomy.bySlug.get(tag.slug)?.name ?? tag.slug}`,
        points: 0,
      };
      out.set(ancestor, {
        slug: ancestor,
        name: topic.name,
        score: tag.score,
        evidence: [via],
        direct: false,
        depth: taxonomy.depth.get(ancestor) ?? 0,
      });
    }
  }
  return [...out.values()].sort(
    (a, b) => a.depth - b.depth || b.score - a.score || (a.slug < b.slug ? -1 : 1),
  );
}
