import { normalisePaper } from '@quire/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IndexFilters } from '../search-index.ts';
import { allOf, anyOf, inColumns, phrase, without, word, type Match } from '../search-match.ts';
import { migratePg, PG_MIGRATIONS } from './pg-migrations.ts';
import { PgPaperStore } from './pg-paper-store.ts';
import { openPgPool, type PgPool } from './pg-pool.ts';
import { PgSearchReader } from './pg-search-reader.ts';
import { postgresForTests } from './postgres-for-tests.ts';

/*
 * The search postings (pg-search-postings.ts): filled for the papers an installation held before the step,
 * kept by paper_search's triggers as papers are written, changed and removed, their ranks equal to
 * PostgreSQL's own ts_rank over the vectors, and a window of words read from them the same as one read
 * from the vectors.
 */

const postgres = postgresForTests('pg-search-postings');
const NO_FILTERS: IndexFilters = { topics: null, topicsFrom: 'tags', categories: null, from: null, to: null };
const WEIGHTS = { title: 3, authors: 2, abstract: 1 };
const id = (n: number) => `2604.${String(n).padStart(5, '0')}`;
const WORDS = ['graph', 'kernel', 'sparse', 'tensor', 'quorum', 'lattice', 'spectral', 'manifold'];
const PAPERS = 90;
let pool: PgPool;
let store: PgPaperStore;

/** Paper n: a title, authors and abstract whose words and repeats vary with n (a fixed rule, no chance). */
function paper(n: number) {
  const pick = (k: number) => WORDS[(n * k + k) % WORDS.length] ?? 'graph';
  return normalisePaper({
    id: id(n),
    title: `${pick(3)} ${n % 4 === 0 ? pick(3) : 'methods'} for ${pick(5)}`,
    abstract: `We study ${pick(7)} ${pick(2)} and ${pick(7)}. ${'A '.repeat(n % 5)}${pick(11)} results${n % 3 === 0 ? ` with ${pick(3)}` : ''}.`,
    authors: [n % 2 === 0 ? 'Ada Lovelace' : 'Alan Turing', `Grace Hopper${n % 7 === 0 ? ' Kernel' : ''}`],
    categories: [n % 2 === 0 ? 'cs.LG' : 'math.CO'],
    listingDate: `2026-04-${String(1 + (n % 28)).padStart(2, '0')}`,
  });
}

const postingsOf = async (paperId: string) =>
  (
    await pool.query<{ word: string; title: number; authors: number; abstract: number }>(
      `SELECT word, title, authors, abstract FROM search_postings WHERE paper_id = $1 ORDER BY word`,
      [paperId],
    )
  ).rows;

beforeAll(async () => {
  await postgres.create();
  if (postgres.skip) return;
  pool = await openPgPool(postgres.url());
  store = new PgPaperStore(pool);
  // Half the papers written before the step (its fill), half after (the triggers).
  const step = PG_MIGRATIONS.findIndex((m) => m.name === 'search-postings');
  if (step < 0) throw new Error('no search-postings step: this test names the step it upgrades across');
  await migratePg(pool, PG_MIGRATIONS.slice(0, step));
  const all = Array.from({ length: PAPERS }, (_, i) => paper(i + 1));
  await store.upsertBatch(all.slice(0, PAPERS / 2), { countsAsListing: true });
  await migratePg(pool);
  await store.upsertBatch(all.slice(PAPERS / 2), { countsAsListing: true });
}, 60_000);
afterAll(async () => {
  await pool?.end();
  await postgres.drop();
});

