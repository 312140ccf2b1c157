import { addDays, parseQuery } from '@quire/core';
import type { CustomTopic } from '@quire/core/group';
import { describe, expect, it } from 'vitest';
import {
  candidateIds,
  definitionKey,
  describeEvidence,
  isCustomTopicSlug,
  newestHits,
  parseExemplarIds,
  phraseQuery,
  splitPhrases,
  tagMatches,
  type PhraseHit,
  type SearchFn,
} from './custom-topic-matches.ts';

function topic(id: string, phrases: string[], exemplars: string[] = []): CustomTopic {
  return {
    id,
    slug: `custom-${id}`,
    name: id,
    phrases,
    exemplars,
    createdBy: 'ada',
    createdAt: '2026-04-01T10:00:00.000Z',
  };
}

function paper(id: string, listingDate: string, title: string, abstract = '') {
  return { id, listingDate, title, abstract, categories: ['cs.LG'] };
}

/**
 * A search over `papers` that answers like the server's: the total, and a page in an order that is not
 * by date (relevance), narrowed by `from:`. Counts its requests.
 */
function fakeSearch(papers: PhraseHit[]): SearchFn & { calls: string[] } {
  const calls: string[] = [];
  const search = (query: string, limit: number) => {
    calls.push(query);
    const { from } = parseQuery(query);
    const found = papers.filter((p) => from === null || (p.listingDate ?? '') >= from);
    // A stable "relevance" order that mixes the weeks.
    const ranked = [...found].sort((a, b) => (a.id.split('').reverse() < b.id.split('').reverse() ? -1 : 1));
    return Promise.resolve({ total: found.length, hits: ranked.slice(0, limit) });
  };
  return Object.assign(search, { calls });
}

/** `perDay` papers a day for `days` days up to 2026-05-15. */
function corpus(days: number, perDay: number): PhraseHit[] {
  const out: PhraseHit[] = [];
  for (let d = 0; d < days; d++) {
    const listingDate = addDays('2026-05-15', -d);
    for (let i = 0; i < perDay; i++)
      out.push({ id: `${listingDate}-${String(i).padStart(3, '0')}`, listingDate });
  }
  return out;
}

describe('the topic form', () => {
  it('reads phrases one per line or comma separated', () => {
    expect(
      splitPhrases('process reward model\n  step-level  verifier , PRM,\n\nprocess reward model'),
    ).toEqual(['process reward model', 'step-level verifier', 'PRM']);
    expect(splitPhrases(' ,\n ')).toEqual([]);
  });

  it('reads exemplar ids in every form core accepts and names the rest', () => {
    expect(
      parseExemplarIds(
        '2604.12345v2, arXiv:2604.12345 https://arxiv.org/abs/hep-th/9901001 not-an-id 2604.1',
      ),
    ).toEqual({ ids: ['2604.12345', 'hep-th/9901001'], invalid: ['not-an-id', '2604.1'] });
  });

  it('tells the group’s own topics from taxonomy topics by slug', () => {
    expect(isCustomTopicSlug('custom-prm')).toBe(true);
    expect(isCustomTopicSlug('rl-for-llm-agents')).toBe(false);
  });
});

describe('phrase queries', () => {
  it('quotes a phrase so that its words must appear together', () => {
    expect(phraseQuery('process reward model')).toBe('"process reward model"');
    expect(parseQuery(phraseQuery('say "hello" world')).phrases).toEqual(['say hello world']);
  });

  it('leaves a prefix term’s last word free, where search reads it as a prefix', () => {
    expect(phraseQuery('reinforcement learn*')).toBe('"reinforcement" learn');
    expect(phraseQuery('reinforc*')).toBe('reinforc');
  });
});

