import type { PaperTag, TagEvidence } from '@quire/core';
import { hierarchyBatches } from '../hierarchy-steps.ts';
import {
  HIERARCHY_BATCH_TAGS,
  type ClosureRow,
  evidenceJson,
  type HierarchyReport,
  type PaperTagsResult,
  type StoredTaggable,
  type TaggableRow,
  type TagStore,
  toTaggable,
} from '../tag-store.ts';
import { LOCK_PAPER_WRITES } from './pg-paper-queries.ts';
import { inTransaction, type PgClient, type PgPool } from './pg-pool.ts';

// The statements of SQLite's tag store (tag-store.ts), written for PostgreSQL: arrays bound as parameters
// where SQLite reads JSON. Ids and slugs are COLLATE "C" columns, so they order as on SQLite.
const TAGGABLE_COLUMNS = `p.id, p.title, p.abstract, p.categories, p.updated_at`;
const SELECT_PAGE = `
SELECT ${TAGGABLE_COLUMNS} FROM papers p WHERE p.id > $1 ORDER BY p.id LIMIT $2`;
const SELECT_STALE_PAGE = `
SELECT ${TAGGABLE_COLUMNS} FROM papers_to_tag s JOIN papers p ON p.id = s.paper_id
WHERE s.paper_id > $1 ORDER BY s.paper_id LIMIT $2`;
const SELECT_BY_IDS = `
SELECT ${TAGGABLE_COLUMNS} FROM papers p WHERE p.id = ANY($1::text[]) ORDER BY p.id`;
const COUNT_PAPERS = `SELECT count(*)::integer AS n FROM papers`;
const COUNT_STALE = `SELECT count(*)::integer AS n FROM papers_to_tag`;
const MARK_ALL_STALE = `INSERT INTO papers_to_tag (paper_id) SELECT id FROM papers ON CONFLICT DO NOTHING`;
const MARK_STALE = `
INSERT INTO papers_to_tag (paper_id) SELECT id FROM papers WHERE id = ANY($1::text[]) ON CONFLICT DO NOTHING`;
const MARK_STALE_WITH_TOPICS = `
INSERT INTO papers_to_tag (paper_id)
SELECT DISTINCT paper_id FROM paper_tags WHERE topic = ANY($1::text[]) ON CONFLICT DO NOTHING`;
// Tags are replaced by difference, as on SQLite: a tag a paper keeps is updated in place, and only if it
// changed, so the closure rows and counts derived from it are not removed and added back.
const DELETE_DROPPED_TAGS = `
DELETE FROM paper_tags t
WHERE t.paper_id = ANY($1::text[])
  AND NOT EXISTS (
    SELECT 1 FROM unnest($2::text[], $3::text[]) AS keep (topic, paper_id)
    WHERE keep.topic = t.topic AND keep.paper_id = t.paper_id)`;
