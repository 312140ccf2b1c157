import {
  CollectionStats,
  CompiledTaxonomy,
  selectionVersion,
  type PaperTag,
  topicDefinitionHash,
  type CompileOptions,
  type Taxonomy,
} from '@quire/core';
import { closureRows, type EncodedTag, type StoredTaggable, type TagStore } from '../store/tag-store.ts';
import { TagPool, tagHere, type PageTagger } from './tag-pool.ts';

export interface RetagOptions {
  now?: () => Date;
  /** Forget every stored tag and tag the whole store again. */
  full?: boolean;
  onProgress?: (done: number, total: number) => void;
  /** Asked between batches; true ends the run early (the papers not reached stay stale for the next run). */
  shouldStop?: () => boolean;
  /**
   * Papers read, tagged and written at a time (one transaction a page); the run holds one page, never
   * the store. Tests pass a small one.
   */
  pageSize?: number;
  /**
   * Threads that tag pages while this one reads and writes the store (0: tag here). By default
   * DEFAULT_TAG_THREADS when at least POOL_FROM_PAPERS papers are stale, else 0.
   */
  tagThreads?: number;
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

/** Measured on a 268,450-paper store: pages of 500 or 8,000 papers cost 10-20% more CPU a paper than 2,000. */
const PAGE = 2000;
/**
 * Below this many stale papers (a harvest's, a small import's) starting a thread costs more than it saves:
 * each compiles its own engine (0.4 s of CPU to start).
 */
const POOL_FROM_PAPERS = 20_000;
/**
 * Off until it is shown to pay: on 268,450 papers at a load of 12 on 2 cores, one tagging thread took
 * 167 s (65 s of CPU) against 153 s (53 s) here; the engine costs about 1.2 times the CPU in a thread.
 * QUIRE_TAG_THREADS sets it for a run.
 */
const DEFAULT_TAG_THREADS = Number(process.env.QUIRE_TAG_THREADS ?? 0);

/**
 * Brings stored tags up to date without a full rebuild: papers added or changed since they were tagged get
 * every topic; a topic whose definition hash changed (or that is new) is read over all papers alone, and
 * only the papers it tags now or had tagged before are tagged again; removed topics lose their tags.
 * Every step is resumable: the papers a change touches are marked stale before or in the transaction that
 * records the new definition hashes, and a paper stays stale until its new tags are written, so a run
 * stopped or killed part way is finished by the next one. Until a paper is tagged anew its old tags stay
 * readable. Papers are read in pages (`pageSize`), so the run's memory does not grow with the store.
 */
export async function retag(
  store: TagStore,
  taxonomy: Taxonomy,
  options: RetagOptions = {},
): Promise<RetagReport> {
  const now = options.now ?? (() => new Date());
  const started = now().getTime();
  const current = definitionHashes(taxonomy);
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

  const pageSize = options.pageSize ?? PAGE;
  const pages = (read: (after: string) => Promise<StoredTaggable[]>) => keysetPages(read, pageSize);
  const stopped = () => {
    report.stopped = options.shouldStop?.() === true;
    return report.stopped;
  };
  const stats = await collectStats(
    store,
    taxonomy,
    pages((after) => store.papersAfter(after, pageSize)),
  );
  // A changed or removed topic can change which of a paper's topics are kept (tags compete for a few
  // places, and a kept narrower tag implies its parents), so every paper it touches, before or now, is
  // tagged anew with the whole taxonomy.
  // Every topic changed (a new engine, a first tagging): every paper is touched, without a first pass.
  const everything = options.full === true || changed.length === taxonomy.topics.length;
  if (changed.length > 0 && !everything) {
    // Marked page by page before the new hashes are recorded: a run stopped here has recorded nothing,
    // and the next one marks them again (marking a paper stale is never wrong, only work).
    const partial = new CompiledTaxonomy(taxonomy, { ...stats, only: new Set(changed) });
    for await (const page of pages((after) => store.papersAfter(after, pageSize))) {
      if (stopped()) return finish(report, started, now);
      await store.markStale(page.filter((p) => partial.passing(p).length > 0).map((p) => p.id));
    }
  }
  await store.beginRetag(
    removed,
    new Map(changed.map((slug) => [slug, current.get(slug) ?? ''])),
    everything ? 'all' : 'tagged',
    now(),
  );
  report.stalePapers = await store.staleCount();
  report.papers = await store.paperCount();

  const threads = options.tagThreads ?? (report.stalePapers >= POOL_FROM_PAPERS ? DEFAULT_TAG_THREADS : 0);
  const tagger: PageTagger =
    threads > 0 ? new TagPool(threads, taxonomy, stats) : tagHere(new CompiledTaxonomy(taxonomy, stats));
  try {
    const stale = pages((after) => store.stalePapersAfter(after, pageSize));
    await tagStale(store, tagger, stale, stopped, (done) =>
      options.onProgress?.(Math.min(done, report.stalePapers), report.stalePapers),
    );
  } finally {
    await tagger.close();
  }
  if (!report.stopped) await store.afterRetag?.(report.stalePapers, report.papers);
  return finish(report, started, now);
}

/** Each topic's definition hash, as topic_state records the tags were made with. */
export function definitionHashes(taxonomy: Taxonomy): Map<string, string> {
  const salt = selectionVersion(taxonomy);
  return new Map(taxonomy.topics.map((t) => [t.slug, topicDefinitionHash(taxonomy, t.slug, salt)]));
}

function finish(report: RetagReport, started: number, now: () => Date): RetagReport {
  report.durationMs = now().getTime() - started;
  return report;
}

/**
 * Tags the stale papers page by page. While `tagger` tags one page (in its threads), this thread writes
 * the page before it and reads the next: reading after the last id read needs nothing written first.
 * Tagging a page clears its papers' stale marks, so a paper that stays stale (rewritten meanwhile) is left
 * for the next run, as before. A stop leaves the page in hand unwritten: its papers stay stale.
 */
async function tagStale(
  store: TagStore,
  tagger: PageTagger,
  pages: AsyncIterable<StoredTaggable[]>,
  stopped: () => boolean,
  onWritten: (done: number) => void,
): Promise<void> {
  let done = 0;
  let inHand: { page: StoredTaggable[]; tags: Promise<(PaperTag | EncodedTag)[][]> } | null = null;
  const write = async ({ page, tags }: NonNullable<typeof inHand>): Promise<void> => {
    const tagged = await tags;
    await store.replacePaperTags(
      page.map((p, i) => ({ id: p.id, tags: tagged[i] ?? [], updatedAt: p.updatedAt })),
    );
    done += page.length;
    onWritten(done);
  };
  for await (const page of pages) {
    if (stopped()) return;
    const next = { page, tags: tagger.tag(page) };
    // Its failure surfaces when it is written; until then it must not count as unhandled.
    next.tags.catch(() => undefined);
    if (inHand) await write(inHand);
    inHand = next;
  }
  if (inHand && !stopped()) await write(inHand);
}

/** Pages of papers in id order, each read after the last id of the one before, until one comes back short. */
async function* keysetPages(
  read: (after: string) => Promise<StoredTaggable[]>,
  pageSize: number,
): AsyncGenerator<StoredTaggable[]> {
  let after = '';
  for (;;) {
    const page = await read(after);
    if (page.length > 0) yield page;
    const last = page.at(-1);
    if (page.length < pageSize || !last) return;
    after = last.id;
  }
}

/**
 * Exemplar texts by id, then (only when the store holds some: word frequencies weigh nothing else) every
 * paper counted once, page by page.
 */
async function collectStats(
  store: TagStore,
  taxonomy: Taxonomy,
  papers: AsyncIterable<StoredTaggable[]>,
): Promise<CompileOptions> {
  const wanted = [...CollectionStats.exemplarIds(taxonomy)];
  const exemplars = await store.papersById(wanted);
  const stats = new CollectionStats(new Map(exemplars.map((p) => [p.id, p])));
  if (stats.counting) for await (const page of papers) stats.add(page);
  return stats.options();
}
