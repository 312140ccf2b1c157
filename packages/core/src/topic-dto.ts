import type { Momentum, RisingScore } from './momentum/index.ts';
import type { TopicTag } from './tagging/tag-hierarchy.ts';
import type { PaperEntity } from './paper.ts';

/**
 * The topic and paper shapes the JSON API answers (GET /api/topics, /api/topics/:slug, /api/papers/:id). They
 * live in core because server and web never import each other.
 */
export interface TopicSummary {
  slug: string;
  name: string;
  /** "RL: Reinforcement Learning · LLM: Large Language Model"; "" when none. */
  acronyms: string;
  description: string;
  parents: string[];
  children: string[];
  asOf: string;
  momentum: Momentum;
  rising: RisingScore;
}

export interface TopicDetail extends TopicSummary {
  /** Newest first, at most the newest 10,000 (the server's TOPIC_PAPERS_LISTED); momentum.total counts all. */
  paperIds: string[];
}

/** A stored paper with its tags, broad to narrow. */
export interface PaperView extends PaperEntity {
  tags: TopicTag[];
}

/** GET /api/papers?ids=…: the stored papers asked for (in the order asked) and the ids not stored. */
export interface PapersBatchDto {
  papers: PaperView[];
  missing: string[];
}