// Tags of a paper no longer stored are left out (paper_tags has no foreign key: pg-tag-schema.ts).
const UPSERT_TAGS = `
INSERT INTO paper_tags (topic, paper_id, score, evidence)
SELECT t.* FROM unnest($1::text[], $2::text[], $3::double precision[], $4::text[]) AS t (topic, paper_id, score, evidence)
WHERE EXISTS (SELECT 1 FROM papers p WHERE p.id = t.paper_id)
ON CONFLICT (topic, paper_id) DO UPDATE SET score = excluded.score, evidence = excluded.evidence
WHERE paper_tags.score IS DISTINCT FROM excluded.score OR paper_tags.evidence IS DISTINCT FROM excluded.evidence`;
// Only if the paper is as it was read: one rewritten while its tags were being made stays stale.
const CLEAR_STALE = `
DELETE FROM papers_to_tag s
USING unnest($1::text[], $2::text[]) AS done (id, read_at), papers p
WHERE s.paper_id = done.id AND p.id = done.id AND (done.read_at IS NULL OR p.updated_at = done.read_at)`;
const DELETE_TOPIC_TAGS = `DELETE FROM paper_tags WHERE topic = $1`;
const SELECT_PAPER_TAGS = `
SELECT topic, score, evidence FROM paper_tags WHERE paper_id = $1 ORDER BY score DESC, topic`;
const SELECT_TOPIC_STATE = `SELECT topic, definition_hash AS hash FROM topic_state`;
const UPSERT_TOPIC_STATE = `
INSERT INTO topic_state (topic, definition_hash, tagged_at) VALUES ($1, $2, $3)
ON CONFLICT (topic) DO UPDATE SET definition_hash = excluded.definition_hash, tagged_at = excluded.tagged_at`;
const DELETE_TOPIC_STATE = `DELETE FROM topic_state WHERE topic = $1`;
const SELECT_CLOSURE = `SELECT topic, broader FROM topic_closure ORDER BY topic, broader`;
const INSERT_CLOSURE = `
INSERT INTO topic_closure (topic, broader) SELECT * FROM unnest($1::text[], $2::text[]) ON CONFLICT DO NOTHING`;
const DELETE_CLOSURE = `
DELETE FROM topic_closure c USING unnest($1::text[], $2::text[]) AS gone (topic, broader)
WHERE c.topic = gone.topic AND c.broader = gone.broader`;
const COUNT_TAGS_BY_TOPIC = `SELECT topic, count(*)::integer AS n FROM paper_tags GROUP BY topic`;
/**
 * After a re-tag of much of the store (an import's), its tables' rows written anew are not yet all-visible, and
 * autovacuum reaches them only at a fifth of the table's rows, so a topic filter read paper_topics' matches
 * from the table's pages, not by an index-only scan: "topic:reinforcement-learning transformers" at 10x, right
 * after a start, 7,052 pages read, 545 after this (which took 0.3 s for paper_topics). ANALYZE too: the
 * planner's page counts were those of before the re-tag.
 */
const VACUUM_TAG_TABLES = `VACUUM (ANALYZE) paper_tags, paper_topics, topic_day_counts, papers_to_tag`;
/** A re-tag of at least this share of the papers is followed by VACUUM_TAG_TABLES. */
const VACUUM_FROM_SHARE = 0.1;

/**
 * Tags on PostgreSQL, with the same contract as SQLite's tag store. Writes take the papers' write lock
 * (pg-paper-queries.ts), since they move the same derived counts a paper write moves.
 */
export class PgTagStore implements TagStore {
  readonly #pool: PgPool;
  readonly #batchTags: number;

  constructor(pool: PgPool, options: { batchTags?: number } = {}) {
    this.#pool = pool;
    this.#batchTags = options.batchTags ?? HIERARCHY_BATCH_TAGS;
  }