describe('the newest papers containing a phrase', () => {
  it('takes a phrase that fits one page in one request', async () => {
    const search = fakeSearch(corpus(30, 2));
    const found = await newestHits(search, '"rare phrase"', 100);
    expect(search.calls).toEqual(['"rare phrase"']);
    expect(found).toMatchObject({ total: 60, completeFrom: null, requests: 1 });
    expect(found.hits).toHaveLength(60);
    expect(found.hits[0]?.listingDate).toBe('2026-05-15');
    expect(found.hits.at(-1)?.listingDate).toBe('2026-04-16');
  });

  it('narrows a common phrase to a recent window that holds every paper from its first day', async () => {
    const papers = corpus(60, 20);
    const search = fakeSearch(papers);
    const found = await newestHits(search, '"common phrase"', 100);
    expect(found.total).toBe(1200);
    expect(found.requests).toBeLessThanOrEqual(5);
    expect(search.calls.slice(1).every((q) => /^"common phrase" from:\d{4}-\d\d-\d\d$/.test(q))).toBe(true);
    const from = found.completeFrom ?? '';
    expect(from).not.toBe('');
    const recent = papers.filter((p) => (p.listingDate ?? '') >= from).map((p) => p.id);
    expect(recent.length).toBeGreaterThan(0);
    expect(recent.length).toBeLessThanOrEqual(100);
    // Newest first, and the window's papers before any older sample.
    expect(
      found.hits
        .slice(0, recent.length)
        .map((h) => h.id)
        .sort(),
    ).toEqual(recent.sort());
    const dates = found.hits.map((h) => h.listingDate ?? '');
    expect(dates).toEqual([...dates].sort().reverse());
  });

  it('stops narrowing at one day and says nothing is complete when that day alone overflows', async () => {
    const search = fakeSearch(corpus(10, 300));
    const found = await newestHits(search, '"everywhere"', 100);
    expect(found.requests).toBeLessThanOrEqual(5);
    expect(found.completeFrom).toBe('2026-05-16');
    expect(found.hits.length).toBeGreaterThanOrEqual(100);
  });
});

describe('matching with the core engine', () => {
  const prm = topic('prm', ['process reward model', 'RAG'], ['2604.00009']);
  const papers = [
    paper('2604.00001', '2026-04-01', 'Process Reward Models for Maths', 'We train one.'),
    paper('2604.00002', '2026-04-03', 'Verifiers', 'A process reward model scores each step.'),
    paper('2604.00003', '2026-04-02', 'Unrelated', 'We rag on nothing: rag in lower case.'),
    paper('2604.00004', '2026-04-04', 'Retrieval', 'RAG pipelines retrieve passages.'),
    paper('2604.00009', '2026-03-20', 'The exemplar', 'Words of its own.'),
  ];

  it('lists the papers the definition tags, newest first, with the evidence', () => {
    const matches = tagMatches([prm], papers).get('custom-prm') ?? [];
    expect(matches.map((m) => m.paper.id)).toEqual(['2604.00004', '2604.00002', '2604.00001', '2604.00009']);
    const [rag, abstract, title, exemplar] = matches.map((m) => m.tag.evidence.map(describeEvidence));
    expect(rag).toEqual(['“RAG” in the abstract']);
    expect(abstract).toEqual(['“process reward model” in the abstract']);
    expect(title).toEqual(['“process reward model” in the title']);
    expect(exemplar).toEqual(['an exemplar of the topic']);
  });

  it('keeps topics apart and answers empty lists for topics that can match nothing', () => {
    const other = topic('verifiers', ['verifier']);
    const empty = topic('empty', []);
    const matches = tagMatches([prm, other, empty], papers);
    expect(matches.get('custom-verifiers')?.map((m) => m.paper.id)).toEqual(['2604.00002']);
    expect(matches.get('custom-empty')).toEqual([]);
    expect(tagMatches([empty], papers).get('custom-empty')).toEqual([]);
  });

  it('fetches the newest hits of a topic’s phrases and its exemplars', () => {
    const hit = (id: string, listingDate: string): PhraseHit => ({ id, listingDate });
    const byQuery = new Map([
      [
        '"process reward model"',
        {
          query: '',
          total: 2,
          hits: [hit('a', '2026-04-02'), hit('b', '2026-04-01')],
          completeFrom: null,
          requests: 1,
        },
      ],
      ['"RAG"', { query: '', total: 1, hits: [hit('c', '2026-04-03')], completeFrom: null, requests: 1 }],
    ]);
    expect(candidateIds(prm, byQuery, 2)).toEqual(['c', 'a', '2604.00009']);
  });

  it('changes the definition key with phrases and names, not with who created the topic', () => {
    expect(definitionKey([prm])).toBe(definitionKey([{ ...prm, createdBy: 'ben' }]));
    expect(definitionKey([prm])).not.toBe(definitionKey([{ ...prm, phrases: ['process reward model'] }]));
  });
});
