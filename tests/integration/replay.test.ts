import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawDir } from '../src/paths.ts';
import {
  corpusManifest,
  loadCorpus,
  startReplayServer,
  type CorpusPaper,
  type ReplayServer,
} from '../src/replay/index.ts';
import { useReplayServer } from '../src/replay/use-replay-server.ts';

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  trimValues: false,
  isArray: (name) => ['record', 'item', 'entry', 'author', 'category', 'header'].includes(name),
});

/** Walks parsed XML by keys and indexes; a missing step yields undefined. */
function at(node: unknown, ...path: Array<string | number>): unknown {
  let current = node;
  for (const step of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string | number, unknown>)[step];
  }
  return current;
}

/** An element's text, whether the parser gave a bare string or an object with attributes. */
function str(node: unknown): string {
  if (typeof node === 'string') return node;
  const inner = at(node, '#text');
  return typeof inner === 'string' ? inner : '';
}

function list(node: unknown): unknown[] {
  return node === undefined ? [] : Array.isArray(node) ? (node as unknown[]) : [node];
}

function parseXml(body: string): unknown {
  expect(XMLValidator.validate(body)).toBe(true);
  return parser.parse(body) as unknown;
}

async function get(url: string): Promise<{ status: number; headers: Headers; text: string }> {
  const response = await fetch(url);
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** Follows resumption tokens to the end; returns ids in order, the page count and the list sizes seen. */
async function harvest(
  server: ReplayServer,
  query: string,
): Promise<{ ids: string[]; pages: number; sizes: string[] }> {
  const ids: string[] = [];
  const sizes: string[] = [];
  let url = `${server.oaiUrl}?verb=ListRecords&${query}`;
  for (let pages = 1; ; pages += 1) {
    const { status, text: body } = await get(url);
    expect(status).toBe(200);
    const listing = at(parseXml(body), 'OAI-PMH', 'ListRecords');
    const records = list(at(listing, 'record'));
    for (const record of records)
      ids.push(str(at(record, 'header', 0, 'identifier')).replace('oai:arXiv.org:', ''));
    const token = at(listing, 'resumptionToken');
    if (token === undefined) return { ids, pages, sizes };
    sizes.push(str(at(token, '@_completeListSize')));
    expect(Number(at(token, '@_cursor'))).toBe(ids.length - records.length);
    const value = str(token);
    if (value === '') return { ids, pages, sizes };
    url = `${server.oaiUrl}?verb=ListRecords&resumptionToken=${encodeURIComponent(value)}`;
  }
}

let corpus: CorpusPaper[] = [];

beforeAll(async () => {
  corpus = await loadCorpus();
});

describe('corpus reader', () => {
  it('loads every record and agrees with MANIFEST', () => {
    expect(corpus).toHaveLength(corpusManifest().total_records);
    expect(
      corpus.every((paper) => /^\d{4}-\d{2}-\d{2}$/.test(paper.date) && paper.categories.length > 0),
    ).toBe(true);
  });
});

describe('recorded bytes', () => {
  const arxiv = useReplayServer();

  it('serves a raw file byte for byte', async () => {
    const relative = 'oai-pmh/litpuvn_arxiv-oai-harvester/ListRecords.xml';
    const response = await fetch(`${arxiv.url}/raw/${relative}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/xml/);
    expect(Buffer.from(await response.arrayBuffer()).equals(readFileSync(join(rawDir, relative)))).toBe(true);
    expect((await get(`${arxiv.url}/raw/..%2F..%2FPROVENANCE.md`)).status).toBe(404);
    expect((await get(`${arxiv.url}/raw/oai-pmh/nothing-here.xml`)).status).toBe(404);
  });

  it('replays the recorded 503 with its Retry-After, then the recorded 200', async () => {
    const fixture = 'oaipmh-listrecords---should-list-identifiers-from-arxiv.json';
    const busy = await get(`${arxiv.url}/recorded/${fixture}/0`);
    expect(busy.status).toBe(503);
    expect(busy.headers.get('retry-after')).toBe('10');
    expect(busy.text).toBe('<html><body>\n<h1>Retry after 10 seconds</h1>\n</body></html>\n');
    const ok = await get(`${arxiv.url}/recorded/${fixture}/1`);
    const extracted = join(rawDir, 'oai-pmh/paperhive_oai-pmh/extracted_bodies');
    expect(ok.status).toBe(200);
    expect(ok.text).toBe(
      readFileSync(join(extracted, 'listrecords_should-list-identifiers-from-arxiv.1.http200.xml'), 'utf8'),
    );
    expect((await get(`${arxiv.url}/recorded/${fixture}/2`)).status).toBe(404);
  });

  it('answers recorded API queries with the recorded body and status', async () => {
    const golden = join(rawDir, 'api-atom/lukasschwab_arxiv.py/2026_golden_json');
    const recorded = JSON.parse(
      readFileSync(join(golden, 'id_1707.08567_s0_m100_6a1afebfc6a3.json'), 'utf8'),
    ) as {
      body: string;
    };
    const hit = await get(`${arxiv.apiUrl}?search_query=&id_list=1707.08567&start=0&max_results=100`);
    expect(hit.status).toBe(200);
    expect(hit.text).toBe(recorded.body);
    expect((await get(`${arxiv.url}/recorded/id_1707.08567_s0_m100_6a1afebfc6a3.json/0`)).text).toBe(
      recorded.body,
    );
    const bad = await get(`${arxiv.apiUrl}?id_list=abc&max_results=100`);
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('incorrect id format for abc');
  });
});

describe('Atom API generated from the corpus', () => {
  const arxiv = useReplayServer();

  it('returns entries for corpus ids in the 2026 shape and none for unknown ids', async () => {
    const [first, second] = corpus;
    if (!first || !second) throw new Error('empty corpus');
    const { status, text: body } = await get(`${arxiv.apiUrl}?id_list=${first.id},9912.99999,${second.id}`);
    expect(status).toBe(200);
    const feed = at(parseXml(body), 'feed');
    expect(str(at(feed, 'opensearch:totalResults'))).toBe('2');
    const entries = list(at(feed, 'entry'));
    expect(entries.map((entry) => str(at(entry, 'id')))).toEqual([
      `http://arxiv.org/abs/${first.id}v1`,
      `http://arxiv.org/abs/${second.id}v1`,
    ]);
    expect(str(at(entries[0], 'title'))).toBe(first.title);
    expect(str(at(entries[0], 'arxiv:primary_category', '@_term'))).toBe(first.categories[0]);
    expect(list(at(entries[0], 'author')).map((author) => str(at(author, 'name')))).toEqual(first.authors);
    const none = at(parseXml((await get(`${arxiv.apiUrl}?id_list=0000.0000`)).text), 'feed');
    expect(str(at(none, 'opensearch:totalResults'))).toBe('0');
    expect(at(none, 'entry')).toBeUndefined();
  });
});

