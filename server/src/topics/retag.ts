import {
  CompiledTaxonomy,
  collectionStats,
  selectionVersion,
  topicDefinitionHash,
  type Taxonomy,
} from '@quire/core';
import { closureRows, type TagStore } from '../store/tag-store.ts';

export interface RetagOptions {
  now?: () => Date;
  /** Forget every stored tag and tag the whole store again. */
  full?: boolean;
  onProgress?: (done: number, total: number) => void;
  /** Asked between batches; true ends the run early (the papers not reached stay stale for the next run). */
  shouldStop?: () => boolean;
}

export interface RetagReport {
  taxonomyVersion: string;
  /** Topics whose definition is new or changed: re-tagged over every paper. */
  changedTopics: string[];
  removedTopics: string[];
  /** Papers tagged against every topic: new or changed since last tagged, or touched by a changed topic. */
  stalePapers: number;
  papers: number;
  durationMs: number;
  /** True when `shouldStop` ended the run before every stale paper was tagged. */
  stopped: boolean;
}

const BATCH = 2000;

/**
 * Brings stored tags up to date without a full rebuild: papers added or changed since they were tagged get
 * every topic; a topic whose definition hash changed (or that is new) is read over all papers alone, and
 * only the papers it tags now or had tagged before are tagged again; removed topics lose their tags.
 * Every step is resumable: the papers a change touches are marked stale in the transaction that records the
 * new definition hashes, and a paper stays stale until its new tags are written, so a run stopped or killed
 * part way is finished by the next one. Until a paper is tagged anew its old tags stay readable.
 */
export async function retag(
  store: TagStore,
  taxonomy: Taxonomy,
  options: RetagOptions = {},
): Promise<RetagReport> {
  const now = options.now ?? (() => new Date());
  const started = now().getTime();
  const salt = selectionVersion(taxonomy);
  const current = new Map(taxonomy.topics.map((t) => [t.slug, topicDefinitionHash(taxonomy, t.slug, salt)]));
  const stored = await store.topicHashes();
  const removed = [...stored.keys()].filter((slug) => !current.has(slug));
  const changed = [...current]
    .filter(([slug, hash]) => options.full || stored.get(slug) !== hash)
    .map(([slug]) => slug);
  const report: RetagReport = {
    taxonomyVersion: taxonomy.version,
    changedTopics: changed,
    removedTopics: removed,
    stalePapers: 0,
    papers: 0,
    durationMs: 0,
    stopped: false,
  };
  // The counts follow the taxonomy's hierarchy, which no definition hash covers (a topic can move under
  // another parent with its definition unchanged). Recorded in batches that each commit whole.
  await store.recordHierarchy(closureRows(taxonomy));
  // The common case, nothing to do, costs three small queries.
  if (changed.length === 0 && removed.length === 0 && (await store.staleCount()) === 0) return report;

  const papers = await store.allPapers();
  const stats = collectionStats(taxonomy, papers);
  // A changed or removed topic can change which of a paper's topics are kept (tags compete for a few
  // places, and a kept narrower tag implies its parents), so every paper it touches, before or now, is
  // tagged anew with the whole taxonomy.
  // Every topic changed (a new engine, a first tagging): every paper is touched, without a first pass.
  const everything = options.full === true || changed.length === taxonomy.topics.length;
  const touched = new Set<string>(everything ? [] : await store.papersWithTopics([...removed, ...changed]));
  if (changed.length > 0 && !everything) {
    const partial = new CompiledTaxonomy(taxonomy, { ...stats, only: new Set(changed) });
    for (const p of papers) if (partial.passing(p).length > 0) touched.add(p.id);
  }
  await store.beginRetag(
    removed,
    new Map(changed.map((slug) => [slug, current.get(slug) ?? ''])),
    everything ? 'all' : touched,
    now(),
  );
  const stale = new Set(options.full ? papers.map((p) => p.id) : await store.staleIds());
  report.stalePapers = stale.size;
  report.papers = papers.length;

  const full = new CompiledTaxonomy(taxonomy, stats);
  const subset = papers.filter((p) => stale.has(p.id));
  for (let i = 0; i < subset.length; i += BATCH) {
    if (options.shouldStop?.()) {
      report.stopped = true;
      break;
    }
    const batch = subset
      .slice(i, i + BATCH)
      .map((p) => ({ id: p.id, tags: full.tag(p), updatedAt: p.updatedAt }));
    await store.replacePaperTags(batch);
    options.onProgress?.(Math.min(i + BATCH, subset.length), subset.length);
  }
  report.durationMs = now().getTime() - started;
  return report;
}
