import type { AskablePaper } from '@quire/core';
import type { Database, Statement } from 'better-sqlite3';
import { settled } from './settled.ts';

// A topic's papers are its own tags plus those of every narrower topic, each paper once. The store keeps
// that closure and its counts per listing day (migration topic-counts), so a topic is a few index reads.
const TOPIC_DAYS = `
SELECT listing_date AS day, n FROM topic_day_counts WHERE topic = ? AND listing_date BETWEEN ? AND ?`;
const TOPIC_TOTAL = `SELECT COALESCE(SUM(n), 0) FROM topic_day_counts WHERE topic = ? AND listing_date <= ?`;
// The same for every topic at once, for the topic list: two reads instead of two a topic. The days are
// read topic by topic along the primary key (the topics found by hopping from one to the next): a range on
// listing_date alone scanned every topic's every day (639,100 rows at 100 times the corpus, 11,500 wanted).
const EVERY_TOPIC_DAYS = `
WITH RECURSIVE topics (topic) AS (
  SELECT MIN(topic) FROM topic_day_counts
  UNION ALL
  SELECT (SELECT MIN(c.topic) FROM topic_day_counts c WHERE c.topic > topics.topic) FROM topics
  WHERE topics.topic IS NOT NULL
)
SELECT c.topic, c.listing_date AS day, c.n
FROM topics JOIN topic_day_counts c ON c.topic = topics.topic AND c.listing_date BETWEEN ? AND ?
ORDER BY c.topic, c.listing_date`;
const EVERY_TOPIC_TOTAL = `
SELECT topic, SUM(n) AS n FROM topic_day_counts WHERE listing_date <= ? GROUP BY topic ORDER BY topic`;
// Read backwards along paper_topics_latest and stopped at the limit: a topic of 400,000 papers costs as
// little as one of 400.
const TOPIC_LATEST = `
SELECT paper_id FROM paper_topics WHERE topic = ? AND listing_date <= ?
ORDER BY listing_date DESC, paper_id DESC LIMIT ?`;

// The same from the tags themselves, while the counts follow another hierarchy than the reader's taxonomy
// (a store from before the counts until its first re-tag, one last tagged with another taxonomy, or one
// whose hierarchy is being recorded batch by batch).
const SCAN_TOPIC_DAILY = `
SELECT p.listing_date AS day, COUNT(DISTINCT p.id) AS n
FROM paper_tags t JOIN papers p ON p.id = t.paper_id
WHERE t.topic IN (SELECT value FROM json_each(?)) AND p.listing_date IS NOT NULL AND p.listing_date <= ?
GROUP BY p.listing_date`;
const SCAN_TOPIC_PAPER_IDS = `
SELECT DISTINCT p.id, p.listing_date
FROM paper_tags t JOIN papers p ON p.id = t.paper_id
WHERE t.topic IN (SELECT value FROM json_each(?)) AND p.listing_date IS NOT NULL AND p.listing_date <= ?
ORDER BY p.listing_date DESC, p.id DESC LIMIT ?`;

const ALL_DAYS = `SELECT listing_date AS day, n FROM day_counts WHERE listing_date BETWEEN ? AND ?`;
const LATEST_DAY = `SELECT MAX(listing_date) FROM day_counts`;
const FIRST_DAY = `SELECT MIN(listing_date) FROM day_counts`;

const PAPER_TEXTS = `
SELECT id, title, abstract, listing_date AS listingDate FROM papers WHERE id IN (SELECT value FROM json_each(?))`;

/** SQLite's counter of commits by other connections to this file. */
const DATA_VERSION = `PRAGMA data_version`;

export interface DayCount {
  day: string;
  n: number;
}

export interface TopicDayCount extends DayCount {
  topic: string;
}

/** Every topic's stored counts at once (a topic with no counted paper is in neither list). */
export interface EveryTopicCounts {
  /** Listed papers per topic per day over the days asked, by topic then day. */
  days: TopicDayCount[];
  /** Listed papers per topic up to the as-of day, by topic. */
  totals: { topic: string; n: number }[];
}

