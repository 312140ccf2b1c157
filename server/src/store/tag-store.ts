import type { PaperTag, TagEvidence, TaggablePaper, Taxonomy } from '@quire/core';
import type { Database, Statement } from 'better-sqlite3';
import { hierarchyBatches, type ClosureRow, type HierarchyStep } from './hierarchy-steps.ts';
import { settled } from './settled.ts';

export { closureKey, type ClosureRow } from './hierarchy-steps.ts';

/**
 * The migration step `papers-to-tag`: which papers wait to be tagged, in a narrow table of their own. It was
 * a column of `papers` (tags_stale, left in place and no longer read: dropping it would rewrite every
 * row), so clearing a page's marks rewrote each paper's whole row, abstract and all, and the write-ahead
 * log took every page of the papers table again; deleting ids from this table touches a few pages a batch.
 * Triggers mark a paper as any write of its row did before (a new paper, or any change to a stored one);
 * a deleted paper leaves the table.
 */
export const CREATE_PAPERS_TO_TAG = `
CREATE TABLE papers_to_tag (paper_id TEXT PRIMARY KEY NOT NULL) WITHOUT ROWID;
INSERT INTO papers_to_tag (paper_id) SELECT id FROM papers WHERE tags_stale = 1;
DROP INDEX papers_tags_stale;

CREATE TRIGGER papers_to_tag_insert AFTER INSERT ON papers BEGIN
  INSERT INTO papers_to_tag (paper_id) VALUES (NEW.id) ON CONFLICT DO NOTHING;
END;

CREATE TRIGGER papers_to_tag_update AFTER UPDATE ON papers BEGIN
  INSERT INTO papers_to_tag (paper_id) VALUES (NEW.id) ON CONFLICT DO NOTHING;
END;

CREATE TRIGGER papers_to_tag_delete AFTER DELETE ON papers BEGIN
  DELETE FROM papers_to_tag WHERE paper_id = OLD.id;
END;
`;

// Papers are read a page at a time in id order (keyset, not OFFSET: each page is one index range), so a
// re-tag holds one page, never the store.
const TAGGABLE_COLUMNS = `id, title, abstract, categories, updated_at`;
const SELECT_PAGE = `SELECT ${TAGGABLE_COLUMNS} FROM papers WHERE id > ? ORDER BY id LIMIT ?`;
const SELECT_STALE_PAGE = `
SELECT ${TAGGABLE_COLUMNS} FROM papers_to_tag s JOIN papers p ON p.id = s.paper_id
WHERE s.paper_id > ? ORDER BY s.paper_id LIMIT ?`;
const SELECT_BY_IDS = `
SELECT ${TAGGABLE_COLUMNS} FROM papers WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id`;
const COUNT_PAPERS = `SELECT COUNT(*) FROM papers`;
const COUNT_STALE = `SELECT COUNT(*) FROM papers_to_tag`;
const MARK_ALL_STALE = `INSERT OR IGNORE INTO papers_to_tag (paper_id) SELECT id FROM papers`;
const MARK_STALE = `
INSERT OR IGNORE INTO papers_to_tag (paper_id)
SELECT id FROM papers WHERE id IN (SELECT value FROM json_each(?))`;
const MARK_STALE_WITH_TOPICS = `
INSERT OR IGNORE INTO papers_to_tag (paper_id)
SELECT DISTINCT paper_id FROM paper_tags WHERE topic IN (SELECT value FROM json_each(?))`;
// A batch's tags are written by three statements over two JSON arrays (papers as [id, updatedAt], tags as
// [topic, paperId, score, evidence]), not statements per paper and tag: that halves the CPU a batch's writes
// cost (measured on a 268,450-paper store; the triggers that derive closure rows and counts from each tag
// row cost the same either way). Tags are replaced by difference: a tag a paper keeps is updated in place,
// and only if it changed, so the closure rows and counts the triggers derive from it (migration
// topic-counts) are not removed and added back.
const DELETE_DROPPED_TAGS = `
DELETE FROM paper_tags
WHERE paper_id IN (SELECT value ->> 0 FROM json_each(?))
  AND (topic, paper_id) NOT IN (SELECT value ->> 0, value ->> 1 FROM json_each(?))`;