describe('OAI-PMH generated from the corpus', () => {
  const arxiv = useReplayServer({ oaiPageSize: 400 });
  let wide: ReplayServer;
  beforeAll(async () => {
    wide = await startReplayServer({ oaiPageSize: 5000 });
  });
  afterAll(() => wide.close());

  it('pages a two-day window to the end and returns exactly those days', async () => {
    const expected = corpus
      .filter((paper) => ['2026-03-23', '2026-03-24'].includes(paper.date))
      .filter((paper) => paper.categories.some((category) => category.startsWith('cs.')))
      .sort((a, b) => (a.date + a.id < b.date + b.id ? -1 : 1))
      .map((paper) => paper.id);
    const { ids, pages, sizes } = await harvest(
      arxiv,
      'metadataPrefix=arXiv&set=cs&from=2026-03-23&until=2026-03-24',
    );
    expect(ids).toEqual(expected);
    expect(pages).toBe(Math.ceil(expected.length / 400));
    expect(new Set(sizes)).toEqual(new Set([String(expected.length)]));
  });

  it('harvests the whole window in pages of 5000', async () => {
    const { ids, pages } = await harvest(wide, 'metadataPrefix=arXivRaw&set=cs&from=2026-03-01');
    expect(ids).toHaveLength(corpusManifest().total_records);
    expect(new Set(ids).size).toBe(ids.length);
    expect(pages).toBe(6);
  });

  it('expires tokens after an expiredToken fault and after expireTokens()', async () => {
    const first = await get(
      `${arxiv.oaiUrl}?verb=ListRecords&metadataPrefix=arXiv&from=2026-04-01&until=2026-04-02`,
    );
    const token = /<resumptionToken[^>]*>([^<]+)</.exec(first.text)?.[1] ?? '';
    expect(token).not.toBe('');
    arxiv.inject({ kind: 'expiredToken' });
    // A request without a token does not consume the fault.
    await get(`${arxiv.oaiUrl}?verb=Identify`);
    expect(arxiv.pendingFaults).toHaveLength(1);
    const next = `${arxiv.oaiUrl}?verb=ListRecords&resumptionToken=${token}`;
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const code = at(parseXml((await get(next)).text), 'OAI-PMH', 'error', '@_code');
      expect(code).toBe('badResumptionToken');
    }
    const fresh = await get(
      `${arxiv.oaiUrl}?verb=ListRecords&metadataPrefix=arXiv&from=2026-04-01&until=2026-04-02`,
    );
    const freshToken = /<resumptionToken[^>]*>([^<]+)</.exec(fresh.text)?.[1] ?? '';
    expect((await get(`${arxiv.oaiUrl}?verb=ListRecords&resumptionToken=${freshToken}`)).text).toContain(
      '<record>',
    );
    arxiv.expireTokens();
    expect((await get(`${arxiv.oaiUrl}?verb=ListRecords&resumptionToken=${freshToken}`)).text).toContain(
      'code="badResumptionToken"',
    );
  });

  it('answers OAI errors for bad requests', async () => {
    const code = async (query: string): Promise<string> =>
      str(at(parseXml((await get(`${arxiv.oaiUrl}?${query}`)).text), 'OAI-PMH', 'error', '@_code'));
    expect(await code('verb=ListRecords&metadataPrefix=arXiv&from=2027-01-01')).toBe('noRecordsMatch');
    expect(await code('verb=ListRecords&metadataPrefix=arXiv&set=moo')).toBe('noRecordsMatch');
    expect(await code('verb=ListRecords&metadataPrefix=arXiv&from=16-03-2026')).toBe('badArgument');
    expect(await code('verb=ListRecords&metadataPrefix=arXiv&identifier=x')).toBe('badArgument');
    expect(await code('verb=ListRecords&from=2026-03-16')).toBe('badArgument');
    expect(await code('verb=ListRecords&metadataPrefix=oai_marc')).toBe('cannotDisseminateFormat');
    expect(await code('verb=ListRecords&resumptionToken=bogus')).toBe('badResumptionToken');
    expect(await code('verb=Frobnicate')).toBe('badVerb');
    expect(await code('verb=GetRecord&metadataPrefix=arXiv&identifier=oai:arXiv.org:0813.2274')).toBe(
      'idDoesNotExist',
    );
  });

  it('writes arXiv and arXivRaw metadata that round-trips XML special characters', async () => {
    const tricky = corpus.find((paper) => /[<>&]/.test(paper.title) && paper.comment !== null);
    if (!tricky) throw new Error('no title with XML special characters in the corpus');
    const record = async (prefix: string): Promise<unknown> => {
      const url = `${arxiv.oaiUrl}?verb=GetRecord&metadataPrefix=${prefix}&identifier=oai:arXiv.org:${tricky.id}`;
      return at(parseXml((await get(url)).text), 'OAI-PMH', 'GetRecord', 'record', 0, 'metadata', prefix);
    };
    const plain = await record('arXiv');
    expect(str(at(plain, 'title'))).toBe(tricky.title);
    expect(str(at(plain, 'abstract'))).toBe(tricky.abstract);
    expect(str(at(plain, 'comments'))).toBe(tricky.comment);
    expect(str(at(plain, 'categories'))).toBe(tricky.categories.join(' '));
    const names = list(at(plain, 'authors', 'author')).map((author) =>
      [at(author, 'forenames'), at(author, 'keyname')]
        .filter((part) => part !== undefined)
        .map(str)
        .join(' '),
    );
    expect(names).toEqual(tricky.authors);

    const raw = await record('arXivRaw');
    expect(str(at(raw, 'title'))).toBe(tricky.title);
    expect(at(raw, 'version', '@_version')).toBe('v1');
    expect(str(at(raw, 'version', 'date'))).toMatch(
      /^[A-Z][a-z]{2}, \d{1,2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/,
    );
  });

  it('dates v1 inside the submission window arXiv would list on the corpus date', async () => {
    const eastern = new Intl.DateTimeFormat('en-US', {
      timeZone: 'America/New_York',
      weekday: 'short',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      hourCycle: 'h23',
    });
    const sample = corpus.filter((_, index) => index % 500 === 0);
    for (const paper of sample) {
      const url = `${arxiv.oaiUrl}?verb=GetRecord&metadataPrefix=arXivRaw&identifier=oai:arXiv.org:${paper.id}`;
      const root = parseXml((await get(url)).text);
      const submitted = str(
        at(root, 'OAI-PMH', 'GetRecord', 'record', 0, 'metadata', 'arXivRaw', 'version', 'date'),
      );
      const parts = Object.fromEntries(
        eastern.formatToParts(new Date(submitted)).map((part) => [part.type, part.value]),
      );
      // Move to the next weekday when past the 14:00 cutoff or at a weekend, then list one weekday later.
      let day = new Date(`${parts.year}-${parts.month}-${parts.day}T00:00:00Z`);
      const step = (): void => {
        day = new Date(day.getTime() + 86_400_000);
      };
      const weekend = (): boolean => day.getUTCDay() === 0 || day.getUTCDay() === 6;
      if (Number(parts.hour) >= 14 || weekend()) step();
      while (weekend()) step();
      step();
      while (weekend()) step();
      expect(day.toISOString().slice(0, 10), paper.id).toBe(paper.date);
    }
  });
});

