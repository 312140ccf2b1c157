import {
  MAX_QUERY_CHARS,
  answerSentences,
  computeMomentum,
  momentumDays,
  type AnswerSentence,
  type AskablePaper,
  isYmd,
  risingScore,
  withAncestors,
  type Taxonomy,
  type TopicDetail,
  type TopicSummary,
  type TopicTag,
} from '@quire/core';

export type { TopicDetail, TopicSummary } from '@quire/core';
import type { Database, Statement } from 'better-sqlite3';
import { QuireError } from '../errors.ts';
import { TagStore, closureKey, closureRows } from './tag-store.ts';

// A topic's papers are its own tags plus those of every narrower topic, each paper once. The store keeps
// that closure and its counts per listing day (migration topic-counts), so a topic is a few index reads.
const TOPIC_DAYS = `
SELECT listing_date AS day, n FROM topic_day_counts WHERE topic = ? AND listing_date BETWEEN ? AND ?`;
const TOPIC_TOTAL = `SELECT COALESCE(SUM(n), 0) FROM topic_day_counts WHERE topic = ? AND listing_date <= ?`;
const TOPIC_LATEST = `
SELECT paper_id FROM paper_topics WHERE topic = ? AND listing_date <= ?
ORDER BY listing_date DESC, paper_id DESC`;

// The same from the tags themselves, while the counts follow another hierarchy than this taxonomy's (a
// store from before the counts until its first re-tag, or one last tagged with another taxonomy).
const SCAN_TOPIC_DAILY = `
SELECT p.listing_date AS day, COUNT(DISTINCT p.id) AS n
FROM paper_tags t JOIN papers p ON p.id = t.paper_id
WHERE t.topic IN (SELECT value FROM json_each(?)) AND p.listing_date IS NOT NULL AND p.listing_date <= ?
GROUP BY p.listing_date`;
const SCAN_TOPIC_PAPER_IDS = `
SELECT DISTINCT p.id, p.listing_date
FROM paper_tags t JOIN papers p ON p.id = t.paper_id
WHERE t.topic IN (SELECT value FROM json_each(?)) AND p.listing_date IS NOT NULL AND p.listing_date <= ?
ORDER BY p.listing_date DESC, p.id DESC`;

const PAPER_TEXTS = `
SELECT id, title, abstract, listing_date AS listingDate FROM papers WHERE id IN (SELECT value FROM json_each(?))`;

/** How many of a topic's newest papers "Ask about this topic" reads. */
const ASK_PAPERS = 1500;

const ALL_DAYS = `SELECT listing_date AS day, n FROM day_counts WHERE listing_date BETWEEN ? AND ?`;
const LATEST_DAY = `SELECT MAX(listing_date) FROM day_counts`;
const FIRST_DAY = `SELECT MIN(listing_date) FROM day_counts`;

/** What momentum needs from the whole store, read once per answer and shared by every topic in it. */
interface StoreDays {
  /** The days momentum reads, as-of day included: topic counts are read over the same range. */
  from: string;
  allDaily: Map<string, number>;
  firstListingDay: string | null;
  /** True when the stored counts follow this taxonomy's hierarchy; false: count from the tags. */
  counted: boolean;
}

export interface TopicQuery {
  /** YYYY-MM-DD; default the latest listing day in the store. */
  asOf?: string;
  weeks?: number;
}

/** Topic momentum and tags read from the store for one taxonomy. */
export class TopicService {
  readonly #taxonomy: Taxonomy;
  readonly #tags: TagStore;
  readonly #topicDays: Statement<[string, string, string], { day: string; n: number }>;
  readonly #topicTotal: Statement<[string, string], number>;
  readonly #topicLatest: Statement<[string, string], string>;
  readonly #scanDaily: Statement<[string, string], { day: string; n: number }>;
  readonly #scanPaperIds: Statement<[string, string], { id: string }>;
  readonly #allDays: Statement<[string, string], { day: string; n: number }>;
  /** This taxonomy's hierarchy as the store would hold it, and whether it does (per data version). */
  readonly #closureKey: string;
  #counted: boolean | null = null;
  readonly #latest: Statement<[], string | null>;
  readonly #first: Statement<[], string | null>;
  readonly #closure = new Map<string, string>();
  readonly #dataVersion: Statement<[], number>;
  readonly #paperTexts: Statement<[string], AskablePaper>;
  /** Answers per query, valid while the data they were computed from is unchanged. */
  readonly #cache = new Map<string, TopicSummary[] | TopicDetail>();
  #cacheKey = '';
  #generation = 0;

