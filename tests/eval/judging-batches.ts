import type { TaggablePaper, Taxonomy } from '@quire/core';

/** A paper as judges read it in a batch file: id, title, categories, abstract (corpus text: never committed). */
export const paperBlock = (p: TaggablePaper): string =>
  `### ${p.id}\nTitle: ${p.title.replace(/\s+/g, ' ')}\nCategories: ${p.categories.join(' ')}\nAbstract: ${p.abstract.replace(/\s+/g, ' ')}\n`;

/** One topic as a judging line: "- slug — Name". */
export const topicLine = (taxonomy: Taxonomy, slug: string): string =>
  `- ${slug} — ${taxonomy.bySlug.get(slug)?.name ?? slug}`;
