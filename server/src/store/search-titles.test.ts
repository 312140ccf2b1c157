import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { FIELD_BOOSTS, normalisePaper, type PaperEntity, type RawPaper } from '@quire/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fts5Expression } from './fts5-match.ts';
import { MIGRATIONS, migrate } from './migrations.ts';
import { openStore, type Store } from './open-store.ts';
import { UPSERT_PAPERS, paperRowValues } from './paper-queries.ts';
import type { IndexFilters } from './search-index.ts';
import { allOf, anyOf, inColumns, phrase, without, word, type Match } from './search-match.ts';
import { CLEAR_PENDING, INDEX_PENDING, registerSearchFunctions } from './search-index-schema.ts';
import { sqliteSearchReader } from './search-reader.ts';
import { titlesOnly } from './search-titles.ts';

let dir: string;
let store: Store;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quire-search-titles-'));
  store = openStore(join(dir, 'quire.db'));
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

function paper(overrides: Partial<RawPaper> = {}): PaperEntity {
  return normalisePaper({
    id: '2604.01234',
    title: 'Lighthouse Keepers for Offline Policies',
    abstract: 'We keep a lighthouse of robot policies.',
    authors: ['Ada Lovelace'],
    categories: ['cs.LG'],
    listingDate: '2026-04-02',
    ...overrides,
  });
}

const NONE: IndexFilters = { topics: null, topicsFrom: 'tags', categories: null, from: null, to: null };
const LISTING = { countsAsListing: true };

/** The docs whose titles `match` matches, read from the titles' index and from paper_search's title column. */
function bothWays(db: BetterSqlite3.Database, match: Match) {
  const titles = db
    .prepare<[string], number>('SELECT rowid FROM paper_titles WHERE paper_titles MATCH ? ORDER BY rowid')
    .pluck()
    .all(fts5Expression(match));
  const column = db
    .prepare<[string], number>('SELECT rowid FROM paper_search WHERE paper_search MATCH ? ORDER BY rowid')
    .pluck()
    .all(fts5Expression(inColumns(['title'], match)));
  return { titles, column };
}

const MATCHES: Match[] = [
  word('lighthouse'),
  word('polic', true),
  word('robot'),
  phrase(['offline', 'policy']),
  allOf([word('keeper'), anyOf([word('robot'), word('offline')])]),
  without(word('lighthouse'), word('keeper')),
];

function expectTitlesFollow(db: BetterSqlite3.Database) {
  for (const match of MATCHES) {
    const { titles, column } = bothWays(db, match);
    expect(titles, fts5Expression(match)).toEqual(column);
  }
}

