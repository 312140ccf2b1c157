/**
 * Custom topics as the tagging engine's topics, so a client can tag papers with them through the same engine
 * (`compileForCollection(customTopicsTaxonomy(topics), papers)`) and follow them like taxonomy topics.
 */
import type { Taxonomy } from '../tagging/taxonomy-load.ts';
import { loadTaxonomy } from '../tagging/taxonomy-load.ts';
import type { TopicSpec } from '../tagging/taxonomy-types.ts';
import type { CustomTopic } from './custom-topics.ts';

/**
 * Each phrase is its own group worth the engine's default threshold (3): a member who lists a phrase means
 * "a paper saying this belongs here", so one abstract mention tags the paper, and every further phrase
 * matched ranks it higher. Exemplar papers always get the topic; others sharing their distinctive words
 * gain up to the engine's exemplar weight (2), which alone stays below the threshold on purpose.
 */
export const CUSTOM_PHRASE_WEIGHT = 3;

export function customTopicSpec(topic: CustomTopic): TopicSpec {
  const listed = topic.phrases.length > 0 ? `: ${topic.phrases.join(', ')}` : '';
  return {
    slug: topic.slug,
    name: topic.name,
    acronyms: '',
    description: `A topic defined by the group${listed}.`,
    parents: [],
    definition: {
      phrases: topic.phrases.map((term) => ({ terms: [term], weight: CUSTOM_PHRASE_WEIGHT })),
      // The member chose each phrase, one word or several: one mention is meant to be enough.
      singleWordSuffices: true,
      ...(topic.exemplars.length > 0 ? { exemplars: [...topic.exemplars] } : {}),
    },
  };
}

/**
 * A validated taxonomy of the custom topics that can match something (a topic with neither phrases nor
 * exemplars is left out); null when none can. The version changes whenever a definition does, so a client
 * can cache tags per version.
 */
export function customTopicsTaxonomy(topics: readonly CustomTopic[]): Taxonomy | null {
  const specs = topics.filter((t) => t.phrases.length > 0 || t.exemplars.length > 0).map(customTopicSpec);
  if (specs.length === 0) return null;
  return loadTaxonomy({ version: `custom-${fnv1a(JSON.stringify(specs))}`, topics: specs });
}

function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}
