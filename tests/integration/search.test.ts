import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultTaxonomy, normalisePaper, type Author, type SearchResponseDto } from '@quire/core';
import { createApp } from '@quire/server/api/app';
import { importPaths } from '@quire/server/ingest/import-dumps';
import { FtsSearch } from '@quire/server/search/fts-search';
import { openStore } from '@quire/server/store/open-store';
import { sampleQueries, timeQueries } from '@quire/server/search/search-timing';
import { sqliteSearchReader } from '@quire/server/store/search-reader';
import { SearchSamples } from '@quire/server/store/search-samples';
import { openTopics } from '@quire/server/topics/open-topics';
import { retag } from '@quire/server/topics/retag';
import { listingsDir } from '../src/paths.ts';
import { tempStore, type TempStore } from '../src/harness/temp-store.ts';
import { sqliteStores } from '@quire/server/store/stores';

interface Row {
  id: string;
  title: string;
  abstract: string;
  authors: string;
  listing_date: string | null;
}

let t: TempStore;
let search: FtsSearch;
let app: ReturnType<typeof createApp>;
let rows: Row[];

beforeAll(async () => {
  t = tempStore();
  await importPaths(t.store, [listingsDir]);
  const { topics } = await openTopics(t.store);
  search = new FtsSearch(sqliteSearchReader(t.store.db), topics.taxonomy);
  app = createApp({ store: sqliteStores(t.store), harvestState: () => null, topics, search });
  rows = t.store.db
    .prepare('SELECT id, title, abstract, authors, listing_date FROM papers ORDER BY id')
    .all() as Row[];
}, 300_000);
afterAll(() => t.dispose());

async function get(q: string, extra = ''): Promise<SearchResponseDto> {
  const res = await app.request(`/api/search?q=${encodeURIComponent(q)}${extra}`);
  expect(res.status, q).toBe(200);
  return (await res.json()) as SearchResponseDto;
}

const ids = (answer: SearchResponseDto) => answer.results.map((r) => r.id);
const hitTexts = (answer: SearchResponseDto, id: string) =>
  (answer.results.find((r) => r.id === id)?.highlights.abstract ?? [])
    .filter((s) => s.hit)
    .map((s) => s.text.toLowerCase());

/** Plain lowercase words of a text, read independently of the code under test. */
const wordsOf = (text: string) => text.toLowerCase().match(/[a-z]+/g) ?? [];

let rareWord: { id: string; word: string } | undefined;
function rareAbstractWord(): { id: string; word: string } {
  rareWord ??= findRareAbstractWord();
  return rareWord;
}

/**
 * A long word found in exactly one paper, chosen from the corpus itself: no plural "s" (search folds
 * plurals, which could join it with another paper's singular), and not part of a hyphenated word.
 */
function findRareAbstractWord(): { id: string; word: string } {
  const papersWith = new Map<string, Set<string>>();
  for (const row of rows) {
    for (const word of wordsOf(`${row.title} ${row.abstract}`)) {
      let set = papersWith.get(word);
      if (!set) papersWith.set(word, (set = new Set()));
      set.add(row.id);
    }
  }
  for (const row of rows) {
    for (const word of new Set(
      row.abstract.toLowerCase().match(/(?<![\w\\-])[a-z]{10,14}(?![\w-])/g) ?? [],
    )) {
      if (!word.endsWith('s') && papersWith.get(word)?.size === 1) return { id: row.id, word };
    }
  }
  throw new Error('no rare abstract word in the corpus');
}

/** An author whose surname appears in the author lists of two or three papers. */
function rareSurname(): { id: string; name: string; surname: string } {
  const papersWith = new Map<string, Set<string>>();
  const parsed = rows.map((row) => ({
    id: row.id,
    names: (JSON.parse(row.authors) as Author[]).map((a) => a.name),
  }));
  const surnameOf = (name: string) => name.split(/\s+/).at(-1)?.toLowerCase() ?? '';
  for (const { id, names } of parsed) {
    for (const name of names) {
      const surname = surnameOf(name);
      let set = papersWith.get(surname);
      if (!set) papersWith.set(surname, (set = new Set()));
      set.add(id);
    }
  }
  for (const { id, names } of parsed) {
    for (const name of names) {
      const surname = surnameOf(name);
      const n = papersWith.get(surname)?.size ?? 0;
      if (/^[a-z]{6,}$/.test(surname) && n >= 2 && n <= 3 && /^[A-Z][a-z]+ [A-Z][a-z]+$/.test(name)) {
        return { id, name, surname };
      }
    }
  }
  throw new Error('no rare surname in the corpus');
}

