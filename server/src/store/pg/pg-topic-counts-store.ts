import type { AskablePaper } from '@quire/core';
import type { DayCount, EveryTopicCounts, TopicCountsStore, TopicDayCount } from '../topic-counts-store.ts';
import type { PgPool } from './pg-pool.ts';

// SQLite's topic-count reads (topic-counts-store.ts) for PostgreSQL; the counts are kept by the triggers of
// pg-tag-schema.ts.
const TOPIC_DAYS = `
SELECT listing_date AS day, n FROM topic_day_counts WHERE topic = $1 AND listing_date BETWEEN $2 AND $3
ORDER BY listing_date`;
const TOPIC_TOTAL = `
SELECT coalesce(sum(n), 0)::integer AS n FROM topic_day_counts WHERE topic = $1 AND listing_date <= $2`;
// The same for every topic at once, for the topic list: two statements instead of two a topic. The days
// are read topic by topic along the primary key, as on SQLite (the topics found by hopping from one to the
// next), not by a pass over every topic's every day.
const EVERY_TOPIC_DAYS = `
WITH RECURSIVE topics (topic) AS (
  (SELECT topic FROM topic_day_counts ORDER BY topic LIMIT 1)
  UNION ALL
  SELECT (SELECT c.topic FROM topic_day_counts c WHERE c.topic > t.topic ORDER BY c.topic LIMIT 1)
  FROM topics t WHERE t.topic IS NOT NULL
)
SELECT c.topic, c.listing_date AS day, c.n
FROM topics t JOIN topic_day_counts c ON c.topic = t.topic AND c.listing_date BETWEEN $1 AND $2
ORDER BY c.topic, c.listing_date`;
const EVERY_TOPIC_TOTAL = `
SELECT topic, sum(n)::integer AS n FROM topic_day_counts WHERE listing_date <= $1 GROUP BY topic ORDER BY topic`;
const TOPIC_LATEST = `
SELECT paper_id FROM paper_topics WHERE topic = $1 AND listing_date <= $2
ORDER BY listing_date DESC, paper_id DESC LIMIT $3`;
const SCAN_TOPIC_DAILY = `
SELECT p.listing_date AS day, count(DISTINCT p.id)::integer AS n
FROM paper_tags t JOIN papers p ON p.id = t.paper_id
WHERE t.topic = ANY($1::text[]) AND p.listing_date IS NOT NULL AND p.listing_date <= $2
GROUP BY p.listing_date ORDER BY p.listing_date`;
const SCAN_TOPIC_PAPER_IDS = `
SELECT DISTINCT p.id, p.listing_date
FROM paper_tags t JOIN papers p ON p.id = t.paper_id
WHERE t.topic = ANY($1::text[]) AND p.listing_date IS NOT NULL AND p.listing_date <= $2
ORDER BY p.listing_date DESC, p.id DESC LIMIT $3`;
const ALL_DAYS = `
SELECT listing_date AS day, n FROM day_counts WHERE listing_date BETWEEN $1 AND $2 ORDER BY listing_date`;
const LATEST_DAY = `SELECT max(listing_date) AS day FROM day_counts`;
const FIRST_DAY = `SELECT min(listing_date) AS day FROM day_counts`;
const CHANGE_STAMP = `SELECT n::integer AS n FROM store_change WHERE id = 1`;
const PAPER_TEXTS = `
SELECT id, title, abstract, listing_date AS "listingDate" FROM papers WHERE id = ANY($1::text[])`;

export class PgTopicCountsStore implements TopicCountsStore {
  constructor(private readonly pool: PgPool) {}

  async #days(sql: string, params: unknown[]): Promise<DayCount[]> {
    return (await this.pool.query<DayCount>(sql, params)).rows;
  }

  async #day(sql: string): Promise<string | null> {
    return (await this.pool.query<{ day: string | null }>(sql)).rows[0]?.day ?? null;
  }

  async changeStamp(): Promise<number> {
    return (await this.pool.query<{ n: number }>(CHANGE_STAMP)).rows[0]?.n ?? 0;
  }

  latestDay(): Promise<string | null> {
    return this.#day(LATEST_DAY);
  }

  firstDay(): Promise<string | null> {
    return this.#day(FIRST_DAY);
  }

  allDays(from: string, to: string): Promise<DayCount[]> {
    return this.#days(ALL_DAYS, [from, to]);
  }

  topicDays(topic: string, from: string, to: string): Promise<DayCount[]> {
    return this.#days(TOPIC_DAYS, [topic, from, to]);
  }

  async topicTotal(topic: string, asOf: string): Promise<number> {
    return (await this.pool.query<{ n: number }>(TOPIC_TOTAL, [topic, asOf])).rows[0]?.n ?? 0;
  }

  async everyTopicCounts(from: string, asOf: string): Promise<EveryTopicCounts> {
    // Two statements over the pool side by side; each is one pass over the counts.
    const [days, totals] = await Promise.all([
      this.pool.query<TopicDayCount>(EVERY_TOPIC_DAYS, [from, asOf]),
      this.pool.query<{ topic: string; n: number }>(EVERY_TOPIC_TOTAL, [asOf]),
    ]);
    return { days: days.rows, totals: totals.rows };
  }

  async topicLatest(topic: string, asOf: string, limit: number): Promise<string[]> {
    const { rows } = await this.pool.query<{ paper_id: string }>(TOPIC_LATEST, [topic, asOf, limit]);
    return rows.map((r) => r.paper_id);
  }

  scanTopicDays(topics: readonly string[], asOf: string): Promise<DayCount[]> {
    return this.#days(SCAN_TOPIC_DAILY, [topics, asOf]);
  }

  async scanTopicLatest(topics: readonly string[], asOf: string, limit: number): Promise<string[]> {
    const { rows } = await this.pool.query<{ id: string }>(SCAN_TOPIC_PAPER_IDS, [topics, asOf, limit]);
    return rows.map((r) => r.id);
  }

  async askablePapers(ids: readonly string[]): Promise<AskablePaper[]> {
    return (await this.pool.query<AskablePaper>(PAPER_TEXTS, [ids])).rows;
  }
}