const UPSERT_TAGS = `
INSERT INTO paper_tags (topic, paper_id, score, evidence)
SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3 FROM json_each(?) WHERE true
ON CONFLICT (topic, paper_id) DO UPDATE SET score = excluded.score, evidence = excluded.evidence
WHERE score IS NOT excluded.score OR evidence IS NOT excluded.evidence`;
// Only if the paper is as it was read: one rewritten while its tags were being made stays stale.
const CLEAR_STALE = `
DELETE FROM papers_to_tag WHERE paper_id IN (
  SELECT p.id FROM (SELECT value ->> 0 AS id, value ->> 1 AS read_at FROM json_each(?)) AS done
  JOIN papers p ON p.id = done.id
  WHERE done.read_at IS NULL OR p.updated_at = done.read_at)`;
const DELETE_TOPIC_TAGS = `DELETE FROM paper_tags WHERE topic = ?`;
const SELECT_PAPER_TAGS = `SELECT topic, score, evidence FROM paper_tags WHERE paper_id = ? ORDER BY score DESC, topic`;
const SELECT_TOPIC_STATE = `SELECT topic, definition_hash AS hash FROM topic_state`;
const UPSERT_TOPIC_STATE = `
INSERT INTO topic_state (topic, definition_hash, tagged_at) VALUES (?, ?, ?)
ON CONFLICT (topic) DO UPDATE SET definition_hash = excluded.definition_hash, tagged_at = excluded.tagged_at`;
const DELETE_TOPIC_STATE = `DELETE FROM topic_state WHERE topic = ?`;
const SELECT_CLOSURE = `SELECT topic, broader FROM topic_closure ORDER BY topic, broader`;
const INSERT_CLOSURE = `INSERT INTO topic_closure (topic, broader) VALUES (?, ?) ON CONFLICT DO NOTHING`;
const DELETE_CLOSURE = `DELETE FROM topic_closure WHERE topic = ? AND broader = ?`;
const COUNT_TAGS_BY_TOPIC = `SELECT topic, COUNT(*) AS n FROM paper_tags GROUP BY topic`;

/**
 * Tag rows one hierarchy batch may move: a closure row inserted or deleted makes the triggers write one
 * paper_topics row (and its count) per paper tagged with its topic, so batches are sized by those tags.
 * About 0.1 s a batch on this machine, far inside the busy timeout another writer waits (open-database.ts).
 */
export const HIERARCHY_BATCH_TAGS = 20_000;

/** The hierarchy of a taxonomy as topic_closure holds it, sorted as SELECT_CLOSURE reads it. */
export function closureRows(taxonomy: Taxonomy): ClosureRow[] {
  const rows: ClosureRow[] = [];
  for (const { slug } of taxonomy.topics) {
    for (const broader of [slug, ...(taxonomy.ancestors.get(slug) ?? [])])
      rows.push({ topic: slug, broader });
  }
  return rows.sort((a, b) => compare(a.topic, b.topic) || compare(a.broader, b.broader));
}

/** SQLite's default (binary) collation on ASCII slugs. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A paper as tagging reads it from either engine. */
export interface TaggableRow {
  id: string;
  title: string;
  abstract: string;
  categories: string;
  updated_at: string;
}

/** A paper as tagging reads it, with the write it was read at (see replacePaperTags). */
export type StoredTaggable = TaggablePaper & { updatedAt: string };

export function toTaggable(row: TaggableRow): StoredTaggable {
  return {
    id: row.id,
    title: row.title,
    abstract: row.abstract,
    categories: JSON.parse(row.categories) as string[],
    updatedAt: row.updated_at,
  };
}

