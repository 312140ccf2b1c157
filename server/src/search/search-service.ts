import {
  AUTHOR_SEPARATOR,
  findRelated,
  parseQuery,
  phraseTextOf,
  runSearch,
  toSearchResult,
  RESULT_AUTHORS_SHOWN,
  type Author,
  type ParsedQuery,
  type RelatedPapersDto,
  type SearchDoc,
  type SearchResponseDto,
  type Taxonomy,
  topicSpecificity,
} from '@quire/core';
import type { Database } from 'better-sqlite3';
import type MiniSearch from 'minisearch';
import { QuireError, errorMessage } from '../errors.ts';
import { IndexBuild, searchDocOf, type BuiltIndex } from './search-index-build.ts';
import { SearchSource } from './search-source.ts';

export interface SearchPage {
  limit: number;
  offset: number;
}

export interface IndexReport {
  mode: 'build' | 'incremental';
  /** Papers (re)indexed by this call. */
  papers: number;
  durationMs: number;
}

/** What the API needs of search; `SearchService` is the real one. */
export interface SearchApi {
  search(q: string, page: SearchPage): Promise<SearchResponseDto>;
  /** Papers like the stored paper `id`; `topicSizes` gives each topic's paper count (rare topics weigh more). */
  related(id: string, limit: number, topicSizes: ReadonlyMap<string, number>): Promise<RelatedPapersDto>;
}

export interface SearchServiceOptions {
  /** Milliseconds from any fixed origin, for the reports. */
  now?: () => number;
  log?: (line: string) => void;
}

/** Papers per slice of a background build: ~50 ms of work, so requests are not kept waiting long. */
const BACKGROUND_SLICE = 250;
const BLOCKING_SLICE = 5000;

/**
 * Full-text search over the whole store, with the index, query syntax and weighting of @quire/core. The
 * index lives in memory. It is built once (in slices, so the server answers meanwhile), then kept up to
 * date from the rows written since: rebuilding the corpus takes several seconds, re-indexing a harvest's
 * papers a few milliseconds.
 */
export class SearchService implements SearchApi {
  readonly #taxonomy: Taxonomy;
  readonly #source: SearchSource;
  readonly #now: () => number;
  readonly #log: (line: string) => void;
  #index: MiniSearch<SearchDoc> | null = null;
  /** Phrase texts made on demand (a phrase query checks its candidates), dropped when a paper changes. */
  readonly #phraseTexts = new Map<string, string>();
  /** The newest `updated_at` when the index was last brought up to date; later rows are read next time. */
  #watermark = '';
  /** The watermark at the last `refresh` or build: the next `refresh` re-reads everything from here. */
  #settled = '';
  /** Ids already indexed with exactly the watermark's `updated_at`: a refresh skips them. */
  #atWatermark = new Set<string>();
  #seenVersion = -1;
  #building: Promise<void> | null = null;
  #pendingRefresh: { full: boolean } | null = null;
  #failure: unknown = null;
  #closed = false;

  constructor(db: Database, taxonomy: Taxonomy, options: SearchServiceOptions = {}) {
    this.#taxonomy = taxonomy;
    this.#source = new SearchSource(db);
    this.#now = options.now ?? (() => performance.now());
    this.#log = options.log ?? (() => {});
  }

  /** Papers in the index; 0 until the first build finishes. */
  get size(): number {
    return this.#index?.documentCount ?? 0;
  }