  constructor(db: Database, taxonomy: Taxonomy) {
    this.#taxonomy = taxonomy;
    this.#tags = new TagStore(db);
    this.#topicDays = db.prepare(TOPIC_DAYS);
    this.#topicTotal = db.prepare<[string, string], number>(TOPIC_TOTAL).pluck();
    this.#topicLatest = db.prepare<[string, string], string>(TOPIC_LATEST).pluck();
    this.#scanDaily = db.prepare(SCAN_TOPIC_DAILY);
    this.#scanPaperIds = db.prepare(SCAN_TOPIC_PAPER_IDS);
    this.#allDays = db.prepare(ALL_DAYS);
    this.#closureKey = closureKey(closureRows(taxonomy));
    this.#latest = db.prepare<[], string | null>(LATEST_DAY).pluck();
    this.#first = db.prepare<[], string | null>(FIRST_DAY).pluck();
    this.#dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
    this.#paperTexts = db.prepare(PAPER_TEXTS);
  }

  /** Call after this connection writes papers or tags; other connections' commits are noticed by SQLite. */
  invalidate(): void {
    this.#generation += 1;
  }

  private cached<T extends TopicSummary[] | TopicDetail>(key: string, compute: () => T): T {
    // data_version changes when another connection (a CLI import next to the server) commits.
    const version = `${this.#dataVersion.get() ?? 0}:${this.#generation}`;
    if (version !== this.#cacheKey) {
      this.#cache.clear();
      this.#counted = null;
      this.#cacheKey = version;
    }
    const hit = this.#cache.get(key) as T | undefined;
    if (hit) return hit;
    const value = compute();
    if (this.#cache.size > 500) this.#cache.clear();
    this.#cache.set(key, value);
    return value;
  }

  get taxonomy(): Taxonomy {
    return this.#taxonomy;
  }

  /** The slug and every narrower slug, as a JSON array for json_each. */
  private closure(slug: string): string {
    let cached = this.#closure.get(slug);
    if (!cached) {
      const seen = new Set<string>([slug]);
      const queue = [slug];
      for (let s = queue.shift(); s !== undefined; s = queue.shift()) {
        for (const child of this.#taxonomy.children.get(s) ?? []) {
          if (!seen.has(child)) {
            seen.add(child);
            queue.push(child);
          }
        }
      }
      cached = JSON.stringify([...seen]);
      this.#closure.set(slug, cached);
    }
    return cached;
  }

  private resolveAsOf(asOf: string | undefined): string {
    if (asOf !== undefined) {
      if (!isYmd(asOf))
        throw new QuireError('bad-input', `The as-of date must look like 2026-05-08, not "${asOf}".`, 400);
      return asOf;
    }
    const latest = this.#latest.get();
    if (!latest) {
      throw new QuireError(
        'not-found',
        'The store has no listed papers yet, so there is no momentum to show. Import or harvest first.',
        404,
      );
    }
    return latest;
  }

  private topicSpec(slug: string) {
    const spec = this.#taxonomy.bySlug.get(slug);
    if (!spec) {
      throw new QuireError(
        'not-found',
        `There is no topic "${slug}". \`pnpm quire topics\` or GET /api/topics lists them.`,
        404,
      );
    }
    return spec;
  }

  /** Whether the stored counts follow this taxonomy's hierarchy; read once per data version. */
  private counted(): boolean {
    this.#counted ??= closureKey(this.#tags.storedClosure()) === this.#closureKey;
    return this.#counted;
  }

  private topicDays(
    slug: string,
    asOf: string,
    store: StoreDays,
  ): { daily: Map<string, number>; total: number } {
    const daily = new Map<string, number>();
    if (store.counted) {
      for (const row of this.#topicDays.all(slug, store.from, asOf)) daily.set(row.day, row.n);
      return { daily, total: this.#topicTotal.get(slug, asOf) ?? 0 };
    }
    let total = 0;
    for (const row of this.#scanDaily.all(this.closure(slug), asOf)) {
      daily.set(row.day, row.n);
      total += row.n;
    }
    return { daily, total };
  }

  /** The topic's papers listed by `asOf`, newest first (ties by id, highest first). */
  private paperIds(slug: string, asOf: string, store: StoreDays): string[] {
    if (store.counted) return this.#topicLatest.all(slug, asOf);
    return this.#scanPaperIds.all(this.closure(slug), asOf).map((r) => r.id);
  }

  private summary(slug: string, asOf: string, weeks: number | undefined, store: StoreDays): TopicSummary {
    const spec = this.topicSpec(slug);
    const { daily, total } = this.topicDays(slug, asOf, store);
    const momentum = computeMomentum({
      asOf,
      topicDaily: daily,
      allDaily: store.allDaily,
      firstListingDay: store.firstListingDay,
      total,
      ...(weeks !== undefined ? { weeks } : {}),
    });
    return {
      slug,
      name: spec.name,
      acronyms: spec.acronyms,
      description: spec.description,
      parents: spec.parents,
      children: [...(this.#taxonomy.children.get(slug) ?? [])],
      asOf,
      momentum,
      rising: risingScore({ slug, ...momentum }),
    };
  }

  private storeDays(asOf: string, weeks: number | undefined): StoreDays {
    const { from } = momentumDays(asOf, weeks);
    return {
      from,
      allDaily: new Map(this.#allDays.all(from, asOf).map((r) => [r.day, r.n])),
      firstListingDay: this.#first.get() ?? null,
      counted: this.counted(),
    };
  }

  topic(slug: string, query: TopicQuery = {}): TopicDetail {
    this.topicSpec(slug);
    const asOf = this.resolveAsOf(query.asOf);
    return this.cached(`topic:${slug}:${asOf}:${query.weeks ?? ''}`, () => {
      const store = this.storeDays(asOf, query.weeks);
      return { ...this.summary(slug, asOf, query.weeks, store), paperIds: this.paperIds(slug, asOf, store) };
    });
  }

  /** Every topic in taxonomy order. */
  topics(query: TopicQuery = {}): TopicSummary[] {
    const asOf = this.resolveAsOf(query.asOf);
    return this.cached(`topics:${asOf}:${query.weeks ?? ''}`, () => {
      const store = this.storeDays(asOf, query.weeks);
      return this.#taxonomy.topics.map((t) => this.summary(t.slug, asOf, query.weeks, store));
    });
  }

  /**
   * "Ask about this topic": the sentences of the topic's newest abstracts that best match the question,
   * each citing its paper. Retrieval only; nothing is generated.
   */
  ask(
    slug: string,
    question: string,
    limit = 5,
  ): { slug: string; question: string; papersRead: number; answers: AnswerSentence[] } {
    if (question.trim() === '')
      throw new QuireError('bad-input', 'Ask a question, e.g. ?q=how is credit assigned across turns', 400);
    // The same bound as a search: each word of the question is matched against every sentence read.
    if (question.length > MAX_QUERY_CHARS) {
      throw new QuireError(
        'bad-input',
        `A question can be at most ${MAX_QUERY_CHARS} characters long (this one has ${question.length}); ask it in fewer words.`,
        400,
      );
    }
    const ids = this.topic(slug).paperIds.slice(0, ASK_PAPERS);
    const papers = this.#paperTexts.all(JSON.stringify(ids));
    return { slug, question, papersRead: papers.length, answers: answerSentences(question, papers, limit) };
  }

  /** A paper's tags with the broader topics they imply, broad to narrow. */
  paperTags(id: string): TopicTag[] {
    return withAncestors(this.#taxonomy, this.#tags.tagsOf(id));
  }
}