  #write<T>(fn: (client: PgClient) => Promise<T>): Promise<T> {
    return inTransaction(this.#pool, async (client) => {
      await client.query(LOCK_PAPER_WRITES);
      return fn(client);
    });
  }

  async #taggable(sql: string, params: unknown[]): Promise<StoredTaggable[]> {
    return (await this.#pool.query<TaggableRow>(sql, params)).rows.map(toTaggable);
  }

  papersAfter(after: string, limit: number): Promise<StoredTaggable[]> {
    return this.#taggable(SELECT_PAGE, [after, limit]);
  }

  stalePapersAfter(after: string, limit: number): Promise<StoredTaggable[]> {
    return this.#taggable(SELECT_STALE_PAGE, [after, limit]);
  }

  async papersById(ids: readonly string[]): Promise<StoredTaggable[]> {
    return ids.length === 0 ? [] : this.#taggable(SELECT_BY_IDS, [ids]);
  }

  async paperCount(): Promise<number> {
    return (await this.#pool.query<{ n: number }>(COUNT_PAPERS)).rows[0]?.n ?? 0;
  }

  async staleCount(): Promise<number> {
    return (await this.#pool.query<{ n: number }>(COUNT_STALE)).rows[0]?.n ?? 0;
  }

  async topicHashes(): Promise<Map<string, string>> {
    const { rows } = await this.#pool.query<{ topic: string; hash: string }>(SELECT_TOPIC_STATE);
    return new Map(rows.map((r) => [r.topic, r.hash]));
  }

  async replacePaperTags(results: readonly PaperTagsResult[]): Promise<void> {
    if (results.length === 0) return;
    const tags = results.flatMap((r) => r.tags.map((t) => ({ id: r.id, t })));
    await this.#write(async (client) => {
      await client.query(DELETE_DROPPED_TAGS, [
        results.map((r) => r.id),
        tags.map((x) => x.t.slug),
        tags.map((x) => x.id),
      ]);
      if (tags.length > 0)
        await client.query(UPSERT_TAGS, [
          tags.map((x) => x.t.slug),
          tags.map((x) => x.id),
          tags.map((x) => x.t.score),
          tags.map((x) => evidenceJson(x.t)),
        ]);
      await client.query(CLEAR_STALE, [results.map((r) => r.id), results.map((r) => r.updatedAt ?? null)]);
    });
  }

  async storedClosure(): Promise<ClosureRow[]> {
    return (await this.#pool.query<ClosureRow>(SELECT_CLOSURE)).rows;
  }

  async recordHierarchy(want: readonly ClosureRow[]): Promise<HierarchyReport> {
    const report: HierarchyReport = { changed: false, batches: 0, rows: 0 };
    const have = await this.storedClosure();
    const { rows } = await this.#pool.query<{ topic: string; n: number }>(COUNT_TAGS_BY_TOPIC);
    const batches = hierarchyBatches(have, want, new Map(rows.map((r) => [r.topic, r.n])), this.#batchTags);
    if (batches.length === 0) return report;
    for (const batch of batches) {
      // Each step is idempotent, so another node recording the same hierarchy meanwhile is harmless.
      await this.#write(async (client) => {
        const gone = batch.filter((s) => !s.insert);
        const added = batch.filter((s) => s.insert);
        if (gone.length > 0)
          await client.query(DELETE_CLOSURE, [gone.map((s) => s.topic), gone.map((s) => s.broader)]);
        if (added.length > 0)
          await client.query(INSERT_CLOSURE, [added.map((s) => s.topic), added.map((s) => s.broader)]);
      });
      report.batches++;
      report.rows += batch.length;
    }
    report.changed = true;
    return report;
  }

  async markStale(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.#write((client) => client.query(MARK_STALE, [ids]));
  }

  async beginRetag(
    removed: readonly string[],
    changed: ReadonlyMap<string, string>,
    stale: 'all' | 'tagged',
    at: Date,
  ): Promise<void> {
    await this.#write(async (client) => {
      if (stale === 'all') await client.query(MARK_ALL_STALE);
      else await client.query(MARK_STALE_WITH_TOPICS, [[...removed, ...changed.keys()]]);
      for (const slug of removed) {
        await client.query(DELETE_TOPIC_TAGS, [slug]);
        await client.query(DELETE_TOPIC_STATE, [slug]);
      }
      for (const [topic, hash] of changed)
        await client.query(UPSERT_TOPIC_STATE, [topic, hash, at.toISOString()]);
    });
  }

  async afterRetag(tagged: number, papers: number): Promise<void> {
    if (tagged === 0 || tagged < VACUUM_FROM_SHARE * papers) return;
    await this.#pool.query(VACUUM_TAG_TABLES);
  }

  async tagsOf(paperId: string): Promise<PaperTag[]> {
    const { rows } = await this.#pool.query<{ topic: string; score: number; evidence: string }>(
      SELECT_PAPER_TAGS,
      [paperId],
    );
    return rows.map((r) => ({
      slug: r.topic,
      score: r.score,
      evidence: JSON.parse(r.evidence) as TagEvidence[],
    }));
  }
}