/** What momentum and a topic's latest papers are read from: listed papers per topic per day, and per day. */
export interface TopicCountsStore {
  /** Changes whenever another connection commits, so answers computed before can be dropped. */
  changeStamp(): Promise<number>;
  latestDay(): Promise<string | null>;
  firstDay(): Promise<string | null>;
  /** Listed papers per day over the whole store, days `from`..`to` included. */
  allDays(from: string, to: string): Promise<DayCount[]>;
  /** From the stored counts, which follow the stored hierarchy. */
  topicDays(topic: string, from: string, to: string): Promise<DayCount[]>;
  topicTotal(topic: string, asOf: string): Promise<number>;
  /** topicDays and topicTotal of every topic in one answer (the topic list), from the stored counts. */
  everyTopicCounts(from: string, asOf: string): Promise<EveryTopicCounts>;
  /** The topic's newest `limit` papers listed by `asOf`, newest first (ties by id, highest first). */
  topicLatest(topic: string, asOf: string, limit: number): Promise<string[]>;
  /** Papers per day holding a tag of any of `topics` (a topic and its narrower ones), from the tags. */
  scanTopicDays(topics: readonly string[], asOf: string): Promise<DayCount[]>;
  scanTopicLatest(topics: readonly string[], asOf: string, limit: number): Promise<string[]>;
  /** The texts "ask about this topic" reads. */
  askablePapers(ids: readonly string[]): Promise<AskablePaper[]>;
}

export class SqliteTopicCountsStore implements TopicCountsStore {
  readonly #topicDays: Statement<[string, string, string], DayCount>;
  readonly #topicTotal: Statement<[string, string], number>;
  readonly #everyTopicDays: Statement<[string, string], TopicDayCount>;
  readonly #everyTopicTotal: Statement<[string], { topic: string; n: number }>;
  readonly #topicLatest: Statement<[string, string, number], string>;
  readonly #scanDaily: Statement<[string, string], DayCount>;
  readonly #scanPaperIds: Statement<[string, string, number], { id: string }>;
  readonly #allDays: Statement<[string, string], DayCount>;
  readonly #latest: Statement<[], string | null>;
  readonly #first: Statement<[], string | null>;
  readonly #dataVersion: Statement<[], number>;
  readonly #paperTexts: Statement<[string], AskablePaper>;

  constructor(db: Database) {
    this.#topicDays = db.prepare(TOPIC_DAYS);
    this.#topicTotal = db.prepare<[string, string], number>(TOPIC_TOTAL).pluck();
    this.#everyTopicDays = db.prepare(EVERY_TOPIC_DAYS);
    this.#everyTopicTotal = db.prepare(EVERY_TOPIC_TOTAL);
    this.#topicLatest = db.prepare<[string, string, number], string>(TOPIC_LATEST).pluck();
    this.#scanDaily = db.prepare(SCAN_TOPIC_DAILY);
    this.#scanPaperIds = db.prepare(SCAN_TOPIC_PAPER_IDS);
    this.#allDays = db.prepare(ALL_DAYS);
    this.#latest = db.prepare<[], string | null>(LATEST_DAY).pluck();
    this.#first = db.prepare<[], string | null>(FIRST_DAY).pluck();
    this.#dataVersion = db.prepare<[], number>(DATA_VERSION).pluck();
    this.#paperTexts = db.prepare(PAPER_TEXTS);
  }

  changeStamp(): Promise<number> {
    return settled(() => this.#dataVersion.get() ?? 0);
  }

  latestDay(): Promise<string | null> {
    return settled(() => this.#latest.get() ?? null);
  }

  firstDay(): Promise<string | null> {
    return settled(() => this.#first.get() ?? null);
  }

  allDays(from: string, to: string): Promise<DayCount[]> {
    return settled(() => this.#allDays.all(from, to));
  }

  topicDays(topic: string, from: string, to: string): Promise<DayCount[]> {
    return settled(() => this.#topicDays.all(topic, from, to));
  }

  topicTotal(topic: string, asOf: string): Promise<number> {
    return settled(() => this.#topicTotal.get(topic, asOf) ?? 0);
  }

  everyTopicCounts(from: string, asOf: string): Promise<EveryTopicCounts> {
    return settled(() => ({
      days: this.#everyTopicDays.all(from, asOf),
      totals: this.#everyTopicTotal.all(asOf),
    }));
  }

  topicLatest(topic: string, asOf: string, limit: number): Promise<string[]> {
    return settled(() => this.#topicLatest.all(topic, asOf, limit));
  }

  scanTopicDays(topics: readonly string[], asOf: string): Promise<DayCount[]> {
    return settled(() => this.#scanDaily.all(JSON.stringify(topics), asOf));
  }

  scanTopicLatest(topics: readonly string[], asOf: string, limit: number): Promise<string[]> {
    return settled(() => this.#scanPaperIds.all(JSON.stringify(topics), asOf, limit).map((r) => r.id));
  }

  askablePapers(ids: readonly string[]): Promise<AskablePaper[]> {
    return settled(() => this.#paperTexts.all(JSON.stringify(ids)));
  }
}
