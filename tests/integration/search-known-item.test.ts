import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildPaperIndex,
  defaultTaxonomy,
  parseQuery,
  phraseTextOf,
  runSearch,
  toSearchDoc,
  type Author,
} from '@quire/core';
import { importPaths } from '@quire/server/ingest/import-dumps';
import { FtsSearch } from '@quire/server/search/fts-search';
import { seededRandom } from '@quire/server/search/search-timing';
import { sqliteSearchReader } from '@quire/server/store/search-reader';
import { listingsDir } from '../src/paths.ts';
import { tempStore, type TempStore } from '../src/harness/temp-store.ts';

/**
 * Known-item search: a reader remembers a few unusual words of a paper's title and types them, sometimes
 * with a typo. 200 corpus papers are drawn at random on every run (the seed is printed, and
 * KNOWN_ITEM_SEED=<n> runs the same draw again); each is searched by three or four of its least common
 * title words (by document frequency over the corpus' titles and abstracts), once as written and once
 * with one edit in the longest of them, and by its exact title. The share found in the top 3 is printed.
 *
 * "Today's engine" is the in-memory minisearch index the server searched before its index moved to disk:
 * core's index and query run over the same papers, as the browser's offline search still runs them. The
 * on-disk index must find the paper at least as often in both variants, and by its exact title always.
 * "At least as often" is judged on the papers only one engine found: the test fails when today's engine
 * wins more of them than chance allows (a one-sided sign test at 5%), not when one draw of 200 happens to
 * hold a single paper only it finds.
 */

const SAMPLE = 200;
const TOP = 3;
const PLAIN_WORD = /^[A-Za-z]{3,}$/;

interface Row {
  id: string;
  title: string;
  abstract: string;
  authors: string;
  categories: string;
  primary_category: string;
  listing_date: string | null;
}

/** One way of searching the store: the ids of the first `n` results for a query typed in the search box. */
interface Engine {
  name: string;
  top(query: string, n: number): Promise<string[]>;
}

interface KnownItem {
  id: string;
  words: string;
  typo: string;
  title: string;
}

let t: TempStore;
let rows: Row[];
let engines: Engine[];

beforeAll(async () => {
  t = tempStore();
  await importPaths(t.store, [listingsDir]);
  rows = t.store.db
    .prepare(
      'SELECT id, title, abstract, authors, categories, primary_category, listing_date FROM papers ORDER BY id',
    )
    .all() as Row[];
  const docs = rows.map((r) =>
    toSearchDoc(
      {
        id: r.id,
        title: r.title,
        abstract: r.abstract,
        authors: JSON.parse(r.authors) as Author[],
        categories: JSON.parse(r.categories) as string[],
        primaryCategory: r.primary_category,
        listingDate: r.listing_date,
      },
      [],
    ),
  );
  const minisearch = buildPaperIndex(docs);
  const phraseTexts = new Map(docs.map((d) => [d.id, phraseTextOf(d)]));
  const fts = new FtsSearch(sqliteSearchReader(t.store.db), defaultTaxonomy());
  engines = [
    {
      name: 'minisearch (in memory, today)',
      top: (q, n) =>
        Promise.resolve(
          runSearch(minisearch, parseQuery(q), {
            limit: n,
            offset: 0,
            phraseText: (id) => phraseTexts.get(id),
          }).results.map((r) => r.id),
        ),
    },
    {
      name: 'SQLite FTS5 (on disk)',
      top: async (q, n) => (await fts.search(q, { limit: n, offset: 0 })).results.map((r) => r.id),
    },
  ];
}, 300_000);
afterAll(() => t.dispose());

/** Lowercase letter-and-digit runs: how often a word is used, read independently of the code under test. */
const wordsOf = (text: string) => text.toLowerCase().match(/[a-z0-9]+/g) ?? [];

