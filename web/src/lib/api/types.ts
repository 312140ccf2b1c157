/**
 * The shapes the JSON API answers. The server declares them next to its services, and web never imports
 * server code, so the ones the pages read are declared again here from core's shared types.
 */
import type { Momentum, PaperEntity, RisingScore, TopicTag } from '@quire/core';

/** One topic of GET /api/topics: taxonomy facts plus momentum and rising score as of `asOf`. */
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

/** GET /api/topics/:slug. */
export interface TopicDetail extends TopicSummary {
  /** Newest first. */
  paperIds: string[];
}

/** GET /api/papers/:id: the stored paper with its tags, broad to narrow. */
export interface PaperView extends PaperEntity {
  tags: TopicTag[];
}

/** What the API answers when it fails. */
export interface ApiErrorBody {
  error: string;
  message: string;
}
