import type { PaperEntity } from '@quire/core';
import { QuireError, errorMessage } from '../../errors.ts';
import { planPaperWrites } from '../paper-merge.ts';
import { PAPER_COLUMN_LIST, paperToRow, rowToPaper, type PaperRow } from '../paper-queries.ts';
import type { PaperRepository } from '../paper-repository.ts';
import type { PaperStats, UpsertCounts, UpsertOptions } from '../paper-store.ts';
import { paperTerms } from '../search-index-schema.ts';
import { inTransaction, type PgClient, type PgPool } from './pg-pool.ts';
import {
  COUNT_BY_LISTING_DAY,
  COUNT_BY_PRIMARY_CATEGORY,
  COUNT_PAPERS,
  DELETE_PAPER_CATEGORIES,
  HAS_PAPER,
  INSERT_PAPER_CATEGORIES,
  LISTING_RANGE,
  LOCK_PAPER_WRITES,
  SELECT_BY_LISTING_DATE,
  SELECT_IDS,
  SELECT_IDS_IN_CATEGORY,
  SELECT_PAPER,
  SELECT_PAPERS_BY_IDS,
  UPSERT_PAPERS,
} from './pg-paper-queries.ts';
import { UPSERT_PAPER_TERMS } from './pg-search-schema.ts';

/** Papers on PostgreSQL, merged and stored as SQLite's PaperStore stores them (the same rows, the same rule). */
export class PgPaperStore implements PaperRepository {
  readonly #pool: PgPool;
  readonly #now: () => Date;

  constructor(pool: PgPool, options: { now?: () => Date } = {}) {
    this.#pool = pool;
    this.#now = options.now ?? (() => new Date());
  }

  async upsertBatch(
    papers: readonly PaperEntity[],
    opts: Pick<UpsertOptions, 'countsAsListing'>,
  ): Promise<UpsertCounts> {
    try {
      return await inTransaction(this.#pool, (client) => this.upsertWith(client, papers, opts));
    } catch (err) {
      if (err instanceof QuireError) throw err;
      return failed(papers.length, undefined, err);
    }
  }

  /**
   * `upsertBatch` inside the caller's transaction on `client` (a harvested page and its checkpoint commit
   * together): takes the papers' write lock, which the transaction then holds until it ends.
   */
  async upsertWith(
    client: PgClient,
    papers: readonly PaperEntity[],
    opts: Pick<UpsertOptions, 'countsAsListing'>,
  ): Promise<UpsertCounts> {
    const updatedAt = this.#now().toISOString();
    try {
      await client.query(LOCK_PAPER_WRITES);
      const ids = [...new Set(papers.map((p) => p.id))];
      const { rows } = await client.query<PaperRow>(SELECT_PAPERS_BY_IDS, [ids]);
      const stored = new Map(rows.map((r) => [r.id, { paper: rowToPaper(r), categoriesJson: r.categories }]));
      const { writes, counts } = planPaperWrites(
        papers,
        opts,
        (id) => stored.get(id),
        (paper, err) => failed(papers.length, paper, err),
      );
      if (writes.length === 0) return counts;
      const columns = PAPER_COLUMN_LIST.map(() => [] as unknown[]);
      for (const { paper } of writes) {
        const row = paperToRow(paper, updatedAt);
        PAPER_COLUMN_LIST.forEach((c, i) => columns[i]?.push(row[c]));
      }
      await client.query(UPSERT_PAPERS, columns);
      const terms = writes.map((w) => paperTerms(w.paper));
      await client.query(UPSERT_PAPER_TERMS, [
        writes.map((w) => w.paper.id),
        terms.map((t) => t.title),
        terms.map((t) => t.authors),
        terms.map((t) => t.abstract),
      ]);
      const changed = writes.filter((w) => w.storedCategories !== JSON.stringify(w.paper.categories));
      const replaced = changed.filter((w) => w.storedCategories !== null).map((w) => w.paper.id);
      if (replaced.length > 0) await client.query(DELETE_PAPER_CATEGORIES, [replaced]);
      const pairs = changed.flatMap((w) => w.paper.categories.map((c) => [w.paper.id, c] as const));
      if (pairs.length > 0)
        await client.query(INSERT_PAPER_CATEGORIES, [pairs.map((p) => p[0]), pairs.map((p) => p[1])]);
      return counts;
    } catch (err) {
      if (err instanceof QuireError) throw err;
      return failed(papers.length, undefined, err);
    }
  }

  async get(id: string): Promise<PaperEntity | undefined> {
    const { rows } = await this.#pool.query<PaperRow>(SELECT_PAPER, [id]);
    return rows[0] ? rowToPaper(rows[0]) : undefined;
  }

  async has(id: string): Promise<boolean> {
    return ((await this.#pool.query(HAS_PAPER, [id])).rowCount ?? 0) > 0;
  }

  async count(): Promise<number> {
    const { rows } = await this.#pool.query<{ n: number }>(COUNT_PAPERS);
    return rows[0]?.n ?? 0;
  }

  async ids(): Promise<string[]> {
    return (await this.#pool.query<{ id: string }>(SELECT_IDS)).rows.map((r) => r.id);
  }

  async idsInCategory(category: string): Promise<string[]> {
    return (await this.#pool.query<{ id: string }>(SELECT_IDS_IN_CATEGORY, [category])).rows.map((r) => r.id);
  }

  async stats(): Promise<PaperStats> {
    const [byPrimary, range, papers] = await Promise.all([
      this.#pool.query<{ category: string; n: number }>(COUNT_BY_PRIMARY_CATEGORY),
      this.#pool.query<{ first: string | null; last: string | null }>(LISTING_RANGE),
      this.count(),
    ]);
    const byPrimaryCategory: Record<string, number> = {};
    for (const { category, n } of byPrimary.rows) byPrimaryCategory[category] = n;
    return {
      papers,
      byPrimaryCategory,
      firstListing: range.rows[0]?.first ?? null,
      lastListing: range.rows[0]?.last ?? null,
    };
  }

  async byListingDate(from: string, to: string): Promise<PaperEntity[]> {
    return (await this.#pool.query<PaperRow>(SELECT_BY_LISTING_DATE, [from, to])).rows.map(rowToPaper);
  }

  async countByListingDay(): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    for (const { day, n } of (await this.#pool.query<{ day: string; n: number }>(COUNT_BY_LISTING_DAY)).rows)
      counts[day] = n;
    return counts;
  }
}

function failed(batchSize: number, paper: PaperEntity | undefined, err: unknown): never {
  throw new QuireError(
    'store-error',
    `Storing a batch of ${batchSize} papers on PostgreSQL failed${paper ? ` at paper ${String(paper.id)}` : ''}, so none of the batch was stored: ${errorMessage(err)}`,
    { cause: err },
  );
}
