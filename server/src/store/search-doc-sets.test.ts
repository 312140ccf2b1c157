import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIELD_BOOSTS, normalisePaper, type PaperEntity } from '@quire/core';
import type { Database } from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openReadOnlyDatabase } from './open-database.ts';
import { openStore, type Store } from './open-store.ts';
import { DocSets, IN_SET } from './search-doc-sets.ts';
import { SearchIndex, type IndexFilters } from './search-index.ts';

let dir: string;
let store: Store;
let readOnly: Database;

function paper(n: number, title: string): PaperEntity {
  return normalisePaper({
    id: `2604.${String(10000 + n)}`,
    title,
    abstract: `Paper ${n} is about agents.`,
    authors: ['Ada Lovelace'],
    categories: ['cs.LG'],
    listingDate: `2026-04-${String(1 + n).padStart(2, '0')}`,
  });
}

const tag = (topic: string, id: string) =>
  store.db
    .prepare(`INSERT INTO paper_tags (topic, paper_id, score, evidence) VALUES (?, ?, 1, '[]')`)
    .run(topic, id);

const inTopic: IndexFilters = {
  topics: ['rl-for-tool-use'],
  topicsFrom: 'tags',
  categories: null,
  from: null,
  to: null,
};

const ranked = (index: SearchIndex) =>
  index
    .ranked('"agent"', inTopic, FIELD_BOOSTS, { limit: 10, offset: 0, window: 100 })
    .rows.map((r) => r.paperId)
    .sort();