function closure(slug: string): string[] {
  const taxonomy = defaultTaxonomy();
  const out = [slug];
  for (let i = 0; i < out.length; i++) out.push(...(taxonomy.children.get(out[i] ?? '') ?? []));
  return out;
}

describe('GET /api/search over the corpus', () => {
  it('finds a paper by a rare word of its abstract, and highlights it', async () => {
    const { id, word } = rareAbstractWord();
    const answer = await get(word);
    expect(answer.total).toBeGreaterThan(0);
    expect(ids(answer).slice(0, 5)).toContain(id);
    expect(hitTexts(answer, id)).toContain(word);
    const result = answer.results.find((r) => r.id === id);
    expect(result?.title).toBe(rows.find((r) => r.id === id)?.title);
  });

  it('finds it with a letter missing', async () => {
    const { id, word } = rareAbstractWord();
    const typo = word.slice(0, 4) + word.slice(5);
    const answer = await get(typo);
    expect(ids(answer), typo).toContain(id);
    expect(hitTexts(answer, id)).toContain(word);
  });

  it('finds papers by an author surname, and by the whole name as a filter', async () => {
    const { id, name, surname } = rareSurname();
    expect(ids(await get(surname))).toContain(id);
    const filtered = await get(`author:"${name}"`);
    expect(ids(filtered)).toContain(id);
    for (const result of filtered.results) {
      const authors = t.store.papers.get(result.id)?.authors.map((a) => a.name.toLowerCase()) ?? [];
      expect(authors, result.id).toContain(name.toLowerCase());
    }
  });

  it('finds a quoted phrase from a title', async () => {
    const row = rows.find((r) => /^[A-Za-z]{5,} [A-Za-z]{5,} [A-Za-z]{5,}/.test(r.title));
    if (!row) throw new Error('no suitable title');
    const phrase = row.title.split(' ').slice(0, 3).join(' ');
    const answer = await get(`"${phrase}"`, '&limit=100');
    expect(ids(answer)).toContain(row.id);
    expect(answer.query.phrases).toEqual([phrase]);
  });

  it('topic: keeps only papers carrying the topic or a narrower one, and counts them all', async () => {
    const slug = 'reinforcement-learning';
    const carrying = new Set(
      t.store.db
        .prepare('SELECT DISTINCT paper_id FROM paper_tags WHERE topic IN (SELECT value FROM json_each(?))')
        .pluck()
        .all(JSON.stringify(closure(slug))) as string[],
    );
    const listed = await get(`topic:${slug}`, '&limit=100');
    expect(listed.total).toBe(carrying.size);
    const dates = listed.results.map((r) => r.listingDate ?? '');
    expect([...dates].sort().reverse()).toEqual(dates);
    const searched = await get(`topic:${slug} policy`, '&limit=100');
    expect(searched.total).toBeGreaterThan(0);
    expect(searched.total).toBeLessThan(listed.total);
    for (const id of ids(searched)) expect(carrying.has(id), id).toBe(true);
  });

  it('cat: matches any of a paper’s categories', async () => {
    const inRo = new Set(
      t.store.db
        .prepare("SELECT paper_id FROM paper_categories WHERE category = 'cs.RO'")
        .pluck()
        .all() as string[],
    );
    const listed = await get('cat:cs.RO');
    expect(listed.total).toBe(inRo.size);
    const searched = await get('category:cs.RO grasping', '&limit=100');
    expect(searched.total).toBeGreaterThan(0);
    for (const id of ids(searched)) expect(inRo.has(id), id).toBe(true);
  });

  it('from: and to: bound the listing date, both ends included', async () => {
    const inRange = rows.filter(
      (r) => r.listing_date && r.listing_date >= '2026-04-06' && r.listing_date <= '2026-04-10',
    );
    const listed = await get('from:2026-04-06 to:2026-04-10', '&limit=5&offset=3');
    expect(listed.total).toBe(inRange.length);
    expect(listed.results).toHaveLength(5);
    const searched = await get('language from:2026-04-06 to:2026-04-10', '&limit=100');
    for (const r of searched.results) {
      expect(r.listingDate && r.listingDate >= '2026-04-06' && r.listingDate <= '2026-04-10', r.id).toBe(
        true,
      );
    }
  });

  it('lists every paper newest first for an empty query', async () => {
    const answer = await get('');
    expect(answer.total).toBe(rows.length);
    const newest = rows.reduce((m, r) => ((r.listing_date ?? '') > m ? (r.listing_date ?? '') : m), '');
    expect(answer.results[0]?.listingDate).toBe(newest);
    expect(answer.results[0]?.authors.length).toBeLessThanOrEqual(3);
  });

  it('answers 400 naming a bad filter or parameter', async () => {
    for (const [query, pattern] of [
      ['q=from%3A2026-99-01', /from: filter/],
      ['q=topic%3Anot-a-topic', /topic: filter/],
      ['q=x&limit=0', /limit/],
    ] as const) {
      const res = await app.request(`/api/search?${query}`);
      expect(res.status, query).toBe(400);
      const body = (await res.json()) as { error: string; message: string };
      expect(body.message).toMatch(pattern);
    }
  });

  it('refuses a query too long to be a search, saying the limit, and a question too long to ask', async () => {
    // About 1,700 words (16 KB): once, one such request held the server for 8 seconds.
    const words = Array.from({ length: 1700 }, (_, i) => `word${(i * 7919) % 10007}`).join(' ');
    const long = await app.request(`/api/search?q=${encodeURIComponent(words)}`);
    expect(long.status).toBe(400);
    const body = (await long.json()) as { error: string; message: string };
    expect(body.error).toBe('invalid-input');
    expect(body.message).toContain('at most 500 characters');
    const many = Array.from({ length: 40 }, (_, i) => `w${i}`).join(' ');
    const manyRes = await app.request(`/api/search?q=${encodeURIComponent(many)}`);
    expect(manyRes.status).toBe(400);
    expect(((await manyRes.json()) as { message: string }).message).toContain('at most 32 words');
    const ask = await app.request(`/api/topics/rl-for-llm-agents/ask?q=${encodeURIComponent(words)}`);
    expect(ask.status).toBe(400);
    expect(((await ask.json()) as { message: string }).message).toContain('at most 500 characters');
    // Within the limits a long query still answers.
    const ok = await app.request(`/api/search?q=${encodeURIComponent(Array(30).fill('agent').join(' '))}`);
    expect(ok.status).toBe(200);
  });

  it('finds a paper as soon as it is stored, and under its topics once they are written', async () => {
    const asOf = rows.reduce((m, r) => ((r.listing_date ?? '') > m ? (r.listing_date ?? '') : m), '');
    t.store.papers.upsertBatch(
      [
        normalisePaper({
          id: '2605.99901',
          title: 'Quokkanomics: faster 3D Gaussian Splatting for large scenes',
          abstract:
            'We render 3D Gaussian splats of large scenes in real time with a new rasteriser for splatting.',
          authors: ['Zed Quokkason'],
          categories: ['cs.CV'],
          listingDate: asOf,
        }),
      ],
      { countsAsListing: true },
    );
    expect(ids(await get('quokkanomic'))).toEqual(['2605.99901']);
    await retag(t.store.tags, defaultTaxonomy());
    // Tagged 3D Gaussian Splatting, so found under that topic's broader topics as well.
    const broader = defaultTaxonomy().ancestors.get('3d-gaussian-splatting') ?? [];
    expect(broader.length).toBeGreaterThan(0);
    for (const slug of ['3d-gaussian-splatting', ...broader]) {
      expect(ids(await get(`author:"Zed Quokkason" topic:${slug}`)), slug).toEqual(['2605.99901']);
    }
  });

  it('finds a paper another connection stored at once, and under its topics once they are written', async () => {
    // Another connection writes, as the server's writer does beside the search thread's reader.
    const writer = openStore(t.dbPath);
    try {
      const asOf = rows.reduce((m, r) => ((r.listing_date ?? '') > m ? (r.listing_date ?? '') : m), '');
      writer.papers.upsertBatch(
        [
          normalisePaper({
            id: '2605.99902',
            title: 'Wombatic splats: 3D Gaussian Splatting of burrows',
            abstract:
              'We reconstruct burrows as 3D Gaussian splats and render them in real time by splatting.',
            authors: ['Yara Wombatson'],
            categories: ['cs.CV'],
            listingDate: asOf,
          }),
        ],
        { countsAsListing: true },
      );
      expect(ids(await get('wombatic'))).toEqual(['2605.99902']);
      expect(ids(await get('wombatic topic:3d-gaussian-splatting'))).toEqual([]);
      await retag(writer.tags, defaultTaxonomy());
      expect(ids(await get('wombatic topic:3d-gaussian-splatting'))).toEqual(['2605.99902']);
    } finally {
      writer.close();
    }
  });

  it('has a timing helper for the benchmark (counts only; speed is for pnpm bench)', async () => {
    const queries = sampleQueries(new SearchSamples(t.store.db), 10, 3);
    expect(queries).toHaveLength(10);
    expect(sampleQueries(new SearchSamples(t.store.db), 10, 3)).toEqual(queries);
    expect(await timeQueries(search, queries)).toMatchObject({ queries: 10, withResults: 10 });
  });
});

