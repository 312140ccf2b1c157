import { CollectionStats, type CompileOptions, type Taxonomy } from '@quire/core';
import { closureRows, type TagStore } from '../store/tag-store.ts';
import { definitionHashes } from '../topics/retag.ts';

/** The engine an import tags with, as `new CompiledTaxonomy(taxonomy, stats)` compiles it. */
export interface ImportTagging {
  taxonomy: Taxonomy;
  stats: CompileOptions;
}

/** Whether an import tags its papers itself, and if not, why the re-tag after it does. */
export interface ImportTaggingPlan {
  tagging: ImportTagging | null;
  /** Why the import leaves its papers stale (null when it tags them). */
  leftToRetag: string | null;
}

/**
 * Decides whether an import can tag each batch as it stores it, with tags exactly those that importing and
 * then re-tagging would give, and readies the store for it.
 *
 * A paper's tags are then a function of its text and the taxonomy alone: true only when the taxonomy names
 * no exemplar papers, since exemplar profiles weigh words by their frequency over the whole collection,
 * which every imported batch changes (the re-tag after the import reads the collection as it ends). And
 * the stored tags must be those of this taxonomy: when topics changed or were removed since the last
 * tagging, the re-tag must first find the papers they touch, so the import leaves everything to it. A
 * store never tagged is readied as the re-tag would start its first tagging: every paper it already holds
 * marked stale and the definition hashes recorded, in one transaction; the hierarchy the counts follow is
 * recorded first (batched, idempotent), as the re-tag does at every run. So a rerun of a killed import
 * finds the hashes current and goes on tagging.
 */
export async function planImportTagging(
  tags: TagStore,
  taxonomy: Taxonomy,
  now: Date,
): Promise<ImportTaggingPlan> {
  if (CollectionStats.exemplarIds(taxonomy).size > 0) {
    return {
      tagging: null,
      leftToRetag:
        'the taxonomy names exemplar papers, whose profiles read word frequencies over the whole collection as it ends',
    };
  }
  const current = definitionHashes(taxonomy);
  const stored = await tags.topicHashes();
  const same =
    stored.size === current.size && [...current].every(([slug, hash]) => stored.get(slug) === hash);
  if (stored.size > 0 && !same) {
    return {
      tagging: null,
      leftToRetag:
        'topics changed since the store was last tagged, and the re-tag finds the papers they touch',
    };
  }
  await tags.recordHierarchy(closureRows(taxonomy));
  if (stored.size === 0) await tags.beginRetag([], current, 'all', now);
  // No exemplars: the statistics the re-tag would gather are empty whatever the collection holds.
  return { tagging: { taxonomy, stats: new CollectionStats(new Map()).options() }, leftToRetag: null };
}
