import { normalisePaper, type PaperEntity, type RawPaper } from '@quire/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paperTerms } from '../search-index-schema.ts';
import { migratePg } from './pg-migrations.ts';
import { PgPaperStore } from './pg-paper-store.ts';
import { openPgPool, type PgPool } from './pg-pool.ts';
import { postgresForTests } from './postgres-for-tests.ts';

/*
 * PostgreSQL's search index is written with the papers: core's terms per column (as SQLite's FTS5 table
 * holds them), a weighted tsvector over them, and a vocabulary of words with their papers.
 */

const postgres = postgresForTests('pg-search-index');
let pool: PgPool;
beforeAll(async () => {
  await postgres.create();
  if (postgres.skip) return;
  pool = await openPgPool(postgres.url());
  await migratePg(pool);
});
afterAll(async () => {
  await pool?.end();
  await postgres.drop();
});

const paper = (id: string, overrides: Partial<RawPaper> = {}): PaperEntity =>
  normalisePaper({
    id,
    title: 'Self-Supervised Graph Learning',
    abstract: 'We learn graph representations without labels.',
    authors: ['Ada Lovelace', 'Alan Turing'],
    categories: ['cs.LG'],
    listingDate: '2026-04-02',
    ...overrides,
  });

describe.skipIf(postgres.skip !== null)('the search index on PostgreSQL', () => {
  const words = async (): Promise<Record<string, number>> =>
    Object.fromEntries(
      (await pool.query<{ word: string; papers: number }>('SELECT word, papers FROM search_words')).rows.map(
        (r) => [r.word, r.papers],
      ),
    );

  it("holds core's terms per column, and each word's papers, through inserts, changes and deletes", async () => {
    const store = new PgPaperStore(pool);
    const a = paper('2604.00001');
    const b = paper('2604.00002', { title: 'Graph Attention', abstract: 'Attention over graph nodes.' });
    await store.upsertBatch([a, b], { countsAsListing: true });
    const { rows } = await pool.query<{ title: string; authors: string; abstract: string }>(
      `SELECT title, authors, abstract FROM paper_search WHERE paper_id = $1`,
      [a.id],
    );
    expect(rows[0]).toEqual(paperTerms(a));
    const before = await words();
    // "graph" is in both papers; the authors' names in both.
    expect(before.graph).toBe(2);
    expect(before.lovelace).toBe(2);
    expect(before.attention).toBe(1);
    // And per column: "graph" in both titles and abstracts, the names in the authors only.
    const perColumn = await pool.query<{ word: string; t: number; a: number; s: number }>(
      `SELECT word, title_papers AS t, authors_papers AS a, abstract_papers AS s FROM search_words
       WHERE word = ANY($1::text[]) ORDER BY word`,
      [['attention', 'graph', 'lovelace']],
    );
    expect(perColumn.rows).toEqual([
      { word: 'attention', t: 1, a: 0, s: 1 },
      { word: 'graph', t: 2, a: 0, s: 2 },
      { word: 'lovelace', t: 0, a: 2, s: 0 },
    ]);
    // Every term of a paper is one word of the vocabulary, as FTS5 counts them.
    const terms = paperTerms(a);
    const termsOfA = new Set([terms.title, terms.authors, terms.abstract].flatMap((t) => t.split(' ')));
    for (const term of termsOfA) expect(before[term], term).toBeGreaterThanOrEqual(1);

    await store.upsertBatch([{ ...b, title: 'Graph Mixing', abstract: 'Mixing over graph nodes.' }], {
      countsAsListing: true,
    });
    const after = await words();
    expect(after.attention).toBeUndefined();
    expect(after.mixing).toBe(1);
    expect(after.graph).toBe(2);
    const mixing = await pool.query<{ t: number; a: number; s: number }>(
      `SELECT title_papers AS t, authors_papers AS a, abstract_papers AS s FROM search_words WHERE word = 'mixing'`,
    );
    expect(mixing.rows).toEqual([{ t: 1, a: 0, s: 1 }]);

    const found = await pool.query<{ paper_id: string }>(
      `SELECT paper_id FROM paper_search WHERE doc @@ to_tsquery('simple', 'graph & mix:*') ORDER BY paper_id`,
    );
    expect(found.rows.map((r) => r.paper_id)).toEqual(['2604.00002']);
    const phrase = await pool.query<{ paper_id: string }>(
      `SELECT paper_id FROM paper_search WHERE doc @@ to_tsquery('simple', 'graph <-> learning')`,
    );
    expect(phrase.rows.map((r) => r.paper_id)).toEqual(['2604.00001']);

    await pool.query(`DELETE FROM papers WHERE id = $1`, [b.id]);
    const gone = await words();
    expect(gone.mixing).toBeUndefined();
    expect(gone.graph).toBe(1);
  });

  it('keeps the papers indexed and their terms per column summed through inserts, changes and deletes', async () => {
    // Recounted from the stored terms, as the mean terms per column were before the totals were kept.
    const recount = async () => {
      const { rows } = await pool.query<{ title: string; authors: string; abstract: string }>(
        'SELECT title, authors, abstract FROM paper_search',
      );
      const terms = (text: string) => (text === '' ? 0 : text.split(' ').length);
      return {
        papers: rows.length,
        title: rows.reduce((n, r) => n + terms(r.title), 0),
        authors: rows.reduce((n, r) => n + terms(r.authors), 0),
        abstract: rows.reduce((n, r) => n + terms(r.abstract), 0),
      };
    };
    const kept = async () =>
      (
        await pool.query<{ papers: number; title: number; authors: number; abstract: number }>(
          `SELECT papers::integer, title_terms::integer AS title, authors_terms::integer AS authors,
             abstract_terms::integer AS abstract FROM search_totals`,
        )
      ).rows[0];
    const store = new PgPaperStore(pool);
    await store.upsertBatch([paper('2604.00011'), paper('2604.00012', { abstract: 'Graphs.' })], {
      countsAsListing: true,
    });
    const inserted = await recount();
    expect(inserted.papers).toBeGreaterThanOrEqual(2);
    expect(await kept()).toEqual(inserted);
    await store.upsertBatch([paper('2604.00012', { title: 'Graph', abstract: 'One two three four.' })], {
      countsAsListing: true,
    });
    expect(await kept()).toEqual(await recount());
    await pool.query(`DELETE FROM papers WHERE id = $1`, ['2604.00011']);
    const deleted = await recount();
    expect(deleted.papers).toBe(inserted.papers - 1);
    expect(await kept()).toEqual(deleted);
  });
});
