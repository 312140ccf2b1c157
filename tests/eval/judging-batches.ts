import { withAncestors, type PaperTag, type TaggablePaper, type Taxonomy } from '@quire/core';
import { namesConcept, sampleOf, type conceptPattern } from './recall-pools.ts';

type ConceptPattern = ReturnType<typeof conceptPattern>;

/** A paper as judges read it in a batch file: id, title, categories, abstract (corpus text: never committed). */
export const paperBlock = (p: TaggablePaper): string =>
  `### ${p.id}\nTitle: ${p.title.replace(/\s+/g, ' ')}\nCategories: ${p.categories.join(' ')}\nAbstract: ${p.abstract.replace(/\s+/g, ' ')}\n`;

/** One topic as a judging line: "- slug — Name". */
export const topicLine = (taxonomy: Taxonomy, slug: string): string =>
  `- ${slug} — ${taxonomy.bySlug.get(slug)?.name ?? slug}`;

/** The criteria file's "How to judge" rules and each topic's section, for a batch's own criteria extract. */
export function criteriaSections(criteria: string): { rules: string; sections: Map<string, string> } {
  const sections = new Map<string, string>();
  for (const part of criteria.split(/^(?=## )/m)) {
    const slug = /^## ([a-z0-9-]+) —/.exec(part)?.[1];
    if (slug) sections.set(slug, part.trim());
  }
  return { rules: criteria.split(/^(?=## [a-z0-9-]+ —)/m)[0] ?? '', sections };
}

/**
 * A paper's candidate topics as the taxonomy-wide samples draw them: the engine's tags with their
 * ancestors and every topic whose core concepts the paper names, shuffled together by `random` so a
 * judge cannot tell which the engine chose.
 */
export function candidateDrawer(
  taxonomy: Taxonomy,
  engine: { tag(p: TaggablePaper): PaperTag[] },
  patterns: ReadonlyMap<string, ConceptPattern>,
  random: () => number,
): (p: TaggablePaper) => string[] {
  return (p) => {
    const set = new Set(withAncestors(taxonomy, engine.tag(p)).map((t) => t.slug));
    for (const [slug, pattern] of patterns) if (namesConcept(pattern, p)) set.add(slug);
    return sampleOf([...set].sort(), set.size, random);
  };
}
