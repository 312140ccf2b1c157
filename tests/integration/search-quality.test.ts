import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Author, type SearchResponseDto } from '@quire/core';
import { createApp } from '@quire/server/api/app';
import { importPaths } from '@quire/server/ingest/import-dumps';
import { FtsSearch } from '@quire/server/search/fts-search';
import { SearchThread } from '@quire/server/search/search-thread';
import { sqliteSearchReader } from '@quire/server/store/search-reader';
import { openTopics } from '@quire/server/topics/open-topics';
import { listingsDir } from '../src/paths.ts';
import { tempStore, type TempStore } from '../src/harness/temp-store.ts';
import { sqliteStores } from '@quire/server/store/stores';

/**
 * Search as a new reader tries it (issue 11, search quality): an arXiv id or address goes to its paper, a
 * person's name finds that person's papers first, results can be listed newest first. Expectations are
 * read from the stored rows, independently of the code under test.
 */

interface Row {
  id: string;
  title: string;
  authors: string;
  listing_date: string | null;
}

let t: TempStore;
let app: ReturnType<typeof createApp>;
let thread: SearchThread;
let rows: Row[];

beforeAll(async () => {
  t = tempStore();
  await importPaths(t.store, [listingsDir]);
  // Promise.resolve: openTopics is becoming async (issue 11's store move); either form is read here.
  const { topics } = await Promise.resolve(openTopics(t.store));
  const search = new FtsSearch(sqliteSearchReader(t.store.db), topics.taxonomy);
  app = createApp({ store: sqliteStores(t.store), harvestState: () => null, topics, search });
  thread = new SearchThread(t.dbPath);
  rows = t.store.db.prepare('SELECT id, title, authors, listing_date FROM papers ORDER BY id').all() as Row[];
}, 300_000);
afterAll(async () => {
  await thread.close();
  t.dispose();
});

async function get(q: string, extra = ''): Promise<SearchResponseDto> {
  const res = await app.request(`/api/search?q=${encodeURIComponent(q)}${extra}`);
  expect(res.status, q).toBe(200);
  return (await res.json()) as SearchResponseDto;
}

const ids = (answer: SearchResponseDto) => answer.results.map((r) => r.id);
const namesOf = (row: Row) => (JSON.parse(row.authors) as Author[]).map((a) => a.name.trim());

/** The stored papers one of whose authors is written exactly `name`, newest first. */
function papersBy(name: string): string[] {
  return rows
    .filter((r) => namesOf(r).includes(name))
    .sort((a, b) => (b.listing_date ?? '').localeCompare(a.listing_date ?? '') || b.id.localeCompare(a.id))
    .map((r) => r.id);
}

/** Two-word names (capitalised, plain letters) with 2 to 4 papers, whose surname alone is on other papers too. */
function sharedSurnameNames(count: number): string[] {
  const papers = new Map<string, number>();
  const surnames = new Map<string, number>();
  for (const row of rows) {
    for (const name of new Set(namesOf(row))) {
      if (!/^[A-Z][a-z]+ [A-Z][a-z]{3,}$/.test(name)) continue;
      papers.set(name, (papers.get(name) ?? 0) + 1);
      const surname = name.split(' ')[1] ?? '';
      surnames.set(surname, (surnames.get(surname) ?? 0) + 1);
    }
  }
  return [...papers]
    .filter(([name, n]) => n >= 2 && n <= 4 && (surnames.get(name.split(' ')[1] ?? '') ?? 0) > n)
    .map(([name]) => name)
    .sort()
    .slice(0, count);
}

