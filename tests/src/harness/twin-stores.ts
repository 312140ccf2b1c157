import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { defaultTaxonomy, loadTaxonomy, type Taxonomy, type TaxonomyFile } from '@quire/core';
import { importPaths } from '@quire/server/ingest/import-dumps';
import { openStore, type Store } from '@quire/server/store/open-store';
import { listingsDir } from '../paths.ts';

/*
 * Two stores holding the same imported listing, for tests that tag them two ways (in pages or whole, in
 * threads or here) and compare every row tagging writes. Imported once, then copied: the two start
 * byte-identical.
 */

/**
 * Registers the hooks that build the twins before the file's tests and remove them after; the stores are
 * read through the names given, inside tests: `const stores = twinStores('retag', ['paged', 'whole'])`.
 */
export function twinStores<N extends string>(
  name: string,
  names: readonly [N, N],
  listing = '2026-05-04.jsonl.br',
): Readonly<Record<N, Store>> {
  let dir = '';
  const opened = new Map<N, Store>();
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), `quire-${name}-`));
    const [first, second] = names;
    const seed = openStore(join(dir, `${first}.db`));
    await importPaths(seed, [join(listingsDir, listing)]);
    seed.db.pragma('wal_checkpoint(TRUNCATE)');
    seed.close();
    copyFileSync(join(dir, `${first}.db`), join(dir, `${second}.db`));
    for (const n of names) opened.set(n, openStore(join(dir, `${n}.db`)));
  });
  afterAll(() => {
    for (const store of opened.values()) store.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  const stores = {} as Record<N, Store>;
  for (const n of names) {
    Object.defineProperty(stores, n, {
      get: () => {
        const store = opened.get(n);
        if (!store) throw new Error('The twin stores are opened in beforeAll: use them inside tests.');
        return store;
      },
    });
  }
  return stores;
}

/** Every row tagging writes or derives, as text. */
export function taggingSnapshot(store: Store) {
  const rows = (sql: string) =>
    store.db
      .prepare(sql)
      .raw()
      .all()
      .map((r) => (r as unknown[]).join(' '));
  return {
    tags: rows('SELECT topic, paper_id, score, evidence FROM paper_tags ORDER BY topic, paper_id'),
    topics: rows('SELECT topic, paper_id, listing_date FROM paper_topics ORDER BY topic, paper_id'),
    counts: rows('SELECT topic, listing_date, n FROM topic_day_counts ORDER BY topic, listing_date'),
    bits: topicBits(store),
    stale: rows('SELECT paper_id FROM papers_to_tag ORDER BY paper_id'),
    state: rows('SELECT topic, definition_hash FROM topic_state ORDER BY topic'),
  };
}

/**
 * Each topic's search bitmaps as the papers they hold ("topic paperId", sorted): two stores number their
 * docs in the order they stored the papers, which a resumed import changes.
 */
function topicBits(store: Store): string[] {
  const paperOf = new Map(
    store.db
      .prepare<[], { doc: number; paper_id: string }>('SELECT doc, paper_id FROM search_docs')
      .all()
      .map((r) => [r.doc, r.paper_id]),
  );
  const held: string[] = [];
  const words = store.db
    .prepare<[], { topic: string; word: number; bits: number }>(
      'SELECT topic, word, bits FROM topic_doc_bits',
    )
    .all();
  for (const { topic, word, bits } of words) {
    for (let bit = 0; bit < 32; bit++) {
      if (Math.floor(bits / 2 ** bit) % 2 === 1) held.push(`${topic} ${paperOf.get(word * 32 + bit) ?? '?'}`);
    }
  }
  return held.sort();
}

/**
 * The default taxonomy with video-generation's definition changed and given `exemplars` from the store, and
 * the `removed` topics left out: a re-tag then re-runs that topic over every paper and drops the others.
 */
export function changedTaxonomy(exemplars: string[], removed: readonly string[] = []): Taxonomy {
  // The built-in version kept: a new one would change every topic's hash (see topics.test.ts).
  const file = JSON.parse(
    JSON.stringify({ version: defaultTaxonomy().version, topics: defaultTaxonomy().topics }),
  ) as TaxonomyFile;
  const video = file.topics.find((x) => x.slug === 'video-generation');
  if (!video) throw new Error('the taxonomy lacks video-generation');
  video.definition.exemplars = exemplars;
  video.definition.threshold = (video.definition.threshold ?? 3) + 1;
  file.topics = file.topics.filter((x) => !removed.includes(x.slug));
  return loadTaxonomy(file);
}
