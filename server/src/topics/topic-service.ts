import {
  MAX_QUERY_CHARS,
  answerSentences,
  computeMomentum,
  momentumDays,
  type AnswerSentence,
  isYmd,
  risingScore,
  withAncestors,
  type Taxonomy,
  type TopicDetail,
  type TopicSummary,
  type TopicTag,
} from '@quire/core';

export type { TopicDetail, TopicSummary } from '@quire/core';
import { QuireError } from '../errors.ts';
import { closureKey, closureRows, type TagStore } from '../store/tag-store.ts';
import type { TopicCountsStore } from '../store/topic-counts-store.ts';

/** How many of a topic's newest papers "Ask about this topic" reads. */
const ASK_PAPERS = 1500;
/**
 * A topic's newest papers listed at most (its page shows them 20 at a time; momentum.total counts them
 * all). Reading every id made the largest topic's answer 728,500 ids at 100 times the corpus; this is
 * above any topic of the corpus itself (the largest holds 7,285).
 */
export const TOPIC_PAPERS_LISTED = 10_000;

/** One topic's listed papers per day over the days momentum reads, and in all by the as-of day. */
interface TopicCounts {
  daily: Map<string, number>;
  total: number;
}

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

/** What the topic service reads tags from. */
export type TopicTagReads = Pick<TagStore, 'storedClosure' | 'tagsOf'>;

/** Topic momentum and tags read from the store for one taxonomy. */
export class TopicService {
  readonly #taxonomy: Taxonomy;
  readonly #tags: TopicTagReads;
  readonly #counts: TopicCountsStore;
  /** This taxonomy's hierarchy as the store would hold it, and whether it does (per data version). */
  readonly #closureKey: string;
  #counted: boolean | null = null;
  readonly #closure = new Map<string, string[]>();
  /** Answers per query, valid while the data they were computed from is unchanged. */
  readonly #cache = new Map<string, TopicSummary[] | TopicDetail>();
  #cacheKey = '';
  #generation = 0;

  constructor(tags: TopicTagReads, counts: TopicCountsStore, taxonomy: Taxonomy) {
    this.#taxonomy = taxonomy;
    this.#tags = tags;
    this.#counts = counts;
    this.#closureKey = closureKey(closureRows(taxonomy));
  }

  /** Call after this connection writes papers or tags; other connections' commits are noticed by the store. */
  invalidate(): void {
    this.#generation += 1;
  }

  private async cached<T extends TopicSummary[] | TopicDetail>(
    key: string,
    compute: () => Promise<T>,
  ): Promise<T> {
    // The change stamp moves when another connection (a CLI import next to the server) commits.
    const version = `${await this.#counts.changeStamp()}:${this.#generation}`;
    if (version !== this.#cacheKey) {
      this.#cache.clear();
      this.#counted = null;
      this.#cacheKey = version;
    }
    const hit = this.#cache.get(key) as T | undefined;
    if (hit) return hit;
    const value = await compute();
    // Kept only if nothing was committed meanwhile (another request may have seen a newer stamp).
    if (this.#cacheKey === version) {
      if (this.#cache.size > 500) this.#cache.clear();
      this.#cache.set(key, value);
    }
    return value;
  }

  get taxonomy(): Taxonomy {
    return this.#taxonomy;
  }

  /** The slug and every narrower slug. */
  private closure(slug: string): string[] {
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
      cached = [...seen];
      this.#closure.set(slug, cached);
    }
    return cached;
  }

  private async resolveAsOf(asOf: string | undefined): Promise<string> {
    if (asOf !== undefined) {
      if (!isYmd(asOf))
        throw new QuireError('bad-input', `The as-of date must look like 2026-05-08, not "${asOf}".`);
      return asOf;
    }
    const latest = await this.#counts.latestDay();
    if (!latest) {
      throw new QuireError(
        'not-found',
        'The store has no listed papers yet, so there is no momentum to show. Import or harvest first.',
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
      );
    }
    return spec;
  }

  /** Whether the stored counts follow this taxonomy's hierarchy; read once per data version. */
  private async counted(): Promise<boolean> {
    this.#counted ??= closureKey(await this.#tags.storedClosure()) === this.#closureKey;
    return this.#counted;
  }