describe("the titles' own index", () => {
  it('holds every title as paper_search’s title column does, through updates, deletes and outside changes', () => {
    store.papers.upsertBatch(
      [
        paper(),
        paper({ id: '2604.05678', title: 'Robot Lighthouse', abstract: 'Offline keepers.' }),
        paper({ id: '2604.09999', title: 'Offline Policy Gradients' }),
      ],
      LISTING,
    );
    expectTitlesFollow(store.db);
    store.papers.upsertBatch([paper({ id: '2604.05678', title: 'Robot Keeper Lighthouse' })], LISTING);
    expectTitlesFollow(store.db);
    store.db.prepare('DELETE FROM papers WHERE id = ?').run('2604.09999');
    expectTitlesFollow(store.db);
    // Changed by other means: queued, then indexed with the next batch, both tables alike.
    const raw = new BetterSqlite3(join(dir, 'quire.db'));
    try {
      raw.prepare("UPDATE papers SET title = 'Robot Policies' WHERE id = '2604.01234'").run();
    } finally {
      raw.close();
    }
    store.papers.upsertBatch([paper({ id: '2604.07777', title: 'Lighthouse Robot' })], LISTING);
    expectTitlesFollow(store.db);
    expect(bothWays(store.db, word('robot')).titles).toHaveLength(3);
  });

  it('is filled by its migration step for papers indexed before it, a paper not yet indexed left queued', () => {
    const db = new BetterSqlite3(join(dir, 'older.db'));
    try {
      const step = MIGRATIONS.findIndex((m) => m.name === 'search-titles');
      migrate(db, MIGRATIONS.slice(0, step));
      registerSearchFunctions(db);
      const upsert = db.prepare(UPSERT_PAPERS(1));
      const write = (p: PaperEntity) => upsert.run(paperRowValues(p, '2026-05-01T00:00:00Z'));
      write(paper());
      write(paper({ id: '2604.05678', title: 'Robot Lighthouse' }));
      // Indexed as the steps before this one indexed (paper_search only), then one more paper written
      // outside the paper store: queued, in neither table until a batch indexes it.
      for (const sql of [INDEX_PENDING[0], INDEX_PENDING[1], CLEAR_PENDING]) db.prepare(sql).run();
      write(paper({ id: '2604.03333', title: 'Lighthouse Robot Policies' }));
      migrate(db);
      expect(db.prepare('SELECT count(*) FROM search_pending').pluck().get()).toBe(1);
      expectTitlesFollow(db);
      expect(bothWays(db, word('lighthouse')).titles).toHaveLength(2);
      expect(bothWays(db, word('robot')).titles).toHaveLength(1);
    } finally {
      db.close();
    }
    const older = openStore(join(dir, 'older.db'));
    try {
      older.papers.upsertBatch([paper({ id: '2604.09999', title: 'Offline Lighthouse' })], LISTING);
      expectTitlesFollow(older.db);
      expect(bothWays(older.db, word('lighthouse')).titles).toHaveLength(4);
      expect(bothWays(older.db, word('robot')).titles).toHaveLength(2);
    } finally {
      older.close();
    }
  });

  it('answers a search’s best title matches, filtered, newest window first, ranked by the title', async () => {
    const papers = Array.from({ length: 12 }, (_, i) =>
      paper({
        id: `2604.${String(10001 + i)}`,
        // Every third title is short (the lighthouse is all of it); the rest are long.
        title: i % 3 === 0 ? 'Lighthouse' : 'Lighthouse Keepers Watching Distant Ships at Night',
        categories: [i % 2 === 0 ? 'cs.RO' : 'cs.LG'],
      }),
    );
    store.papers.upsertBatch(papers, LISTING);
    store.papers.upsertBatch(
      [paper({ id: '2604.20000', title: 'Ships', abstract: 'A lighthouse.' })],
      LISTING,
    );
    const reader = sqliteSearchReader(store.db);
    const titled = inColumns(['title'], word('lighthouse'));
    const best = async (filters: IndexFilters, window: number) =>
      (await reader.best(titled, filters, FIELD_BOOSTS, { limit: 3, window })).map((r) => r.paperId);
    // The short titles first (the newest of equals kept, listed by id); the abstract's mention not at all.
    expect(await best(NONE, 100)).toEqual(['2604.10004', '2604.10007', '2604.10010']);
    // Only the newest 4 title matches are ranked.
    expect(await best(NONE, 4)).toEqual(['2604.10010', '2604.10011', '2604.10012']);
    // Filtered, equal scores go by id (as paper_search's filtered window does).
    expect(await best({ ...NONE, categories: ['cs.ro'] }, 100)).toEqual([
      '2604.10001',
      '2604.10007',
      '2604.10003',
    ]);
    expect(await best({ ...NONE, from: '2026-05-01' }, 100)).toEqual([]);
  });
});

describe('titlesOnly', () => {
  it('takes a match of titles alone, and nothing asking another column', () => {
    const words = allOf([word('a'), phrase(['b', 'c'])]);
    expect(titlesOnly(inColumns(['title'], words))).toEqual(words);
    expect(titlesOnly(words)).toBeNull();
    expect(titlesOnly(inColumns(['title', 'abstract'], words))).toBeNull();
    expect(titlesOnly(allOf([inColumns(['title'], words), inColumns(['authors'], word('x'))]))).toBeNull();
    expect(titlesOnly(inColumns(['title'], inColumns(['authors'], word('x'))))).toBeNull();
  });
});
