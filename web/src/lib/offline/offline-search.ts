/**
 * Search over the papers this device keeps, for when the server cannot be reached. Loaded on demand (it
 * brings minisearch), never with a topic page. Answers in the server's shape, with the server's query
 * syntax and field weighting from core.
 */
import {
  AUTHOR_SEPARATOR,
  authorNamed,
  parseQuery,
  personCandidates,
  personNameKey,
  phraseTextOf,
  runSearch,
  toSearchResult,
  type SearchHit,
  type SearchResponseDto,
  type SearchResultDto,
  type SearchSort,
} from '@quire/core';
import type { PaperView } from '../api/types.ts';
import type { OfflineData, PaperChanges } from './offline-data.ts';
import { OfflineIndex } from './offline-index.ts';

/** What offline search needs of the kept data; `OfflineData` is the real one. */
export type OfflineSearchStore = Pick<
  OfflineData,
  | 'onPapersChanged'
  | 'getPapers'
  | 'paperIds'
  | 'paperIdsStoredSince'
  | 'readIndexSnapshot'
  | 'writeIndexSnapshot'
>;

export interface OfflineSearchOptions {
  /** The app build: an index saved by another build is rebuilt (see `IndexSnapshot.format`). */
  format: string;
  /** How long changes gather before the index is saved again (saving writes the whole index). */
  saveDelayMs?: number;
}

export interface OfflinePage {
  limit: number;
  offset: number;
  sort?: SearchSort;
}

/** Papers read from IndexedDB per batch while catching up. */
const CATCH_UP_BATCH = 500;

function resultOf(hit: SearchHit, paper: PaperView | undefined): SearchResultDto {
  return toSearchResult(
    hit,
    paper && { title: paper.title, abstract: paper.abstract, authorNames: paper.authors.map((a) => a.name) },
  );
}

export class OfflineSearch {
  readonly #data: OfflineSearchStore;
  readonly #format: string;
  readonly #saveDelayMs: number;
  #index: OfflineIndex | null = null;
  #loading: Promise<OfflineIndex> | null = null;
  /** Changes written while the index was loading, applied once it is. */
  #pending: PaperChanges[] = [];
  #saveTimer: ReturnType<typeof setTimeout> | null = null;
  #saving: Promise<void> = Promise.resolve();

  constructor(data: OfflineSearchStore, options: OfflineSearchOptions) {
    this.#data = data;
    this.#format = options.format;
    this.#saveDelayMs = options.saveDelayMs ?? 10_000;
  }

  /** Papers in the index (0 until it is loaded). */
  get size(): number {
    return this.#index?.size ?? 0;
  }

  /**
   * Loads the saved index and brings it up to date with the kept papers: only papers stored since it was
   * saved are indexed, papers evicted meanwhile are dropped. The first load on a device (or after an app
   * update) indexes everything kept.
   */
  ready(): Promise<OfflineIndex> {
    this.#loading ??= this.#load();
    return this.#loading;
  }

  async #load(): Promise<OfflineIndex> {
    // Listen before reading, so nothing stored while the index loads is missed.
    this.#data.onPapersChanged((changes) => {
      if (this.#index) this.#apply(this.#index, changes);
      else this.#pending.push(changes);
    });
    const index = OfflineIndex.restore(this.#format, await this.#data.readIndexSnapshot());
    const [kept, since] = await Promise.all([
      this.#data.paperIds(),
      this.#data.paperIdsStoredSince(index.watermark),
    ]);
    const plan = index.plan(kept, since);
    index.remove(plan.discard);
    for (let i = 0; i < plan.index.length; i += CATCH_UP_BATCH) {
      const records = await this.#data.getPapers(plan.index.slice(i, i + CATCH_UP_BATCH));
      index.upsert([...records.values()]);
    }
    for (const changes of this.#pending) this.#apply(index, changes);
    this.#pending = [];
    this.#index = index;
    if (index.dirty) this.#scheduleSave();
    return index;
  }

  /** Runs `text` (core's query syntax) over the kept papers. Throws CoreError for a malformed filter. */
  async search(text: string, page: OfflinePage): Promise<SearchResponseDto> {
    const { index } = await this.ready();
    const query = parseQuery(text);
    // Phrases need the papers' words in order, which the index does not keep: read the candidates'.
    let phraseText: ((id: string) => string | undefined) | undefined;
    if (query.phrases.length > 0) {
      const candidates = runSearch(index, query, { limit: Number.MAX_SAFE_INTEGER, offset: 0 });
      const records = await this.#data.getPapers(candidates.results.map((r) => r.id));
      const texts = new Map<string, string>();
      for (const [id, { paper }] of records) {
        const authors = paper.authors.map((a) => a.name).join(AUTHOR_SEPARATOR);
        texts.set(id, phraseTextOf({ title: paper.title, abstract: paper.abstract, authors }));
      }
      phraseText = (id) => texts.get(id);
    }
    // A name search lists first the papers with an author of that whole name: read the candidates' names.
    const candidates = await this.#data.getPapers(personCandidates(index, query));
    const authorNames = (id: string) => candidates.get(id)?.paper.authors.map((a) => a.name);
    const sort = page.sort ?? 'relevance';
    const options = { limit: page.limit, offset: page.offset, sort, phraseText, authorNames };
    const run = runSearch(index, query, options);
    const papers = await this.#data.getPapers(run.results.map((r) => r.id));
    const person = run.byAuthor > 0 ? personNameKey(query) : null;
    const results = run.results.map((hit, i) => {
      const paper = papers.get(hit.id)?.paper;
      const result = resultOf(hit, paper);
      const named = person !== null && page.offset + i < run.byAuthor && paper;
      const authorMatch = named
        ? authorNamed(
            paper.authors.map((a) => a.name),
            person,
          )
        : undefined;
      return authorMatch ? { ...result, authorMatch } : result;
    });
    return {
      query,
      total: run.total,
      matchedAllTerms: run.matchedAllTerms,
      sort,
      exact: run.exact,
      byAuthor: person !== null ? { name: query.text, papers: run.byAuthor } : null,
      results,
    };
  }

  /** Saves the index now if it changed (and waits for a save already under way). */
  async flush(): Promise<void> {
    if (this.#saveTimer !== null) clearTimeout(this.#saveTimer);
    this.#saveTimer = null;
    const index = this.#index;
    this.#saving = this.#saving.then(async () => {
      if (!index?.dirty) return;
      index.dirty = false;
      if (!(await this.#data.writeIndexSnapshot(index.snapshot()))) index.dirty = true;
    });
    await this.#saving;
  }

  #apply(index: OfflineIndex, changes: PaperChanges): void {
    index.remove(changes.deleted);
    index.upsert(changes.stored);
    this.#scheduleSave();
  }

  /**
   * Saving serialises the whole index (some 2 MB per 1,000 papers), a noticeable pause: it waits until
   * changes have settled for a while, then for a moment the browser is idle.
   */
  #scheduleSave(): void {
    if (this.#saveTimer !== null) return;
    this.#saveTimer = setTimeout(() => {
      if (typeof requestIdleCallback === 'function') {
        requestIdleCallback(() => void this.flush(), { timeout: this.#saveDelayMs });
      } else void this.flush();
    }, this.#saveDelayMs);
  }
}

const searches = new WeakMap<OfflineData, OfflineSearch>();

/** The one offline search over `data` in this page, so every caller shares one loaded index. */
export function offlineSearchFor(data: OfflineData, options: OfflineSearchOptions): OfflineSearch {
  let search = searches.get(data);
  if (!search) searches.set(data, (search = new OfflineSearch(data, options)));
  return search;
}