describe('RSS listing feeds', () => {
  const arxiv = useReplayServer();

  async function feed(categories: string, day: string): Promise<unknown[]> {
    arxiv.setDay(day);
    const { status, text: body } = await get(`${arxiv.rssUrl}/${categories}`);
    expect(status).toBe(200);
    const channel = at(parseXml(body), 'rss', 'channel');
    expect(str(at(channel, 'title'))).toBe(`${categories} updates on arXiv.org`);
    return list(at(channel, 'item'));
  }
  const idOf = (item: unknown): string => str(at(item, 'link')).replace('https://arxiv.org/abs/', '');
  const typeOf = (item: unknown): string => str(at(item, 'arxiv:announce_type'));

  it('lists every paper of a Monday once when all its categories are requested', async () => {
    const monday = '2026-04-13';
    const categories = [...new Set(corpus.filter((p) => p.date === monday).flatMap((p) => p.categories))];
    const items = (await feed(categories.join('+'), monday)).filter((item) =>
      ['new', 'cross'].includes(typeOf(item)),
    );
    const perDay = corpusManifest().files['2026-04-13.jsonl.br']?.per_day[monday];
    expect(items).toHaveLength(perDay ?? -1);
    expect(new Set(items.map(idOf)).size).toBe(items.length);
  });

  it('matches a direct filter of the corpus for a set of categories', async () => {
    const wanted = ['cs.RO', 'cs.MA', 'eess.SY'];
    const day = '2026-04-21';
    const items = await feed(wanted.join('+'), day);
    const fresh = items.filter((item) => ['new', 'cross'].includes(typeOf(item)));
    const expected = corpus.filter((p) => p.date === day && p.categories.some((c) => wanted.includes(c)));
    expect(fresh.map(idOf).sort()).toEqual(expected.map((p) => p.id).sort());
    for (const item of fresh) {
      const paper = expected.find((p) => p.id === idOf(item));
      const type = wanted.includes(paper?.categories[0] ?? '') ? 'new' : 'cross';
      expect(typeOf(item)).toBe(type);
      expect(str(at(item, 'guid'))).toBe(`oai:arXiv.org:${idOf(item)}v1`);
      expect(at(item, 'guid', '@_isPermaLink')).toBe('false');
      expect(str(at(item, 'pubDate'))).toBe('Tue, 21 Apr 2026 00:00:00 -0400');
      expect(str(at(item, 'dc:creator'))).toBe(paper?.authors.join(', '));
      expect(list(at(item, 'category')).map(str)).toEqual(paper?.categories);
    }
  });

  it('adds replacements only for papers listed 7–20 days earlier', async () => {
    const day = '2026-05-12';
    const items = await feed('cs.AI+cs.CL', day);
    const replaced = items.filter((item) => typeOf(item).startsWith('replace'));
    expect(replaced.length).toBeGreaterThan(20);
    const byId = new Map(corpus.map((paper) => [paper.id, paper]));
    for (const item of replaced) {
      const paper = byId.get(idOf(item));
      const age = (Date.parse(day) - Date.parse(paper?.date ?? '')) / 86_400_000;
      expect(age).toBeGreaterThanOrEqual(7);
      expect(age).toBeLessThanOrEqual(20);
      expect(str(at(item, 'guid'))).toMatch(/v2$/);
      const primaryWanted = ['cs.AI', 'cs.CL'].includes(paper?.categories[0] ?? '');
      expect(typeOf(item)).toBe(primaryWanted ? 'replace' : 'replace-cross');
    }
  });

  it('serves an empty but valid feed on a Saturday', async () => {
    expect(await feed('cs.AI', '2026-04-18')).toEqual([]);
  });

  it('round-trips titles with XML special characters', async () => {
    const tricky = corpus.find((paper) => /[<>&]/.test(paper.title) && paper.categories.includes('cs.AI'));
    if (!tricky) throw new Error('no cs.AI title with XML special characters');
    const item = (await feed('cs.AI', tricky.date)).find((candidate) => idOf(candidate) === tricky.id);
    expect(str(at(item, 'title'))).toBe(tricky.title);
  });
});

