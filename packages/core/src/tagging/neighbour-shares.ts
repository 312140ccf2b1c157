/**
 * What a paper's nearest papers say about its topics (issue 9): per topic, the similarity-weighted share of
 * its neighbours tagged with it. A paper that only uses a VLM as a tool sits among papers of its own field,
 * a paper about VLMs among VLM papers; the calibration read with neighbours (calibration-neighbours.json)
 * weighs each passing tag's share beside its own evidence.
 */
import type { PaperTag } from './tagging-engine.ts';

/**
 * A near paper as the engine reads it: neighbour-index.ts's `Neighbour` has this shape. `topics` are its
 * tags from the engine WITHOUT neighbours, direct and implied, so re-tagging one paper never cascades.
 */
export interface TaggedNeighbour {
  id: string;
  title: string;
  /** Cosine similarity to the paper, > 0. */
  sim: number;
  topics: readonly string[];
}

/** How a topic's share was made, for its evidence line. */
export interface NeighbourSupport {
  share: number;
  /** Neighbours tagged with the topic, and of how many. */
  tagged: number;
  of: number;
  /** The tagged neighbours' titles, most similar first. */
  titles: string[];
}

/**
 * Per topic, Σ sim of the neighbours tagged with it ÷ Σ sim of all of them (a topic no neighbour has is
 * absent: its share is 0). Nothing when the neighbours' similarities sum to nothing.
 */
export function neighbourShares(neighbours: readonly TaggedNeighbour[]): Map<string, number> {
  const total = neighbours.reduce((s, n) => s + Math.max(0, n.sim), 0);
  const shares = new Map<string, number>();
  if (total <= 0) return shares;
  for (const n of neighbours) {
    if (n.sim <= 0) continue;
    for (const slug of new Set(n.topics)) shares.set(slug, (shares.get(slug) ?? 0) + n.sim / total);
  }
  return shares;
}

/**
 * Each passing tag with its topic's share among the neighbours (0 when none has it), to two decimals like
 * the model's log-odds: what the calibration read with neighbours weighs.
 */
export function withNeighbourShares(
  passing: readonly PaperTag[],
  neighbours: readonly TaggedNeighbour[],
): PaperTag[] {
  const shares = neighbourShares(neighbours);
  return passing.map((tag) => ({
    ...tag,
    neighbourShare: Math.round(100 * (shares.get(tag.slug) ?? 0)) / 100,
  }));
}

/** One topic's share, with the neighbours that made it. */
export function neighbourSupport(neighbours: readonly TaggedNeighbour[], slug: string): NeighbourSupport {
  const total = neighbours.reduce((s, n) => s + Math.max(0, n.sim), 0);
  const tagged = neighbours.filter((n) => n.sim > 0 && n.topics.includes(slug)).sort((a, b) => b.sim - a.sim);
  // Summed as neighbourShares sums it, so the line shows the share the calibration read.
  const share = total > 0 ? tagged.reduce((s, n) => s + n.sim / total, 0) : 0;
  return { share, tagged: tagged.length, of: neighbours.length, titles: tagged.map((n) => n.title) };
}

/** Neighbours' titles an evidence line quotes. */
const TITLES_QUOTED = 2;

/**
 * The evidence line in the reader's words: "9 of its 15 nearest papers are tagged Vision-Language Models
 * (share 0.61), e.g. “…”, “…”: +1.84 to the log-odds" (what the share added to the tag's confidence).
 */
export function describeNeighbours(support: NeighbourSupport, topicName: string, added: number): string {
  const titles = support.titles
    .slice(0, TITLES_QUOTED)
    .map((t) => `“${t}”`)
    .join(', ');
  return (
    `${support.tagged} of its ${support.of} nearest papers are tagged ${topicName} ` +
    `(share ${support.share.toFixed(2)})${titles ? `, e.g. ${titles}` : ''}: ` +
    `+${added.toFixed(2)} to the log-odds`
  );
}