describe('an arXiv id or address goes to its paper', () => {
  it('answers the paper alone, in every form the id is written', async () => {
    const row = rows[Math.floor(rows.length / 2)]!;
    const forms = [
      row.id,
      `${row.id}v2`,
      `arXiv:${row.id}`,
      `arXiv: ${row.id}v1`,
      `https://arxiv.org/abs/${row.id}`,
      `https://arxiv.org/abs/${row.id}v3`,
      `https://arxiv.org/pdf/${row.id}v1.pdf`,
      `https://arxiv.org/html/${row.id}v1`,
      `arxiv.org/pdf/${row.id}`,
    ];
    for (const form of forms) {
      const answer = await get(form);
      expect(answer.exact, form).toEqual({ id: row.id, stored: true });
      expect(ids(answer), form).toEqual([row.id]);
      expect(answer.total, form).toBe(1);
      expect(answer.results[0]?.title).toBe(row.title);
    }
  });

  it('says when this server does not hold the paper (it can be fetched), and answers so from the thread', async () => {
    for (const id of ['2605.99999', 'hep-th/9901001']) {
      const answer = await get(`https://arxiv.org/abs/${id}v1`);
      expect(answer).toMatchObject({ total: 0, results: [], exact: { id, stored: false } });
    }
    const known = rows[0]!.id;
    const threaded = await thread.search(known, { limit: 20, offset: 0 });
    expect(threaded.exact).toEqual({ id: known, stored: true });
    expect(ids(threaded)).toEqual([known]);
  });

  it('keeps text searches that merely hold a number as text', async () => {
    const answer = await get(`${rows[0]!.id} agents`);
    expect(answer.exact).toBeNull();
  });
});

describe("a person's name finds that person's papers first", () => {
  it('lists every paper by Ying Wen and Yoshua Bengio first, each naming the author', async () => {
    for (const name of ['Ying Wen', 'Yoshua Bengio', ...sharedSurnameNames(5)]) {
      const theirs = papersBy(name);
      expect(theirs.length, name).toBeGreaterThan(0);
      const answer = await get(name);
      expect(answer.byAuthor, name).toEqual({ name, papers: theirs.length });
      expect(ids(answer).slice(0, theirs.length), name).toEqual(theirs);
      for (const result of answer.results.slice(0, theirs.length)) expect(result.authorMatch).toBe(name);
      expect(answer.results[theirs.length]?.authorMatch).toBeUndefined();
    }
    // Lowercase, as typed, and the threaded service the server runs answer the same.
    const typed = await thread.search('ying wen', { limit: 20, offset: 0 });
    expect(ids(typed).slice(0, 3)).toEqual(papersBy('Ying Wen'));
    expect(typed.results[0]?.title).not.toMatch(/King Wen/);
  });

  it('pages through the author first, then the words', async () => {
    const all = ids(await get('Yoshua Bengio', '&limit=100'));
    const paged = [
      ...ids(await get('Yoshua Bengio', '&limit=4')),
      ...ids(await get('Yoshua Bengio', '&limit=4&offset=4')),
      ...ids(await get('Yoshua Bengio', '&limit=4&offset=8')),
    ];
    expect(paged).toEqual(all.slice(0, 12));
    expect(new Set(all).size).toBe(all.length);
  });

  it('finds a surname alone among the authors', async () => {
    const theirs = rows.filter((r) => namesOf(r).some((n) => /\bBengio$/.test(n))).map((r) => r.id);
    const answer = await get('Bengio');
    expect(answer.byAuthor).toBeNull();
    expect(new Set(ids(answer).slice(0, theirs.length))).toEqual(new Set(theirs));
  });
});

describe('newest or most relevant first', () => {
  it('lists the same matches newest first with sort=newest', async () => {
    const relevance = await get('reward model', '&limit=100');
    const newest = await get('reward model', '&limit=100&sort=newest');
    expect(relevance.sort).toBe('relevance');
    expect(newest.sort).toBe('newest');
    expect(newest.total).toBe(relevance.total);
    const dates = newest.results.map((r) => r.listingDate ?? '');
    expect(dates).toEqual([...dates].sort().reverse());
    expect(ids(newest)).not.toEqual(ids(relevance));
    // A typo is still forgiven in newest order.
    const typo = await get('reinforcment', '&sort=newest');
    expect(typo.total).toBeGreaterThan(0);
  });

  it('sorts a name search by date alone, the author not first', async () => {
    const newest = await get('Ying Wen', '&sort=newest&limit=100');
    expect(newest.byAuthor).toBeNull();
    const dates = newest.results.map((r) => r.listingDate ?? '');
    expect(dates).toEqual([...dates].sort().reverse());
  });

  it('refuses an unknown order, naming the ones there are', async () => {
    const res = await app.request('/api/search?q=agents&sort=oldest');
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toMatch(/relevance or newest/);
  });
});
