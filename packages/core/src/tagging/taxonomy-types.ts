/**
 * The topic taxonomy as data. The default taxonomy lives in `packages/core/taxonomy/taxonomy.json`; a group
 * can define its own topics in the same shape. `loadTaxonomy` (taxonomy-load.ts) validates it.
 *
 * Matching model (see tagging-engine.ts):
 * - Text is tokenised into words: letters and digits, lowercased; hyphens and slashes split words
 *   ("multi-agent" = "multi agent"); a trailing plural "s" is dropped from words longer than three letters
 *   ("agents" = "agent"), the same way for terms and papers.
 * - A term is a word or phrase ("process reward model"). A term written with any capital letter is matched
 *   case-sensitively against the original text ("RAG", "GRPO", "LLM"), so "rag" or "Rag" in prose do not match;
 *   an all-lowercase term matches any case.
 * - A term may end with "*" to match any word starting with that prefix as its last word ("reinforc*").
 */
export interface TaxonomyFile {
  /** Bumped whenever a definition changes; stored with the tags so the server can re-tag what changed. */
  version: string;
  topics: TopicSpec[];
}

export interface TopicSpec {
  /** Stable, lowercase, hyphenated: "rl-for-llm-agents". */
  slug: string;
  name: string;
  /** In the reference format: "RL: Reinforcement Learning · LLM: Large Language Model"; "" when none. */
  acronyms: string;
  /** 2–4 sentences, our own words. */
  description: string;
  /** Slugs of broader topics; [] for a root. */
  parents: string[];
  definition: TopicDefinition;
}

export interface TopicDefinition {
  /**
   * Weighted evidence. Each group is a set of synonyms (and acronyms); a group counts once however many of its
   * terms match, more if it matches in the title. The score is the sum over matched groups.
   */
  phrases: PhraseGroup[];
  /**
   * Required co-occurrence: every listed group must match somewhere in title or abstract, or the topic scores
   * 0. E.g. [[RL terms], [LLM-agent terms]] for "RL for LLM Agents".
   */
  requireAll?: string[][];
  /** Any of these terms anywhere vetoes the topic (score 0). */
  exclude?: string[];
  /**
   * Homonyms: phrases in which a topic word means something else ("camera pose" for Human Pose, "graph
   * diffusion" for Diffusion Models). A phrase or required term read where one of these starts at or
   * before it and overlaps it does not count; the rest of the paper still can.
   */
  mask?: string[];
  /** Added to a score that is already above 0 when the paper lists the category (primary or cross-list). */
  categoryPriors?: Record<string, number>;
  /**
   * Papers that typify the topic. Their distinctive words form a profile; a paper sharing many of them gains
   * up to `exemplarWeight` (default 2) points. Exemplar papers themselves always get the topic.
   */
  exemplars?: string[];
  exemplarWeight?: number;
  /** Minimum score to tag; default 3. */
  threshold?: number;
  /**
   * A single lowercase word may carry the tag alone. Off for the taxonomy (one generic word such as "mesh"
   * never tags a paper: a tag needs two distinct terms, a phrase or acronym, or exemplar support); on for a
   * group's custom topics, whose every phrase is the member's own deliberate choice.
   */
  singleWordSuffices?: boolean;
  /**
   * Primary arXiv categories for which this (broad) topic is the paper's tag when no topic at all passes:
   * a cs.CV paper none of whose words fit a narrower topic is still a Computer Vision paper.
   */
  fallbackCategories?: string[];
}

export interface PhraseGroup {
  terms: string[];
  /** Points when the group matches in the abstract only. A title match counts `titleBoost` times (default 1.5). */
  weight: number;
  /**
   * Each term names every requireAll concept at once ("agentic RL" is both RL and an agent), so reading
   * one in the title or a plain sentence meets the requirement on its own.
   */
  bridges?: boolean;
}
