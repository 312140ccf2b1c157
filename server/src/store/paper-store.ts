import type { PaperEntity } from '@quire/core';
import type { Database, Statement } from 'better-sqlite3';
import { QuireError, errorMessage } from '../errors.ts';
import {
  COUNT_BY_LISTING_DAY,
  COUNT_BY_PRIMARY_CATEGORY,
  COUNT_PAPERS,
  CATEGORY_ROW_PARAMS,
  DELETE_PAPER_CATEGORIES,
  HAS_PAPER,
  INSERT_PAPER_CATEGORIES,
  LISTING_RANGE,
  PAPER_ROW_PARAMS,
  SELECT_BY_LISTING_DATE,
  SELECT_IDS,
  SELECT_IDS_IN_CATEGORY,
  SELECT_PAPER,
  UPSERT_PAPERS,
  paperRowValues,
  rowToPaper,
  type PaperRow,
} from './paper-queries.ts';
import { planPaperWrites, type PendingWrite } from './paper-merge.ts';
import { RowWriter } from './row-writer.ts';
import { SearchIndexWriter, type KnownTerms } from './search-index-schema.ts';
import { NewPaperTagWriter, type NewPaperTags } from './new-paper-tags.ts';
import { sameTaggedText, type KnownTags } from './tag-store.ts';

export interface UpsertOptions {
  /**
   * True when the source announces these papers as listed (a dump, an OAI record, an RSS new/cross item):
   * their listing date may set or correct the stored one. False for replacements, which update metadata only.
   */
  countsAsListing: boolean;
  /**
   * Search terms already worked out for these papers (an import computes them in its parse thread); the
   * index is the same without them, written more slowly.
   */
  knownTerms?: KnownTerms;
  /**
   * Tags already worked out for these papers (an import tags in its parse thread): written, in this
   * batch's transaction, for the papers stored here for the first time with the text they were made from;
   * every other paper stays stale for the re-tag.
   */
  knownTags?: KnownTags;
}

export interface UpsertCounts {
  inserted: number;
  updated: number;
  unchanged: number;
  /** Papers whose `knownTags` were written (only when some were given). */
  tagged?: number;
}

export interface PaperStats {
  papers: number;
  /** Ordered by count, largest first (ties by name). */
  byPrimaryCategory: Record<string, number>;
  firstListing: string | null;
  lastListing: string | null;
}

export interface PaperStoreOptions {
  now?: () => Date;
}

/**
 * Papers in SQLite, upserted by id with the merge rule of @quire/core. Every statement is prepared once here;
 * a large import parses in another thread (see ingest/prepare-thread.ts), so these writes set its pace.
 *
 * Atomic multi-part writes (a harvested page plus its checkpoint) go through `transaction`: calls to
 * `upsertBatch` inside it join the outer transaction, so everything commits together or not at all.
 */
export class PaperStore {
  readonly db: Database;
  readonly #now: () => Date;
  readonly #select: Statement<[string], PaperRow>;
  readonly #has: Statement<[string], unknown>;
  readonly #upsertRows: RowWriter;
  readonly #deleteCategories: Statement<[string], unknown>;
  readonly #insertCategories: RowWriter;
  readonly #count: Statement<[], number>;
  readonly #ids: Statement<[], string>;
  readonly #byPrimary: Statement<[], { category: string; n: number }>;
  readonly #listingRange: Statement<[], { first: string | null; last: string | null }>;
  readonly #byListingDay: Statement<[], { day: string; n: number }>;
  readonly #byListingDate: Statement<[string, string], PaperRow>;
  readonly #idsInCategory: Statement<[string], string>;
  readonly #search: SearchIndexWriter;
  readonly #newTags: NewPaperTagWriter;

  constructor(db: Database, options: PaperStoreOptions = {}) {
    this.db = db;
    this.#now = options.now ?? (() => new Date());
    this.#select = db.prepare<[string], PaperRow>(SELECT_PAPER);
    this.#has = db.prepare<[string], unknown>(HAS_PAPER);
    this.#upsertRows = new RowWriter(db, UPSERT_PAPERS, PAPER_ROW_PARAMS);
    this.#deleteCategories = db.prepare<[string], unknown>(DELETE_PAPER_CATEGORIES);
    this.#insertCategories = new RowWriter(db, INSERT_PAPER_CATEGORIES, CATEGORY_ROW_PARAMS);
    this.#count = db.prepare<[], number>(COUNT_PAPERS).pluck();
    this.#ids = db.prepare<[], string>(SELECT_IDS).pluck();
    this.#byPrimary = db.prepare<[], { category: string; n: number }>(COUNT_BY_PRIMARY_CATEGORY);
    this.#listingRange = db.prepare<[], { first: string | null; last: string | null }>(LISTING_RANGE);
    this.#byListingDay = db.prepare<[], { day: string; n: number }>(COUNT_BY_LISTING_DAY);
    this.#byListingDate = db.prepare<[string, string], PaperRow>(SELECT_BY_LISTING_DATE);
    this.#idsInCategory = db.prepare<[string], string>(SELECT_IDS_IN_CATEGORY).pluck();
    this.#search = new SearchIndexWriter(db);
    this.#newTags = new NewPaperTagWriter(db);
  }

