import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { normalisePaper, type PaperEntity } from '@quire/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from './open-store.ts';
import { CREATE_SEARCH_DOC_BITS } from './search-doc-bits.ts';
import { papersIn as categoryPapersIn } from './search-category-filter.ts';

let dir: string;
let store: Store;

function paper(n: number, categories: string[]): PaperEntity {
  return normalisePaper({
    id: `2604.${String(10000 + n)}`,
    title: `Agents ${n}`,
    abstract: `Paper ${n} is about agents.`,
    authors: ['Ada Lovelace'],
    categories,
    listingDate: `2026-04-${String(1 + (n % 28)).padStart(2, '0')}`,
  });
}

const run = (sql: string, ...params: unknown[]) => store.db.prepare(sql).run(...params);
const tag = (topic: string, n: number) =>
  run(
    `INSERT INTO paper_tags (topic, paper_id, score, evidence) VALUES (?, ?, 1, '[]')`,
    topic,
    `2604.${String(10000 + n)}`,
  );

/** The papers (by number) whose docs a bitmap table holds for `key`, decoded bit by bit. */
function papersIn(table: 'topic_doc_bits' | 'category_doc_bits', key: string): number[] {
  const column = table === 'topic_doc_bits' ? 'topic' : 'category';
  const rows = store.db.prepare(`SELECT word, bits FROM ${table} WHERE ${column} = ?`).all(key) as {
    word: number;
    bits: number;
  }[];
  const docs: number[] = [];
  for (const { word, bits } of rows)
    for (let b = 0; b < 32; b++) if ((bits >>> b) & 1) docs.push(word * 32 + b);
  const ids = docs.map(
    (doc) => store.db.prepare(`SELECT paper_id FROM search_docs WHERE doc = ?`).pluck().get(doc) as string,
  );
  return ids.map((id) => Number(id.slice(5)) - 10000).sort((a, b) => a - b);
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quire-doc-bits-'));
  store = openStore(join(dir, 'quire.db'));
  // Enough papers for docs in more than one 32-doc word.
  store.papers.upsertBatch(
    Array.from({ length: 40 }, (_, i) => paper(i + 1, i % 2 === 0 ? ['cs.LG'] : ['cs.LG', 'cs.RO'])),
    { countsAsListing: true },
  );
  await store.tags.recordHierarchy([
    { topic: 'rl-for-tool-use', broader: 'rl-for-tool-use' },
    { topic: 'rl-for-tool-use', broader: 'reinforcement-learning' },
    { topic: 'reinforcement-learning', broader: 'reinforcement-learning' },
  ]);
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the topic and category bitmaps', () => {
  it('hold each closure row and category a paper is stored with', () => {
    tag('rl-for-tool-use', 3);
    tag('rl-for-tool-use', 35);
    tag('reinforcement-learning', 7);
    expect(papersIn('topic_doc_bits', 'rl-for-tool-use')).toEqual([3, 35]);
    expect(papersIn('topic_doc_bits', 'reinforcement-learning')).toEqual([3, 7, 35]);
    expect(papersIn('category_doc_bits', 'cs.RO')).toEqual(Array.from({ length: 20 }, (_, i) => 2 * (i + 1)));
    expect(papersIn('category_doc_bits', 'cs.LG')).toHaveLength(40);
  });

  it('let go of a tag removed, a hierarchy changed, a category dropped and a paper deleted', () => {
    tag('rl-for-tool-use', 3);
    tag('rl-for-tool-use', 35);
    tag('reinforcement-learning', 35);
    run(`DELETE FROM paper_tags WHERE paper_id = '2604.10003'`);
    expect(papersIn('topic_doc_bits', 'rl-for-tool-use')).toEqual([35]);
    run(`DELETE FROM topic_closure WHERE topic = 'rl-for-tool-use' AND broader = 'reinforcement-learning'`);
    // Paper 35 keeps the broader topic by its own tag.
    expect(papersIn('topic_doc_bits', 'reinforcement-learning')).toEqual([35]);
    run(`DELETE FROM paper_tags WHERE paper_id = '2604.10035' AND topic = 'reinforcement-learning'`);
    expect(papersIn('topic_doc_bits', 'reinforcement-learning')).toEqual([]);
    // A paper stored again without one of its categories.
    store.papers.upsertBatch([paper(2, ['cs.LG'])], { countsAsListing: true });
    const evens = (from: number) =>
      Array.from({ length: 20 }, (_, i) => 2 * (i + 1)).filter((n) => n >= from);
    expect(papersIn('category_doc_bits', 'cs.RO')).toEqual(evens(4));
    run(`DELETE FROM papers WHERE id = '2604.10035'`);
    expect(papersIn('topic_doc_bits', 'rl-for-tool-use')).toEqual([]);
    const all = Array.from({ length: 40 }, (_, i) => i + 1);
    expect(papersIn('category_doc_bits', 'cs.LG')).toEqual(all.filter((n) => n !== 35));
    expect(papersIn('category_doc_bits', 'cs.RO')).toEqual(evens(4));
    // No word is left holding no bits.
    expect(run(`DELETE FROM topic_doc_bits WHERE bits = 0`).changes).toBe(0);
    expect(run(`DELETE FROM category_doc_bits WHERE bits = 0`).changes).toBe(0);
  });

  it('follow a category changed in place', () => {
    run(
      `UPDATE paper_categories SET category = 'cs.AI' WHERE paper_id = '2604.10004' AND category = 'cs.RO'`,
    );
    expect(papersIn('category_doc_bits', 'cs.AI')).toEqual([4]);
    expect(papersIn('category_doc_bits', 'cs.RO')).not.toContain(4);
    expect(papersIn('category_doc_bits', 'cs.RO')).toHaveLength(19);
  });

  it('are filled by the migration for papers stored before it', () => {
    tag('rl-for-tool-use', 33);
    tag('reinforcement-learning', 4);
    // The store as it was before the step: no bitmaps, no triggers.
    const triggers = store.db
      .prepare(`SELECT name FROM sqlite_schema WHERE type = 'trigger' AND name LIKE '%bits%'`)
      .pluck()
      .all() as string[];
    expect(triggers).toHaveLength(7);
    for (const name of triggers) run(`DROP TRIGGER ${name}`);
    run(`DROP TABLE topic_doc_bits`);
    run(`DROP TABLE category_doc_bits`);
    store.db.exec(CREATE_SEARCH_DOC_BITS);
    expect(papersIn('topic_doc_bits', 'rl-for-tool-use')).toEqual([33]);
    expect(papersIn('topic_doc_bits', 'reinforcement-learning')).toEqual([4, 33]);
    expect(papersIn('category_doc_bits', 'cs.RO')).toEqual(Array.from({ length: 20 }, (_, i) => 2 * (i + 1)));
  });
});

describe('the papers a category set holds, from its bitmap rows', () => {
  it('is every paper when every word of each set is filled, none when no row is, one a row when sparse', () => {
    // 3,200 papers: 100 words of 32 docs.
    expect(categoryPapersIn(100, 1, 3200)).toBe(3200);
    expect(categoryPapersIn(200, 2, 3200)).toBe(3200);
    expect(categoryPapersIn(0, 2, 3200)).toBe(0);
    // 10 of 100 words filled: p = 1 - 0.9^(1/32) = 0.003287 of 3,200 papers, about one paper a row.
    expect(categoryPapersIn(10, 1, 3200)).toBeCloseTo(10.52, 1);
    // Two sets in 100 rows: half their words filled each, p = 1 - 0.5^(1/32) = 0.02143, twice.
    expect(categoryPapersIn(100, 2, 3200)).toBeCloseTo(137.1, 1);
  });
});