/**
 * A tag with its evidence already as the JSON stored: a tagging thread sends tags this way, since a string
 * crosses threads far more cheaply than the many small evidence objects it encodes.
 */
export interface EncodedTag {
  slug: string;
  score: number;
  evidenceJson: string;
}

/** A tag as `TagStore.replacePaperTags` stores it. */
export function encodeTag(tag: PaperTag): EncodedTag {
  return { slug: tag.slug, score: tag.score, evidenceJson: JSON.stringify(tag.evidence) };
}

/**
 * Tags worked out ahead of a batch (an import tags in its parse thread), by paper id, with the text they
 * were computed from. The store writes them only for a paper it stores for the first time with that very
 * text (a merge of two records of one paper may change it); any other paper stays stale for the re-tag.
 */
export type KnownTags = Map<string, { from: TaggablePaper; tags: readonly EncodedTag[] }>;

/** Whether tags computed from `from` are `paper`'s: the engine reads only these fields. */
export function sameTaggedText(from: TaggablePaper, paper: TaggablePaper): boolean {
  return (
    from.id === paper.id &&
    from.title === paper.title &&
    from.abstract === paper.abstract &&
    from.categories.length === paper.categories.length &&
    from.categories.every((c, i) => c === paper.categories[i])
  );
}

/** One paper's new tags, and the write it was read at (see `TagStore.replacePaperTags`). */
export interface PaperTagsResult {
  id: string;
  tags: readonly (PaperTag | EncodedTag)[];
  updatedAt?: string;
}

/** A tag's evidence as stored: already encoded by a tag thread, or encoded here. */
export function evidenceJson(tag: PaperTag | EncodedTag): string {
  return 'evidenceJson' in tag ? tag.evidenceJson : JSON.stringify(tag.evidence);
}

/** How `recordHierarchy` went: whether it changed anything, in how many committed batches. */
export interface HierarchyReport {
  changed: boolean;
  batches: number;
  /** Closure rows deleted and inserted. */
  rows: number;
}

/**
 * Stored tags, the per-topic definition hashes they were made with, which papers need tagging, and the
 * hierarchy the per-topic counts follow. Asynchronous for a network engine; the SQLite one answers at once.
 */
export interface TagStore {
  /** Up to `limit` papers with ids after `after` ('' for the first page), in id order. */
  papersAfter(after: string, limit: number): Promise<StoredTaggable[]>;
  /** The same over the papers waiting to be tagged (new or changed, or touched by a changed topic). */
  stalePapersAfter(after: string, limit: number): Promise<StoredTaggable[]>;
  /** Those of these papers the store holds, in id order (a taxonomy's exemplars). */
  papersById(ids: readonly string[]): Promise<StoredTaggable[]>;
  paperCount(): Promise<number>;
  staleCount(): Promise<number>;
  topicHashes(): Promise<Map<string, string>>;
  /**
   * Replaces all tags of each paper (a paper whose text changed) and marks it fresh, in one transaction —
   * unless it was written again since `updatedAt` (tags are made in a thread beside the harvest): then it
   * stays stale, and the next run tags its new text.
   */
  replacePaperTags(results: readonly PaperTagsResult[]): Promise<void>;
  /** The hierarchy the stored counts follow (empty until the first re-tag records one). */
  storedClosure(): Promise<ClosureRow[]>;
  /**
   * Makes the counted hierarchy `want` (closureRows of a taxonomy) in batches that each commit whole.
   * Between batches the stored hierarchy is neither the old nor the new one, so readers that compare it
   * with their taxonomy's (closureKey) count from the tags meanwhile; every batch leaves paper_topics and
   * the counts exact for the hierarchy stored at that moment.
   */
  recordHierarchy(want: readonly ClosureRow[]): Promise<HierarchyReport>;
  /** Marks papers for tagging anew (a page of those a changed topic tags now), in one transaction. */
  markStale(ids: readonly string[]): Promise<void>;
  /**
   * Starts tagging after a taxonomy change, in one transaction: marks for tagging anew every paper
   * (`'all'`) or those holding a stored tag of a removed or changed topic (`'tagged'`), forgets removed
   * topics (tags and hash) and records the changed topics' new hashes. A changed topic's old tags stay
   * until each paper that had one is tagged again.
   */
  beginRetag(
    removed: readonly string[],
    changed: ReadonlyMap<string, string>,
    stale: 'all' | 'tagged',
    at: Date,
  ): Promise<void>;
  tagsOf(paperId: string): Promise<PaperTag[]>;
  /**
   * Called once after a re-tag that ran to its end, with the papers it tagged of the papers stored: an
   * engine whose readers need the tags' tables tidied after a large write does it here. Absent where the
   * engine needs nothing of the kind.
   */
  afterRetag?(tagged: number, papers: number): Promise<void>;
}