const newest = (index: SearchIndex) => index.newest('"agent"', inTopic, { limit: 10, offset: 0 });

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quire-doc-sets-'));
  store = openStore(join(dir, 'quire.db'));
  store.papers.upsertBatch(
    [1, 2, 3, 4].map((n) => paper(n, `Agents ${n}`)),
    { countsAsListing: true },
  );
  tag('rl-for-tool-use', '2604.10001');
  tag('rl-for-tool-use', '2604.10003');
  tag('imitation-learning', '2604.10002');
  // The counted hierarchy (each topic itself), so the closure rows the closure filter reads exist.
  await store.tags.recordHierarchy([
    { topic: 'imitation-learning', broader: 'imitation-learning' },
    { topic: 'rl-for-tool-use', broader: 'rl-for-tool-use' },
  ]);
  readOnly = openReadOnlyDatabase(join(dir, 'quire.db'));
});
afterEach(() => {
  readOnly.close();
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('topic filters from a set held in memory', () => {
  it('keeps the papers a probe per match keeps', () => {
    const index = new SearchIndex(readOnly);
    expect(ranked(index)).toEqual(['2604.10001', '2604.10003']);
    // Held, the set is what the search uses from now on.
    DocSets.of(readOnly).docsOf('tags', inTopic.topics ?? []);
    expect(DocSets.of(readOnly).has('tags', inTopic.topics ?? [])).toBe(true);
    expect(ranked(index)).toEqual(['2604.10001', '2604.10003']);
    expect(newest(index)).toEqual({ ids: ['2604.10003', '2604.10001'], total: 2 });
  });

  it('is read again once another connection commits, so a paper tagged since is kept', () => {
    const index = new SearchIndex(readOnly);
    DocSets.of(readOnly).docsOf('tags', inTopic.topics ?? []);
    tag('rl-for-tool-use', '2604.10004');
    expect(DocSets.of(readOnly).has('tags', inTopic.topics ?? [])).toBe(false);
    DocSets.of(readOnly).docsOf('tags', inTopic.topics ?? []);
    expect(ranked(index)).toEqual(['2604.10001', '2604.10003', '2604.10004']);
  });

  it('is read again once its own connection writes', () => {
    const index = new SearchIndex(store.db);
    DocSets.of(store.db).docsOf('tags', inTopic.topics ?? []);
    tag('rl-for-tool-use', '2604.10002');
    DocSets.of(store.db).docsOf('tags', inTopic.topics ?? []);
    expect(ranked(index)).toEqual(['2604.10001', '2604.10002', '2604.10003']);
  });

  it('answers a topic closure the same way', () => {
    const index = new SearchIndex(readOnly);
    const closure: IndexFilters = { ...inTopic, topicsFrom: 'closure' };
    const want = { ids: ['2604.10003', '2604.10001'], total: 2 };
    expect(index.newest('"agent"', closure, { limit: 10, offset: 0 })).toEqual(want);
    DocSets.of(readOnly).docsOf('closure', closure.topics ?? []);
    expect(DocSets.of(readOnly).has('closure', closure.topics ?? [])).toBe(true);
    expect(index.newest('"agent"', closure, { limit: 10, offset: 0 })).toEqual(want);
  });
});

describe('category filters', () => {
  const inCategory = (categories: string[]): IndexFilters => ({
    topics: null,
    topicsFrom: 'tags',
    categories,
    from: null,
    to: null,
  });
  const rankedIn = (index: SearchIndex, categories: string[]) =>
    index
      .ranked('"agent"', inCategory(categories), FIELD_BOOSTS, { limit: 10, offset: 0, window: 100 })
      .rows.map((r) => r.paperId)
      .sort();

  it('keep the papers of a category or archive, read as a set or probed, and a paper stored since', () => {
    store.papers.upsertBatch(
      [
        normalisePaper({
          id: '2604.10005',
          title: 'Agents 5',
          abstract: 'Paper 5 is about agents.',
          authors: ['Ada Lovelace'],
          categories: ['cs.RO'],
          listingDate: '2026-04-06',
        }),
      ],
      { countsAsListing: true },
    );
    const index = new SearchIndex(readOnly);
    const learning = ['2604.10001', '2604.10002', '2604.10003', '2604.10004'];
    // A handful of papers: reading the category's docs is the cheaper plan, and the set is kept.
    expect(rankedIn(index, ['cs.lg'])).toEqual(learning);
    expect(DocSets.of(readOnly).has('categories', ['cs.LG'])).toBe(true);
    expect(rankedIn(index, ['cs.lg'])).toEqual(learning);
    expect(rankedIn(index, ['cs'])).toEqual([...learning, '2604.10005']);
    expect(rankedIn(index, ['cs.ro', 'math'])).toEqual(['2604.10005']);
    expect(rankedIn(index, ['cs.xx'])).toEqual([]);
    expect(index.newest('"agent"', inCategory(['cs.ro']), { limit: 10, offset: 0 })).toEqual({
      ids: ['2604.10005'],
      total: 1,
    });
    store.papers.upsertBatch([paper(6, 'Agents 6')], { countsAsListing: true });
    expect(rankedIn(index, ['cs.lg'])).toEqual([...learning, '2604.10006']);
  });
});

describe('a set read from its bitmaps', () => {
  it('holds a byte for each doc of the category, over several bitmap words and their top bit', () => {
    // 70 more papers than the four above: bitmap words 0-2 of 32 docs, every third paper in cs.RO.
    store.papers.upsertBatch(
      Array.from({ length: 70 }, (_, i) =>
        normalisePaper({
          id: `2604.${String(20000 + i)}`,
          title: `Robots ${i}`,
          abstract: 'About agents.',
          authors: ['Ada Lovelace'],
          categories: i % 3 === 2 ? ['cs.RO'] : ['cs.LG'],
          listingDate: '2026-04-20',
        }),
      ),
      { countsAsListing: true },
    );
    const inRobotics = new Set(
      readOnly
        .prepare(
          `SELECT d.doc FROM paper_categories c JOIN search_docs d ON d.paper_id = c.paper_id
           WHERE c.category = 'cs.RO'`,
        )
        .pluck()
        .all() as number[],
    );
    const top = readOnly.prepare('SELECT MAX(doc) FROM search_docs').pluck().get() as number;
    // A word's top bit (doc 31 of it) among them, which a signed 32-bit read would get wrong.
    expect([...inRobotics].some((doc) => doc % 32 === 31)).toBe(true);
    const docs = DocSets.of(readOnly).docsOf('categories', ['cs.RO']);
    const held = Array.from({ length: top + 1 }, (_, doc) => docs[doc] === 1);
    expect(held).toEqual(Array.from({ length: top + 1 }, (_, doc) => inRobotics.has(doc)));
    // Tested by SQL as the filter tests it.
    const inSet = readOnly.prepare(`SELECT substr(?, ? + 1, 1) = ${IN_SET}`).pluck();
    expect([...inRobotics].every((doc) => inSet.get(docs, doc) === 1)).toBe(true);
    expect(inSet.get(docs, top + 1)).toBe(0);
  });
});

describe('a topic closure with dates and no text', () => {
  it('reads the papers of those dates only', () => {
    const index = new SearchIndex(readOnly);
    tag('rl-for-tool-use', '2604.10004');
    const dated = (from: string | null, to: string | null): IndexFilters => ({
      ...inTopic,
      topicsFrom: 'closure',
      from,
      to,
    });
    const page = { limit: 10, offset: 0 };
    expect(index.newest(null, dated('2026-04-03', null), page)).toEqual({
      ids: ['2604.10004', '2604.10003'],
      total: 2,
    });
    expect(index.newest(null, dated(null, '2026-04-04'), page)).toEqual({
      ids: ['2604.10003', '2604.10001'],
      total: 2,
    });
    expect(index.newest(null, dated('2026-04-03', '2026-04-04'), page)).toEqual({
      ids: ['2604.10003'],
      total: 1,
    });
  });
});

describe('a match counted once per search', () => {
  it('is counted again once another connection commits', () => {
    const index = new SearchIndex(readOnly);
    expect(index.hitsUpTo('"agent"', 100)).toBe(4);
    store.papers.upsertBatch([paper(5, 'Agents 5')], { countsAsListing: true });
    expect(index.hitsUpTo('"agent"', 100)).toBe(5);
  });

  it('answers a larger cap with a fresh count when the kept one reached its cap', () => {
    const index = new SearchIndex(readOnly);
    expect(index.hitsUpTo('"agent"', 2)).toBe(2);
    expect(index.hitsUpTo('"agent"', 3)).toBe(3);
    expect(index.hitsUpTo('"agent"', 100)).toBe(4);
    // An exact count (under its cap) answers any cap.
    expect(index.hitsUpTo('"agent"', 2)).toBe(2);
  });

  it('is not kept from inside its own connection transaction that rolls back', () => {
    const index = new SearchIndex(store.db);
    const rolledBack = store.db.transaction(() => {
      store.papers.upsertBatch([paper(6, 'Agents 6')], { countsAsListing: true });
      expect(index.hitsUpTo('"agent"', 100)).toBe(5);
      throw new Error('roll back');
    });
    expect(() => rolledBack()).toThrow('roll back');
    expect(index.hitsUpTo('"agent"', 100)).toBe(4);
  });
});