  /** Indexes every stored paper from scratch, blocking until done (tests, benchmarks). */
  build(): IndexReport {
    const started = this.#now();
    const build = new IndexBuild(this.#source, this.#taxonomy);
    while (!build.step(BLOCKING_SLICE));
    const built = build.finish();
    this.#install(built);
    return { mode: 'build', papers: built.index.documentCount, durationMs: this.#now() - started };
  }

  /**
   * Builds the index a slice at a time, letting the event loop run between slices. Searches wait for it;
   * refreshes asked for meanwhile run when it is done.
   */
  buildInBackground(): Promise<void> {
    if (this.#building) return this.#building;
    // `.then` runs on a later turn, so `#building` is always set before it is cleared.
    const building = this.#buildSliced().then(() => {
      this.#building = null;
      return this.#afterBuild();
    });
    this.#building = building;
    return building;
  }

  async #buildSliced(): Promise<void> {
    const started = this.#now();
    try {
      const build = new IndexBuild(this.#source, this.#taxonomy);
      while (!build.step(BACKGROUND_SLICE)) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        if (this.#closed) return;
      }
      this.#install(build.finish());
      this.#failure = null;
      this.#log(`search: indexed ${this.size} papers in ${Math.round(this.#now() - started)} ms`);
    } catch (err) {
      if (this.#closed) return;
      this.#failure = err;
      this.#log(`search: building the index failed: ${errorMessage(err)}`);
    }
  }

  async #afterBuild(): Promise<void> {
    const pending = this.#pendingRefresh;
    this.#pendingRefresh = null;
    if (!pending || this.#closed) return;
    if (pending.full) await this.buildInBackground();
    else this.refresh();
  }

  /** Stops a background build; call before closing the store. */
  close(): void {
    this.#closed = true;
  }

  /**
   * Re-indexes the papers written since the last `refresh` (or build): the writer calls it once its papers
   * and their tags are both stored. Papers already re-indexed in between (a search noticed another
   * connection's commit before the tags were written) are indexed again, now with their tags. `full`
   * rebuilds instead (in the background, the current index answering meanwhile), for tags that changed
   * without their papers changing: a topic definition re-tagged over the whole store.
   */
  refresh(options: { full?: boolean } = {}): IndexReport {
    const full = options.full ?? false;
    if (this.#building) {
      this.#pendingRefresh = { full: full || (this.#pendingRefresh?.full ?? false) };
      return { mode: 'incremental', papers: 0, durationMs: 0 };
    }
    // No index yet (the first build failed) or tags moved under unchanged papers: build anew, without
    // holding up the harvest that asked.
    if (!this.#index || full) {
      void this.buildInBackground();
      return { mode: 'build', papers: 0, durationMs: 0 };
    }
    const report = this.#catchUp(this.#index, this.#settled);
    this.#settled = this.#watermark;
    return report;
  }

  /** Indexes rows written at or after `since`; rows already indexed at the watermark are skipped. */
  #catchUp(index: MiniSearch<SearchDoc>, since: string): IndexReport {
    const started = this.#now();
    this.#seenVersion = this.#source.dataVersion();
    const skipSeen = since === this.#watermark;
    const rows = this.#source
      .rowsSince(since)
      .filter((row) => !skipSeen || row.updated_at !== since || !this.#atWatermark.has(row.id));
    if (rows.length > 0) {
      const tags = this.#source.tagsSince(since, this.#taxonomy);
      for (const row of rows) {
        const doc = searchDocOf(row, tags.get(row.id) ?? []);
        if (index.has(row.id)) index.replace(doc);
        else index.add(doc);
        this.#phraseTexts.delete(row.id);
        if (row.updated_at > this.#watermark) {
          this.#watermark = row.updated_at;
          this.#atWatermark = new Set();
        }
        if (row.updated_at === this.#watermark) this.#atWatermark.add(row.id);
      }
    }
    return { mode: 'incremental', papers: rows.length, durationMs: this.#now() - started };
  }

  /** Answers from the current index; only the very first build is waited for. */
  async search(q: string, page: SearchPage): Promise<SearchResponseDto> {
    if (!this.#index) {
      if (!this.#building && !this.#failure) void this.buildInBackground();
      if (this.#building) await this.#building;
    }
    return this.searchNow(q, page);
  }

  /** `search` on the index as it is now, without waiting for a build in progress (benchmarks). */
  searchNow(q: string, page: SearchPage): SearchResponseDto {
    const index = this.#ready();
    // Another process (a CLI import beside the server) may have written papers; SQLite says so cheaply.
    if (this.#source.dataVersion() !== this.#seenVersion && !this.#building) {
      this.#catchUp(index, this.#watermark);
    }
    const query = parseQuery(q);
    this.#checkTopics(query);
    const run = runSearch(index, query, {
      limit: page.limit,
      offset: page.offset,
      phraseText: (id) => this.#phraseText(id),
    });
    const rows = this.#source.pageRows(run.results.map((r) => r.id));
    const results = run.results.map((hit) => {
      const row = rows.get(hit.id);
      return toSearchResult(
        hit,
        row && {
          title: row.title,
          abstract: row.abstract,
          authorNames: (JSON.parse(row.authors) as Author[]).map((a) => a.name),
        },
      );
    });
    return { query, total: run.total, matchedAllTerms: run.matchedAllTerms, results };
  }

  async related(
    id: string,
    limit: number,
    topicSizes: ReadonlyMap<string, number>,
  ): Promise<RelatedPapersDto> {
    if (!this.#index && this.#building) await this.#building;
    const index = this.#ready();
    const self = this.#source.textRow(id);
    if (!self)
      throw new QuireError('not-found', `No paper ${id} is stored, so nothing is related to it.`, 404);
    const specificity = (slug: string) => topicSpecificity(topicSizes.get(slug) ?? 0, index.documentCount);
    const hits = findRelated(index, self, specificity, limit);
    const rows = this.#source.pageRows(hits.map((h) => h.id));
    const results = hits.flatMap((hit) => {
      const stored = index.getStoredFields(hit.id);
      const row = rows.get(hit.id);
      if (!stored || !row) return [];
      const authors = (JSON.parse(row.authors) as Author[]).map((a) => a.name);
      return [
        {
          id: hit.id,
          title: row.title,
          listingDate: (stored.listingDate as string | null) ?? null,
          primaryCategory: String(stored.primaryCategory),
          authors: authors.slice(0, RESULT_AUTHORS_SHOWN),
          authorCount: authors.length,
          score: hit.score,
          sharedTopics: hit.sharedTopics.map((slug) => ({
            slug,
            name: this.#taxonomy.bySlug.get(slug)?.name ?? slug,
          })),
        },
      ];
    });
    return { id, results };
  }

  #ready(): MiniSearch<SearchDoc> {
    if (this.#index) return this.#index;
    if (this.#failure) {
      throw new QuireError(
        'store-error',
        `The search index could not be built (${errorMessage(this.#failure)}); see the server log.`,
        500,
      );
    }
    // Nothing built yet and nothing building: build now rather than answer wrongly.
    this.build();
    if (!this.#index) throw new Error('unreachable: build installs an index');
    return this.#index;
  }

  #install(built: BuiltIndex): void {
    this.#index = built.index;
    this.#watermark = built.watermark;
    this.#settled = built.watermark;
    this.#atWatermark = built.atWatermark;
    this.#seenVersion = built.version;
    this.#phraseTexts.clear();
  }

  #phraseText(id: string): string | undefined {
    let text = this.#phraseTexts.get(id);
    if (text === undefined) {
      const row = this.#source.textRow(id);
      if (!row) return undefined;
      const authors = (JSON.parse(row.authors) as Author[]).map((a) => a.name).join(AUTHOR_SEPARATOR);
      text = phraseTextOf({ title: row.title, abstract: row.abstract, authors });
      this.#phraseTexts.set(id, text);
    }
    return text;
  }

  #checkTopics(query: ParsedQuery): void {
    for (const slug of query.topics) {
      if (!this.#taxonomy.bySlug.has(slug)) {
        throw new QuireError(
          'bad-input',
          `The topic: filter names "${slug}", which is not a topic; GET /api/topics lists them.`,
          400,
        );
      }
    }
  }
}