/** The title's plain words as written (no LaTeX, no digits, surrounding punctuation removed). */
function plainTitleWords(title: string): string[] {
  return title
    .split(/\s+/)
    .map((w) => w.replace(/^[("'“‘[]+|[)"'”’\].,:;?!]+$/g, ''))
    .filter((w) => PLAIN_WORD.test(w));
}

/** One edit (a letter replaced, dropped or added) at a random place. */
function withTypo(word: string, random: () => number): string {
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const at = Math.floor(random() * word.length);
  const letter = () => letters.charAt(Math.floor(random() * letters.length));
  const kind = Math.floor(random() * 3);
  if (kind === 0) {
    let other = letter();
    while (other === word.charAt(at).toLowerCase()) other = letter();
    return word.slice(0, at) + other + word.slice(at + 1);
  }
  if (kind === 1) return word.slice(0, at) + word.slice(at + 1);
  return word.slice(0, at) + letter() + word.slice(at);
}

function knownItems(seed: number): KnownItem[] {
  const papersWith = new Map<string, number>();
  for (const row of rows) {
    for (const word of new Set(wordsOf(`${row.title} ${row.abstract}`))) {
      papersWith.set(word, (papersWith.get(word) ?? 0) + 1);
    }
  }
  const random = seededRandom(seed);
  const items: KnownItem[] = [];
  const taken = new Set<string>();
  while (items.length < SAMPLE) {
    const row = rows[Math.floor(random() * rows.length)];
    if (!row || taken.has(row.id)) continue;
    taken.add(row.id);
    const distinct = [...new Map(plainTitleWords(row.title).map((w) => [w.toLowerCase(), w])).values()];
    if (distinct.length < 3) continue;
    const count = distinct.length >= 4 && random() < 0.5 ? 4 : 3;
    const rarest = new Set(
      [...distinct]
        .sort((a, b) => (papersWith.get(a.toLowerCase()) ?? 0) - (papersWith.get(b.toLowerCase()) ?? 0))
        .slice(0, count),
    );
    // In title order, as remembered.
    const chosen = distinct.filter((w) => rarest.has(w));
    const longest = chosen.reduce((a, b) => (b.length > a.length ? b : a));
    const typo = chosen.map((w) => (w === longest ? withTypo(w, random) : w));
    items.push({
      id: row.id,
      words: chosen.join(' '),
      typo: typo.join(' '),
      title: row.title.replace(/\s+/g, ' ').trim(),
    });
  }
  return items;
}

type Variant = 'words' | 'typo' | 'title';
const VARIANTS: readonly Variant[] = ['words', 'typo', 'title'];

type Figures = Record<Variant, number> & { missed: string[] };

async function measure(engine: Engine, items: readonly KnownItem[]): Promise<Figures> {
  const figures: Figures = { words: 0, typo: 0, title: 0, missed: [] };
  for (const item of items) {
    for (const variant of VARIANTS) {
      if ((await engine.top(item[variant], TOP)).includes(item.id)) figures[variant] += 1;
      else figures.missed.push(`${variant}: ${item.id} by "${item[variant]}"`);
    }
  }
  return figures;
}

/**
 * The papers of one variant that only one engine found (the discordant pairs of a paired comparison), and
 * the chance of today's engine winning at least that many of them were the two engines equally good.
 */
function pairedComparison(
  today: Figures,
  onDisk: Figures,
  variant: 'words' | 'typo',
): { todayOnly: string[]; onDiskOnly: string[]; p: number } {
  const missedBy = (f: Figures) => new Set(f.missed.filter((m) => m.startsWith(`${variant}: `)));
  const todayMissed = missedBy(today);
  const onDiskMissed = missedBy(onDisk);
  const todayOnly = [...onDiskMissed].filter((m) => !todayMissed.has(m));
  const onDiskOnly = [...todayMissed].filter((m) => !onDiskMissed.has(m));
  const n = todayOnly.length + onDiskOnly.length;
  let p = 0;
  for (let k = todayOnly.length; k <= n; k++) p += binomial(n, k) / 2 ** n;
  return { todayOnly, onDiskOnly, p: n === 0 ? 1 : p };
}

function binomial(n: number, k: number): number {
  let c = 1;
  for (let i = 1; i <= k; i++) c = (c * (n - k + i)) / i;
  return c;
}

const share = (n: number) => `${((100 * n) / SAMPLE).toFixed(1)}%`;

describe('known-item search over the corpus', () => {
  it(`finds ${SAMPLE} random papers by a few of their rarest title words, with and without a typo`, async () => {
    const seed = Number(process.env.KNOWN_ITEM_SEED ?? Math.floor(Math.random() * 2 ** 31));
    const items = knownItems(seed);
    console.log(
      `known-item search: ${SAMPLE} papers drawn with seed ${seed} (KNOWN_ITEM_SEED=${seed} repeats it)`,
    );
    const figures: Figures[] = [];
    for (const engine of engines) {
      const f = await measure(engine, items);
      figures.push(f);
      console.log(
        `  ${engine.name}: top ${TOP} by rare title words ${share(f.words)}, with one typo ${share(f.typo)},` +
          ` by exact title ${share(f.title)}`,
      );
      for (const missed of f.missed) console.log(`    not in the top ${TOP}, ${missed}`);
    }
    const [today, onDisk] = figures;
    if (!today || !onDisk) throw new Error('both engines must have been measured');
    for (const variant of ['words', 'typo'] as const) {
      const { todayOnly, onDiskOnly, p } = pairedComparison(today, onDisk, variant);
      console.log(
        `  ${variant}: found by today's engine only ${todayOnly.length}, by the on-disk index only ` +
          `${onDiskOnly.length} (one-sided sign test p = ${p.toFixed(3)})`,
      );
      // Worse beyond chance fails; one paper either way in a draw of 200 is the draw, not the engine
      // (the same code scored 100% and 99.5% against 99.5% on two seeds).
      expect(
        p,
        `the on-disk index misses what today's engine finds: ${todayOnly.join(', ')}`,
      ).toBeGreaterThan(0.05);
    }
    expect(onDisk.title).toBe(SAMPLE);
  }, 600_000);
});