type TagRows = Statement<[string, number], TaggableRow>;

export class SqliteTagStore implements TagStore {
  readonly #db: Database;
  readonly #page: TagRows;
  readonly #stalePage: TagRows;
  readonly #byIds: Statement<[string], TaggableRow>;
  readonly #countPapers: Statement<[], number>;
  readonly #countStale: Statement<[], number>;
  readonly #clearStale: Statement<[string], unknown>;
  readonly #markAllStale: Statement<[], unknown>;
  readonly #markStale: Statement<[string], unknown>;
  readonly #markStaleWithTopics: Statement<[string], unknown>;
  readonly #deleteDroppedTags: Statement<[string, string], unknown>;
  readonly #deleteTopicTags: Statement<[string], unknown>;
  readonly #upsertTags: Statement<[string], unknown>;
  readonly #paperTags: Statement<[string], { topic: string; score: number; evidence: string }>;
  readonly #topicState: Statement<[], { topic: string; hash: string }>;
  readonly #upsertTopicState: Statement<[string, string, string], unknown>;
  readonly #deleteTopicState: Statement<[string], unknown>;
  readonly #closure: Statement<[], ClosureRow>;
  readonly #insertClosure: Statement<[string, string], unknown>;
  readonly #deleteClosure: Statement<[string, string], unknown>;
  readonly #tagsByTopic: Statement<[], { topic: string; n: number }>;
  readonly #batchTags: number;

  /** `batchTags`: see HIERARCHY_BATCH_TAGS; tests pass a small one to see batches at work. */
  constructor(db: Database, options: { batchTags?: number } = {}) {
    this.#db = db;
    this.#batchTags = options.batchTags ?? HIERARCHY_BATCH_TAGS;
    this.#tagsByTopic = db.prepare(COUNT_TAGS_BY_TOPIC);
    this.#page = db.prepare(SELECT_PAGE);
    this.#stalePage = db.prepare(SELECT_STALE_PAGE);
    this.#byIds = db.prepare(SELECT_BY_IDS);
    this.#countPapers = db.prepare<[], number>(COUNT_PAPERS).pluck();
    this.#countStale = db.prepare<[], number>(COUNT_STALE).pluck();
    this.#clearStale = db.prepare(CLEAR_STALE);
    this.#markAllStale = db.prepare(MARK_ALL_STALE);
    this.#markStale = db.prepare(MARK_STALE);
    this.#markStaleWithTopics = db.prepare(MARK_STALE_WITH_TOPICS);
    this.#deleteDroppedTags = db.prepare(DELETE_DROPPED_TAGS);
    this.#deleteTopicTags = db.prepare(DELETE_TOPIC_TAGS);
    this.#upsertTags = db.prepare(UPSERT_TAGS);
    this.#paperTags = db.prepare(SELECT_PAPER_TAGS);
    this.#topicState = db.prepare(SELECT_TOPIC_STATE);
    this.#upsertTopicState = db.prepare(UPSERT_TOPIC_STATE);
    this.#deleteTopicState = db.prepare(DELETE_TOPIC_STATE);
    this.#closure = db.prepare(SELECT_CLOSURE);
    this.#insertClosure = db.prepare(INSERT_CLOSURE);
    this.#deleteClosure = db.prepare(DELETE_CLOSURE);
  }