describe('GET /api/related/:id over the corpus', () => {
  interface RelatedAnswer {
    id: string;
    results: { id: string; title: string; sharedTopics: { slug: string; name: string }[] }[];
  }
  const related = async (id: string, extra = '') => {
    const res = await app.request(`/api/related/${id}${extra}`);
    return { status: res.status, body: (await res.json()) as RelatedAnswer & { error?: string } };
  };
  // Stored tags and the broader topics the taxonomy file says they imply, as the paper's card shows them.
  const shownTags = (id: string) => {
    const ancestors = defaultTaxonomy().ancestors;
    const direct = (
      t.store.db.prepare('SELECT topic FROM paper_tags WHERE paper_id = ?').all(id) as { topic: string }[]
    ).map((r) => r.topic);
    return new Set(direct.flatMap((slug) => [slug, ...(ancestors.get(slug) ?? [])]));
  };

  it('lists other papers, most of them sharing a topic the paper is shown with', async () => {
    // Every 500th tagged paper: a spread over the corpus, chosen without the code under test.
    const sample = (
      t.store.db.prepare('SELECT DISTINCT paper_id FROM paper_tags ORDER BY paper_id').all() as {
        paper_id: string;
      }[]
    )
      .filter((_, i) => i % 500 === 0)
      .map((r) => r.paper_id);
    expect(sample.length).toBeGreaterThan(10);
    let shown = 0;
    let sharing = 0;
    for (const id of sample) {
      const { status, body } = await related(id);
      expect(status).toBe(200);
      expect(body.results.map((r) => r.id)).not.toContain(id);
      expect(body.results.length).toBeLessThanOrEqual(6);
      expect(new Set(body.results.map((r) => r.id)).size).toBe(body.results.length);
      const own = shownTags(id);
      for (const r of body.results) {
        shown += 1;
        const theirs = shownTags(r.id);
        if ([...own].some((slug) => theirs.has(slug))) sharing += 1;
      }
    }
    expect(shown).toBeGreaterThan(sample.length * 4);
    expect(sharing / shown).toBeGreaterThan(0.7);
  });

  it('names the shared topics and honours limit', async () => {
    const id = (
      t.store.db
        .prepare("SELECT paper_id FROM paper_tags WHERE topic = 'process-reward-models' ORDER BY paper_id")
        .get() as { paper_id: string }
    ).paper_id;
    const { body } = await related(id, '?limit=3');
    expect(body.results).toHaveLength(3);
    const shared = body.results.flatMap((r) => r.sharedTopics.map((s) => s.slug));
    expect(shared).toContain('process-reward-models');
    expect(body.results[0]?.sharedTopics[0]?.name).toMatch(/\w/);
  });

  it('answers 404 for an unknown paper and 400 for a malformed id or limit', async () => {
    expect((await related('2605.99999')).status).toBe(404);
    expect((await related('not-an-id')).status).toBe(400);
    expect((await related(rows[0]!.id, '?limit=0')).status).toBe(400);
  });
});