describe('faults', () => {
  const arxiv = useReplayServer();
  const identify = (): string => `${arxiv.oaiUrl}?verb=Identify`;

  it('answers 503 and 429 with Retry-After, and 500', async () => {
    arxiv.inject({ kind: 'status503', retryAfterSeconds: 7 });
    arxiv.inject({ kind: 'status429', retryAfterSeconds: 3 });
    arxiv.inject({ kind: 'status500' });
    const busy = await get(identify());
    expect([busy.status, busy.headers.get('retry-after')]).toEqual([503, '7']);
    const limited = await get(identify());
    expect([limited.status, limited.headers.get('retry-after')]).toEqual([429, '3']);
    expect((await get(identify())).status).toBe(500);
    expect((await get(identify())).status).toBe(200);
    expect(arxiv.requests.map((request) => request.fault)).toEqual([
      'status503',
      'status429',
      'status500',
      undefined,
    ]);
  });

  it('consumes a fault only on a matching request', async () => {
    arxiv.inject({ kind: 'status503', retryAfterSeconds: 1, match: /verb=GetRecord/ });
    expect((await get(identify())).status).toBe(200);
    expect((await get(`${arxiv.oaiUrl}?verb=GetRecord&metadataPrefix=arXiv&identifier=x`)).status).toBe(503);
    expect(arxiv.pendingFaults).toEqual([]);
  });

  it('truncates a body to its first half', async () => {
    const whole = await get(identify());
    arxiv.inject({ kind: 'truncated' });
    const cut = await get(identify());
    expect(cut.status).toBe(200);
    expect(Buffer.byteLength(cut.text)).toBe(Math.floor(Buffer.byteLength(whole.text) / 2));
    expect(whole.text.startsWith(cut.text)).toBe(true);
    expect(XMLValidator.validate(cut.text)).not.toBe(true);
  });

  it('sends malformed XML', async () => {
    arxiv.inject({ kind: 'malformedXml', match: /^\/rss\// });
    const broken = await get(`${arxiv.rssUrl}/cs.AI`);
    expect(broken.status).toBe(200);
    expect(XMLValidator.validate(broken.text)).not.toBe(true);
    expect(() => {
      parser.parse(broken.text);
    }).toThrow();
  });

  // The delay itself is not timed here (wall-clock assertions belong in benchmarks): a slow answer is whole.
  it('answers in full after a delay and resets a connection', async () => {
    arxiv.inject({ kind: 'slow', delayMs: 300 });
    const slow = await get(identify());
    expect(slow.status).toBe(200);
    expect(slow.text).toContain('<Identify>');
    arxiv.inject({ kind: 'reset' });
    await expect(fetch(identify())).rejects.toThrow();
    expect((await get(identify())).status).toBe(200);
  });

  it('records method, path and time of every request', async () => {
    const before = Date.now();
    await get(`${arxiv.rssUrl}/cs.LG?x=1`);
    expect(arxiv.requests.map(({ method, path }) => ({ method, path }))).toEqual([
      { method: 'GET', path: '/rss/cs.LG?x=1' },
    ]);
    expect(arxiv.requests[0]?.time).toBeGreaterThanOrEqual(before);
    expect(arxiv.requests[0]?.time).toBeLessThanOrEqual(Date.now());
  });
});