  papersAfter(after: string, limit: number): Promise<StoredTaggable[]> {
    return settled(() => this.#page.all(after, limit).map(toTaggable));
  }

  stalePapersAfter(after: string, limit: number): Promise<StoredTaggable[]> {
    return settled(() => this.#stalePage.all(after, limit).map(toTaggable));
  }

  papersById(ids: readonly string[]): Promise<StoredTaggable[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return settled(() => this.#byIds.all(JSON.stringify(ids)).map(toTaggable));
  }

  paperCount(): Promise<number> {
    return settled(() => this.#countPapers.get() ?? 0);
  }

  staleCount(): Promise<number> {
    return settled(() => this.#countStale.get() ?? 0);
  }

  topicHashes(): Promise<Map<string, string>> {
    return settled(() => new Map(this.#topicState.all().map((r) => [r.topic, r.hash])));
  }

  replacePaperTags(results: readonly PaperTagsResult[]): Promise<void> {
    if (results.length === 0) return Promise.resolve();
    return settled(() => {
      const papers = JSON.stringify(results.map((r) => [r.id, r.updatedAt ?? null]));
      const tags = JSON.stringify(
        results.flatMap((r) => r.tags.map((t) => [t.slug, r.id, t.score, evidenceJson(t)])),
      );
      this.#db.transaction(() => {
        this.#deleteDroppedTags.run(papers, tags);
        this.#upsertTags.run(tags);
        this.#clearStale.run(papers);
      })();
    });
  }

  storedClosure(): Promise<ClosureRow[]> {
    return settled(() => this.#closure.all());
  }

  recordHierarchy(want: readonly ClosureRow[]): Promise<HierarchyReport> {
    return settled(() => {
      const report: HierarchyReport = { changed: false, batches: 0, rows: 0 };
      const tags = new Map(this.#tagsByTopic.all().map((r) => [r.topic, r.n]));
      const batches = hierarchyBatches(this.#closure.all(), want, tags, this.#batchTags);
      if (batches.length === 0) return report;
      const apply = this.#db.transaction((batch: readonly HierarchyStep[]) => {
        // Each step is idempotent, so another connection recording the same hierarchy meanwhile is harmless.
        for (const r of batch) {
          if (r.insert) this.#insertClosure.run(r.topic, r.broader);
          else this.#deleteClosure.run(r.topic, r.broader);
        }
      });
      for (const batch of batches) {
        apply.immediate(batch);
        report.batches++;
        report.rows += batch.length;
      }
      report.changed = true;
      return report;
    });
  }

  markStale(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return Promise.resolve();
    return settled(() => {
      this.#markStale.run(JSON.stringify(ids));
    });
  }

  beginRetag(
    removed: readonly string[],
    changed: ReadonlyMap<string, string>,
    stale: 'all' | 'tagged',
    at: Date,
  ): Promise<void> {
    return settled(() =>
      this.#db.transaction(() => {
        // One statement for the whole store (a new engine or calibration), not one per paper.
        if (stale === 'all') this.#markAllStale.run();
        else this.#markStaleWithTopics.run(JSON.stringify([...removed, ...changed.keys()]));
        for (const slug of removed) {
          this.#deleteTopicTags.run(slug);
          this.#deleteTopicState.run(slug);
        }
        for (const [topic, hash] of changed) this.#upsertTopicState.run(topic, hash, at.toISOString());
      })(),
    );
  }

  tagsOf(paperId: string): Promise<PaperTag[]> {
    return settled(() =>
      this.#paperTags.all(paperId).map((r) => ({
        slug: r.topic,
        score: r.score,
        evidence: JSON.parse(r.evidence) as TagEvidence[],
      })),
    );
  }
}