  /**
   * Runs `fn` in one write transaction (nested calls become savepoints). Use it to store papers together with
   * whatever says they were stored, e.g. a harvest checkpoint.
   */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn).immediate();
  }

  /**
   * Stores a batch whole or not at all; a paper whose merge changes nothing is not rewritten. Papers are
   * merged first (two records of one paper in the batch merge in order, as if stored one after the
   * other), then written in a few statements (see UPSERT_PAPERS), in the order first seen.
   */
  upsertBatch(papers: readonly PaperEntity[], opts: UpsertOptions): UpsertCounts {
    return this.transaction(() => this.#upsert(papers, opts));
  }

  /**
   * `upsertBatch`'s writes in the caller's open transaction, with no savepoint of their own: for a caller
   * that stores the batch whole with what says it was stored (a harvested page and its checkpoint), so
   * that a failure undoes the caller's whole transaction. A savepoint around each batch made FTS5 flush
   * its pending terms at its release as well as at the commit.
   */
  upsertInTransaction(papers: readonly PaperEntity[], opts: UpsertOptions): UpsertCounts {
    if (!this.db.inTransaction) {
      throw new QuireError(
        'store-error',
        'upsertInTransaction was called outside a transaction; call it inside PaperStore.transaction, or use upsertBatch.',
      );
    }
    return this.#upsert(papers, opts);
  }

  #upsert(papers: readonly PaperEntity[], opts: UpsertOptions): UpsertCounts {
    const updatedAt = this.#now().toISOString();
    const { writes: due, counts } = planPaperWrites(
      papers,
      opts,
      (id) => {
        const row = this.#select.get(id);
        return row ? { paper: rowToPaper(row), categoriesJson: row.categories } : undefined;
      },
      (paper, err) => {
        throw storeFailure(papers.length, paper, err);
      },
    );
    this.#writeAll(due, updatedAt, papers.length);
    // The search index takes the batch in a few writes (see search-index-schema.ts), before it commits.
    this.#search.indexPending(
      due.map((w) => w.paper),
      opts.knownTerms,
    );
    if (opts.knownTags) counts.tagged = this.#writeKnownTags(due, opts.knownTags);
    return counts;
  }

  /** The known tags of the papers this batch stores for the first time, as made from their stored text. */
  #writeKnownTags(writes: readonly PendingWrite[], known: KnownTags): number {
    const results: NewPaperTags[] = [];
    for (const { paper, storedCategories } of writes) {
      const tags = known.get(paper.id);
      // A paper stored before has tags of its own to replace: the re-tag does that by difference.
      if (storedCategories !== null || !tags || !sameTaggedText(tags.from, paper)) continue;
      results.push({ id: paper.id, tags: tags.tags });
    }
    this.#newTags.write(results);
    return results.length;
  }

  /** Writes the merged papers and their category rows; names the first paper that cannot be stored. */
  #writeAll(writes: readonly PendingWrite[], updatedAt: string, batchSize: number): void {
    try {
      this.#upsertRows.write(writes.map((w) => paperRowValues(w.paper, updatedAt)));
      const categories: unknown[][] = [];
      for (const { paper, storedCategories } of writes) {
        if (storedCategories === JSON.stringify(paper.categories)) continue;
        // A new paper has no category rows to drop.
        if (storedCategories !== null) this.#deleteCategories.run(paper.id);
        for (const category of paper.categories) categories.push([paper.id, category]);
      }
      this.#insertCategories.write(categories);
    } catch (err) {
      throw storeFailure(batchSize, this.#culprit(writes, updatedAt) ?? writes[0]?.paper, err);
    }
  }

  /**
   * The first of `writes` that fails alone, found by writing them one at a time in a savepoint that is
   * always undone: a statement of many rows does not say which row broke it.
   */
  #culprit(writes: readonly PendingWrite[], updatedAt: string): PaperEntity | undefined {
    let culprit: PaperEntity | undefined;
    const undo = new Error('undo');
    try {
      this.transaction(() => {
        for (const { paper } of writes) {
          culprit = paper;
          this.#upsertRows.write([paperRowValues(paper, updatedAt)]);
        }
        culprit = undefined;
        throw undo;
      });
    } catch (err) {
      if (err !== undo) return culprit;
    }
    return undefined;
  }

  get(id: string): PaperEntity | undefined {
    const row = this.#select.get(id);
    return row ? rowToPaper(row) : undefined;
  }

  has(id: string): boolean {
    return this.#has.get(id) !== undefined;
  }

  count(): number {
    return this.#count.get() ?? 0;
  }

  /** Every stored id, sorted. */
  ids(): string[] {
    return this.#ids.all();
  }

  idsInCategory(category: string): string[] {
    return this.#idsInCategory.all(category);
  }

  stats(): PaperStats {
    const byPrimaryCategory: Record<string, number> = {};
    for (const { category, n } of this.#byPrimary.iterate()) byPrimaryCategory[category] = n;
    const range = this.#listingRange.get();
    return {
      papers: this.count(),
      byPrimaryCategory,
      firstListing: range?.first ?? null,
      lastListing: range?.last ?? null,
    };
  }

  /** Papers listed between `from` and `to` (inclusive, YYYY-MM-DD), newest first. */
  byListingDate(from: string, to: string): PaperEntity[] {
    return this.#byListingDate.all(from, to).map(rowToPaper);
  }

  /** Number of papers per listing day, in date order; papers without a listing date are left out. */
  countByListingDay(): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const { day, n } of this.#byListingDay.iterate()) counts[day] = n;
    return counts;
  }
}

function storeFailure(batchSize: number, paper: PaperEntity | undefined, err: unknown): QuireError {
  return new QuireError(
    'store-error',
    `Storing a batch of ${batchSize} papers failed at ${describe(paper)}, so none of the batch was stored: ${errorMessage(err)}`,
    { cause: err },
  );
}

function describe(paper: PaperEntity | undefined): string {
  return typeof paper?.id === 'string' ? `paper ${paper.id}` : 'a paper without an id';
}
