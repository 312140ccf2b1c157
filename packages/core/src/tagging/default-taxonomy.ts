import data from '../../taxonomy/taxonomy.json' with { type: 'json' };
import { loadTaxonomy, type Taxonomy } from './taxonomy-load.ts';

let cached: Taxonomy | undefined;

/** Quire's built-in taxonomy (packages/core/taxonomy/taxonomy.json), validated once. */
export function defaultTaxonomy(): Taxonomy {
  cached ??= loadTaxonomy(data);
  return cached;
}