describe.skipIf(postgres.skip !== null)('search postings on PostgreSQL', () => {
  it('holds each word of a paper with its count per column, through the fill, changes and deletes', async () => {
    const paperId = '2604.99001';
    await store.upsertBatch(
      [
        normalisePaper({
          id: paperId,
          title: 'Graph graph lattices',
          abstract: 'A graph of lattices.',
          authors: ['Ada Lovelace'],
          categories: ['cs.LG'],
          listingDate: '2026-04-02',
        }),
      ],
      { countsAsListing: true },
    );
    // Core's terms: stopwords dropped ("a", "of"), plurals folded ("lattices"), a name's joined keys.
    const names = [
      { word: 'ada', title: 0, authors: 1, abstract: 0 },
      { word: 'adalovelace', title: 0, authors: 1, abstract: 0 },
      { word: 'alovelace', title: 0, authors: 1, abstract: 0 },
    ];
    expect(await postingsOf(paperId)).toEqual([
      ...names,
      { word: 'graph', title: 2, authors: 0, abstract: 1 },
      { word: 'lattice', title: 1, authors: 0, abstract: 1 },
      { word: 'lovelace', title: 0, authors: 1, abstract: 0 },
    ]);
    await store.upsertBatch(
      [
        normalisePaper({
          id: paperId,
          title: 'Graph graph lattices',
          abstract: 'Sparse kernels.',
          authors: ['Ada Lovelace'],
          categories: ['cs.LG'],
          listingDate: '2026-04-02',
        }),
      ],
      { countsAsListing: true },
    );
    expect(await postingsOf(paperId)).toEqual([
      ...names,
      { word: 'graph', title: 2, authors: 0, abstract: 0 },
      { word: 'kernel', title: 0, authors: 0, abstract: 1 },
      { word: 'lattice', title: 1, authors: 0, abstract: 0 },
      { word: 'lovelace', title: 0, authors: 1, abstract: 0 },
      { word: 'sparse', title: 0, authors: 0, abstract: 1 },
    ]);
    await pool.query(`DELETE FROM papers WHERE id = $1`, [paperId]);
    expect(await postingsOf(paperId)).toEqual([]);
    // The papers filled by the step and those written after it alike: one posting per word of each vector.
    const { rows } = await pool.query<{ missing: number; extra: number }>(`
      SELECT (SELECT count(*) FROM paper_search s, unnest(tsvector_to_array(s.doc)) w
              WHERE NOT EXISTS (SELECT 1 FROM search_postings p WHERE p.word = w AND p.paper_id = s.paper_id))::integer AS missing,
             (SELECT count(*) FROM search_postings p WHERE NOT EXISTS (
                SELECT 1 FROM paper_search s WHERE s.paper_id = p.paper_id AND tsvector_to_array(s.doc) @> ARRAY[p.word]))::integer AS extra`);
    expect(rows).toEqual([{ missing: 0, extra: 0 }]);
  });

  it("ranks each posting as PostgreSQL's ts_rank ranks the word on the vector, for any column weights", async () => {
    for (const weights of ['{0,0.3333333,0.6666667,1}', '{0.1,0.9,0.2,0.5}', '{0,1,1,1}', '{0,0,0,1}']) {
      const { rows } = await pool.query<{ n: number; worst: number; title_worst: number }>(
        `SELECT count(*)::integer AS n,
           max(abs(ts_rank($1::float4[], s.doc, quote_literal(p.word)::tsquery, 1)
             - quire_rank($1::float4[], p.title, p.authors, p.abstract, p.terms)))::float8 AS worst,
           max(abs(ts_rank($1::float4[], s.title_doc, quote_literal(p.word)::tsquery, 1)
             - quire_rank($1::float4[], p.title, 0, 0, p.title_terms)))::float8 AS title_worst
         FROM search_postings p JOIN paper_search s USING (paper_id)`,
        [weights],
      );
      expect(rows[0]?.n).toBeGreaterThan(PAPERS * 10);
      // Equal but for float4 rounding (ts_rank sums in float4).
      expect(rows[0]?.worst, weights).toBeLessThan(1e-6);
      expect(rows[0]?.title_worst, weights).toBeLessThan(1e-6);
    }
  });

  it('reads the same window of a match of words as the vectors give, newest matches first, and counts its hits alike', async () => {
    const fromPostings = new PgSearchReader(pool);
    const fromVectors = new PgSearchReader(pool, false, { postings: false });
    const cs: IndexFilters = { ...NO_FILTERS, categories: ['cs'] };
    const since: IndexFilters = { ...NO_FILTERS, from: '2026-04-10' };
    const cases: [Match, IndexFilters][] = [
      [word('graph'), NO_FILTERS],
      [word('kernel'), cs],
      [allOf([word('graph'), word('sparse')]), NO_FILTERS],
      [allOf([word('tensor'), anyOf([word('quorum'), word('lattice'), word('kernel')])]), since],
      [inColumns(['title'], allOf([word('graph'), word('methods')])), NO_FILTERS],
      [inColumns(['abstract', 'authors'], word('kernel')), NO_FILTERS],
      [anyOf([inColumns(['title'], word('spectral')), word('manifold')]), NO_FILTERS],
      [phrase(['lovelace']), NO_FILTERS],
      [allOf([word('spec', true), word('graph')]), NO_FILTERS],
      // A prefix among other words: its words' range of the postings, summed with the prefix's idf.
      [allOf([word('gra', true), word('sparse')]), NO_FILTERS],
      [allOf([word('spa', true), word('kernel')]), cs],
      [allOf([inColumns(['abstract'], word('ten', true)), word('graph')]), since],
      [inColumns(['title'], allOf([word('gra', true), word('methods')])), NO_FILTERS],
      [allOf([word('zzz', true), word('graph')]), NO_FILTERS],
      // …its range read only for the papers of a word alone in a clause, whichever columns that word asks.
      [allOf([inColumns(['title'], word('graph')), word('spa', true), word('kernel')]), NO_FILTERS],
      [allOf([word('gra', true), inColumns(['authors'], word('kernel'))]), NO_FILTERS],
      [allOf([anyOf([word('graph'), word('tensor')]), word('spa', true)]), NO_FILTERS],
      [inColumns(['title'], anyOf([word('ten', true), word('quorum')])), NO_FILTERS],
      // Several words in every column or in titles, unfiltered: only each word's newest postings are read.
      [anyOf([word('graph'), word('sparse'), word('kernel')]), NO_FILTERS],
      [inColumns(['title'], anyOf([word('graph'), word('lattice'), word('methods')])), NO_FILTERS],
      [anyOf([word('graph'), inColumns(['title'], word('sparse'))]), NO_FILTERS],
      // Several words asking the same columns, not all of them (a paper's related words): those columns tested.
      [inColumns(['title', 'abstract'], anyOf([word('graph'), word('sparse'), word('kernel')])), NO_FILTERS],
      [inColumns(['authors'], anyOf([word('grace'), word('hopper'), word('lattice')])), NO_FILTERS],
      // More words than are merged in id order (a prefix's many completions): read word by word.
      [
        anyOf([...WORDS, ...Array.from({ length: 60 }, (_, i) => `absent${i}`)].map((w) => word(w))),
        NO_FILTERS,
      ],
      [
        inColumns(
          ['title', 'abstract'],
          anyOf([...WORDS, ...Array.from({ length: 60 }, (_, i) => `absent${i}`)].map((w) => word(w))),
        ),
        cs,
      ],
      // A prefix alone: the words it stands for, each ranked with the prefix's idf.
      [word('spec', true), NO_FILTERS],
      [word('gra', true), cs],
      [word('zzz', true), NO_FILTERS],
      // Any of some words but not another (a prefix's completions without the prefix as a word).
      [without(anyOf([word('sparse'), word('kernel')]), word('graph')), NO_FILTERS],
      [without(anyOf([word('graph'), word('lattice')]), word('graph')), NO_FILTERS],
      // Phrases asked of several columns: the words' positions, each word ranked once.
      [phrase(['graph', 'method']), NO_FILTERS],
      [phrase(['graph', 'graph']), NO_FILTERS],
      [phrase(['grace', 'hopper', 'kernel']), NO_FILTERS],
      [phrase(['grace', 'hopper']), cs],
      [phrase(['graph', 'method']), since],
      [inColumns(['title', 'abstract'], phrase(['graph', 'method'])), NO_FILTERS],
      [inColumns(['authors', 'abstract'], phrase(['graph', 'method'])), NO_FILTERS],
      [allOf([phrase(['graph', 'method']), word('sparse')]), NO_FILTERS],
      [allOf([phrase(['result', 'graph']), anyOf([word('kernel'), word('tensor')])]), NO_FILTERS],
      // Words next to each other across two columns (a title's last, the authors' first) are no phrase.
      [phrase(['lattice', 'ada']), NO_FILTERS],
      [phrase(['graph', 'zzz']), NO_FILTERS],
    ];
    let compared = 0;
    for (const [match, filters] of cases) {
      for (const cap of [1, 3, 1000]) {
        expect(await fromPostings.hitsUpTo(match, cap), `${JSON.stringify(match)} up to ${cap}`).toBe(
          await fromVectors.hitsUpTo(match, cap),
        );
      }
      for (const window of [5, 12, 1000]) {
        const page = { limit: 8, offset: 2, window };
        const a = await fromPostings.ranked(match, filters, WEIGHTS, page);
        const b = await fromVectors.ranked(match, filters, WEIGHTS, page);
        const label = `${JSON.stringify(match)} window ${window}`;
        expect(a.total, label).toBe(b.total);
        expect(
          a.rows.map((r) => r.paperId),
          label,
        ).toEqual(b.rows.map((r) => r.paperId));
        a.rows.forEach((r, i) => expect(r.score, label).toBeCloseTo(b.rows[i]?.score ?? NaN, 5));
        compared += a.rows.length;
        // Uncounted (the best of the window alone): the same rows as the vectors' best.
        const bestA = await fromPostings.best(match, filters, WEIGHTS, { limit: 8, window });
        const bestB = await fromVectors.best(match, filters, WEIGHTS, { limit: 8, window });
        expect(
          bestA.map((r) => r.paperId),
          `best ${label}`,
        ).toEqual(bestB.map((r) => r.paperId));
        bestA.forEach((r, i) => expect(r.score, `best ${label}`).toBeCloseTo(bestB[i]?.score ?? NaN, 5));
        compared += bestA.length;
      }
    }
    // The cases found papers: the comparison was not of empty pages.
    expect(compared).toBeGreaterThan(100);
  });

  it("holds each word's positions with their columns, as the vector does, and finds a phrase where it stands", async () => {
    // Every (word, paper) of every vector, its positions and weights as the vector holds them: the column's
    // code (title 0, authors 1, abstract 2) times 16384, plus the position, less 16384 (a smallint).
    const { rows } = await pool.query<{ differ: number; n: number }>(`
      SELECT count(*) FILTER (WHERE x.at IS DISTINCT FROM ARRAY(
               SELECT ((CASE v.w WHEN 'A' THEN 0 WHEN 'B' THEN 1 ELSE 2 END) * 16384 + v.p - 16384)::smallint
               FROM unnest(u.positions, u.weights) WITH ORDINALITY v (p, w, k) ORDER BY v.k))::integer AS differ,
             count(*)::integer AS n
      FROM paper_search s CROSS JOIN LATERAL unnest(s.doc) u
      LEFT JOIN search_postings x ON x.word = u.lexeme AND x.paper_id = s.paper_id`);
    expect(rows[0]?.n).toBeGreaterThan(PAPERS * 10);
    expect(rows[0]?.differ).toBe(0);
    // In the postings themselves: one table (its key and index named as before it was rebuilt), its
    // positions as many as its counts.
    const tables = await pool.query<{ n: number; uncounted: number; indexes: string; key: string }>(`
      SELECT (SELECT count(*)::integer FROM pg_class WHERE relname = 'search_positions') AS n,
             (SELECT count(*)::integer FROM search_postings
              WHERE cardinality(at) <> title + authors + abstract) AS uncounted,
             (SELECT string_agg(indexname, ',' ORDER BY indexname) FROM pg_indexes
              WHERE tablename = 'search_postings') AS indexes,
             (SELECT string_agg(conname, ',') FROM pg_constraint
              WHERE conrelid = 'search_postings'::regclass) AS key`);
    expect(tables.rows[0]).toEqual({
      n: 0,
      uncounted: 0,
      indexes: 'search_postings_pkey,search_postings_title',
      key: 'search_postings_pkey',
    });
    const reader = new PgSearchReader(pool);
    const total = async (m: Match) =>
      (await reader.ranked(m, NO_FILTERS, WEIGHTS, { limit: 5, offset: 0, window: 5 })).total;
    // Titles "<graph> methods for …" (n % 4 ≠ 0, a third of them graph), authors "Grace Hopper", and the
    // title's last word next to the authors' first, which is no phrase.
    expect(await total(phrase(['graph', 'method']))).toBeGreaterThan(5);
    expect(await total(phrase(['grace', 'hopper']))).toBeGreaterThan(PAPERS / 2);
    expect(await total(phrase(['hopper', 'grace']))).toBe(0);
    expect(await total(phrase(['lattice', 'ada']))).toBe(0);
    // A first word held more often than its positions tested inline: the phrase found at its fifth, and
    // not in a paper holding the words five times apart.
    const often = (n: number, abstract: string) =>
      normalisePaper({
        id: `2604.9910${n}`,
        title: 'Signals',
        abstract,
        authors: ['Ada Lovelace'],
        categories: ['cs.LG'],
        listingDate: '2026-04-03',
      });
    await store.upsertBatch(
      [
        often(1, 'Beacon one, beacon two, beacon three, beacon four, beacon harbour light.'),
        often(2, 'Beacon one, beacon two, beacon three, beacon four, beacon five; harbour light beacon.'),
      ],
      { countsAsListing: true },
    );
    const fromVectors = new PgSearchReader(pool, false, { postings: false });
    for (const m of [
      phrase(['beacon', 'harbour']),
      phrase(['beacon', 'harbour', 'light']),
      phrase(['light', 'beacon']),
    ]) {
      const page = { limit: 5, offset: 0, window: 5 };
      const a = await reader.ranked(m, NO_FILTERS, WEIGHTS, page);
      const b = await fromVectors.ranked(m, NO_FILTERS, WEIGHTS, page);
      expect(a.total, JSON.stringify(m)).toBe(1);
      expect(a.total, JSON.stringify(m)).toBe(b.total);
      expect(a.rows.map((r) => r.paperId)).toEqual(b.rows.map((r) => r.paperId));
      // ts_rank's float4, as in the windows compared above.
      expect(a.rows[0]?.score).toBeCloseTo(b.rows[0]?.score ?? NaN, 5);
    }
  });

  // Last: it empties the store the other cases read.
  it('is emptied, word counts and totals with it, when the papers are truncated, so a paper can come again', async () => {
    const counts = async () =>
      (
        await pool.query<{ postings: number; words: number; papers: number }>(
          `SELECT (SELECT count(*)::integer FROM search_postings) AS postings,
                  (SELECT count(*)::integer FROM search_words) AS words,
                  (SELECT papers::integer FROM search_totals) AS papers`,
        )
      ).rows[0];
    expect((await counts())?.postings).toBeGreaterThan(0);
    await pool.query('TRUNCATE papers CASCADE');
    expect(await counts()).toEqual({ postings: 0, words: 0, papers: 0 });
    await store.upsertBatch([paper(1)], { countsAsListing: true });
    expect((await postingsOf(id(1))).length).toBeGreaterThan(0);
    expect((await counts())?.papers).toBe(1);
  });
});
