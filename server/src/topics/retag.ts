import {
  CompiledTaxonomy,
  collectionStats,
  topicDefinitionHash,
  type PaperTag,
  type Taxonomy,
  type TaggablePaper,
} from '@quire/core';
import type { Database } from 'better-sqlite3';
import { TagStore } from './tag-store.ts';

export interface RetagOptions {
  now?: () => Date;
  /** Forget every stored tag and tag the whole store again. */
  full?: boolean;
  onProgress?: (done: number, total: number) => void;
}

export interface RetagReport {
  taxonomyVersion: string;
  /** Topics whose definition is new or changed: re-tagged over every paper. */
  changedTopics: string[];
  removedTopics: string[];
  /** Papers new or changed since they were last tagged: tagged against every topic. */
  stalePapers: number;
  papers: number;
  durationMs: number;
}

const BATCH = 2000;

/**
 * Brings stored tags up to date without a full rebuild: papers added or changed since they were tagged get
 * every topic; topics whose definition hash changed (or that are new) are re-run over all papers alone;
 * removed topics lose their tags. Every step is resumable: a paper stays stale and a topic keeps no hash
 * until its tags are written.
 */
export function retag(db: Database, taxonomy: Taxonomy, options: RetagOptions = {}): RetagReport {
  const now = options.now ?? (() => new Date());
  const started = now().getTime();
  const store = new TagStore(db);
  const current = new Map(taxonomy.topics.map((t) => [t.slug, topicDefinitionHash(taxonomy, t.slug)]));
  const stored = store.topicHashes();
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
  };
  // The common case, nothing to do, costs two small queries.
  if (changed.length === 0 && removed.length === 0 && store.staleCount() === 0) return report;

  const papers = store.allPapers();
  const stale = new Set(options.full ? papers.map((p) => p.id) : store.staleIds());
  report.stalePapers = stale.size;
  report.papers = papers.length;

  store.resetTopics([...removed, ...changed]);
  const stats = collectionStats(taxonomy, papers);
  const total = (changed.length > 0 ? papers.length - stale.size : 0) + stale.size;
  let done = 0;
  const run = (
    engine: CompiledTaxonomy,
    subset: TaggablePaper[],
    write: (batch: { id: string; tags: PaperTag[] }[]) => void,
  ) => {
    for (let i = 0; i < subset.length; i += BATCH) {
      const batch = subset.slice(i, i + BATCH).map((p) => ({ id: p.id, tags: engine.tag(p) }));
      write(batch);
      done += batch.length;
      options.onProgress?.(done, total);
    }
  };
  if (changed.length > 0) {
    const partial = new CompiledTaxonomy(taxonomy, { ...stats, only: new Set(changed) });
    run(
      partial,
      papers.filter((p) => !stale.has(p.id)),
      (b) => store.addTags(b),
    );
  }
  if (stale.size > 0) {
    const full = new CompiledTaxonomy(taxonomy, stats);
    run(
      full,
      papers.filter((p) => stale.has(p.id)),
      (b) => store.replacePaperTags(b),
    );
  }
  store.recordTopicHashes(current, now());
  report.durationMs = now().getTime() - started;
  return report;
}