  private async topicDays(slug: string, asOf: string, store: StoreDays): Promise<TopicCounts> {
    const daily = new Map<string, number>();
    if (store.counted) {
      for (const row of await this.#counts.topicDays(slug, store.from, asOf)) daily.set(row.day, row.n);
      return { daily, total: await this.#counts.topicTotal(slug, asOf) };
    }
    let total = 0;
    for (const row of await this.#counts.scanTopicDays(this.closure(slug), asOf)) {
      daily.set(row.day, row.n);
      total += row.n;
    }
    return { daily, total };
  }

  /**
   * Every topic's counts from the stored ones in two reads: one topic after another cost two round trips
   * a topic, 328 for the list, on PostgreSQL. Only while the counts follow this taxonomy's hierarchy.
   */
  private async everyTopicCounts(asOf: string, from: string): Promise<Map<string, TopicCounts>> {
    const { days, totals } = await this.#counts.everyTopicCounts(from, asOf);
    const byTopic = new Map<string, TopicCounts>();
    const of = (topic: string): TopicCounts => {
      let counts = byTopic.get(topic);
      if (!counts) {
        counts = { daily: new Map(), total: 0 };
        byTopic.set(topic, counts);
      }
      return counts;
    };
    for (const row of days) of(row.topic).daily.set(row.day, row.n);
    for (const row of totals) of(row.topic).total = row.n;
    return byTopic;
  }

  /** The topic's newest TOPIC_PAPERS_LISTED papers listed by `asOf`, newest first (ties by id, highest first). */
  private paperIds(slug: string, asOf: string, store: StoreDays): Promise<string[]> {
    if (store.counted) return this.#counts.topicLatest(slug, asOf, TOPIC_PAPERS_LISTED);
    return this.#counts.scanTopicLatest(this.closure(slug), asOf, TOPIC_PAPERS_LISTED);
  }

  private summary(
    slug: string,
    asOf: string,
    weeks: number | undefined,
    store: StoreDays,
    { daily, total }: TopicCounts,
  ): TopicSummary {
    const spec = this.topicSpec(slug);
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

  private async storeDays(asOf: string, weeks: number | undefined): Promise<StoreDays> {
    const { from } = momentumDays(asOf, weeks);
    // Side by side: on PostgreSQL each is a round trip.
    const [allDays, firstListingDay, counted] = await Promise.all([
      this.#counts.allDays(from, asOf),
      this.#counts.firstDay(),
      this.counted(),
    ]);
    return { from, allDaily: new Map(allDays.map((r) => [r.day, r.n])), firstListingDay, counted };
  }

  async topic(slug: string, query: TopicQuery = {}): Promise<TopicDetail> {
    this.topicSpec(slug);
    const asOf = await this.resolveAsOf(query.asOf);
    return this.cached(`topic:${slug}:${asOf}:${query.weeks ?? ''}`, async () => {
      const store = await this.storeDays(asOf, query.weeks);
      const summary = this.summary(slug, asOf, query.weeks, store, await this.topicDays(slug, asOf, store));
      return { ...summary, paperIds: await this.paperIds(slug, asOf, store) };
    });
  }

  /** Every topic in taxonomy order. */
  async topics(query: TopicQuery = {}): Promise<TopicSummary[]> {
    const asOf = await this.resolveAsOf(query.asOf);
    return this.cached(`topics:${asOf}:${query.weeks ?? ''}`, async () => {
      // Every topic's counts are asked beside the store's days, and dropped if the stored counts follow
      // another hierarchy than this taxonomy's (then each topic is counted from its tags); once that is
      // known, they are not asked at all.
      // The window is worked out first: a bad `weeks` then throws before any read is left unawaited.
      const from = momentumDays(asOf, query.weeks).from;
      const [store, everyTopic] = await Promise.all([
        this.storeDays(asOf, query.weeks),
        this.#counted === false ? null : this.everyTopicCounts(asOf, from),
      ]);
      const counts = store.counted && everyTopic ? everyTopic : null;
      const all: TopicSummary[] = [];
      for (const t of this.#taxonomy.topics) {
        const topic = counts
          ? (counts.get(t.slug) ?? { daily: new Map<string, number>(), total: 0 })
          : await this.topicDays(t.slug, asOf, store);
        all.push(this.summary(t.slug, asOf, query.weeks, store, topic));
      }
      return all;
    });
  }

  /**
   * "Ask about this topic": the sentences of the topic's newest abstracts that best match the question,
   * each citing its paper. Retrieval only; nothing is generated.
   */
  async ask(
    slug: string,
    question: string,
    limit = 5,
  ): Promise<{ slug: string; question: string; papersRead: number; answers: AnswerSentence[] }> {
    if (question.trim() === '')
      throw new QuireError('bad-input', 'Ask a question, e.g. ?q=how is credit assigned across turns');
    // The same bound as a search: each word of the question is matched against every sentence read.
    if (question.length > MAX_QUERY_CHARS) {
      throw new QuireError(
        'bad-input',
        `A question can be at most ${MAX_QUERY_CHARS} characters long (this one has ${question.length}); ask it in fewer words.`,
      );
    }
    const ids = (await this.topic(slug)).paperIds.slice(0, ASK_PAPERS);
    const papers = await this.#counts.askablePapers(ids);
    return { slug, question, papersRead: papers.length, answers: answerSentences(question, papers, limit) };
  }

  /** A paper's tags with the broader topics they imply, broad to narrow. */
  async paperTags(id: string): Promise<TopicTag[]> {
    return withAncestors(this.#taxonomy, await this.#tags.tagsOf(id));
  }
}
