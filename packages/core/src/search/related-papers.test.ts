import { describe, expect, it } from 'vitest';
import { buildPaperIndex } from './search-build.ts';
import { toSearchDoc } from './search-config.ts';
import {
  distinctiveTerms,
  findRelated,
  rankRelated,
  relatedQueryTerms,
  topicSpecificity,
} from './related-papers.ts';
import { papersWithTerm } from './search-build.ts';
import { paper } from './test-papers.ts';

const docs = [
  {
    p: paper('2605.00001', {
      title: 'Process reward models for mathematical reasoning',
      abstract: 'We train a process reward model that scores each reasoning step of a solution.',
    }),
    tags: ['process-reward-models', 'reward-models', 'llm-reasoning'],
  },
  {
    p: paper('2605.00002', {
      title: 'Step-level verifiers for reasoning chains',
      abstract: 'A process reward model judges every reasoning step; we study verifier training.',
    }),
    tags: ['process-reward-models', 'reward-models', 'llm-reasoning'],
  },
  {
    p: paper('2605.00003', {
      title: 'Graph neural networks for molecules',
      abstract: 'Message passing over molecular graphs predicts chemical properties.',
    }),
    tags: ['graph-learning'],
  },
  {
    p: paper('2605.00004', {
      title: 'Reward hacking in language model training',
      abstract: 'Models exploit the reward; we measure reward hacking across training runs.',
    }),
    tags: ['reward-models'],
  },
];

describe('related papers', () => {
  it('searches with every title word first, then the words the abstract is about', () => {
    const terms = relatedQueryTerms({
      title: 'Sparse attention for long contexts',
      abstract:
        'Attention over long contexts is costly. Sparse attention keeps a few tokens; attention cost falls.',
    });
    expect(terms.slice(0, 4)).toEqual(['sparse', 'attention', 'long', 'context']);
    // "costly"/"tokens" come from the abstract; repeated title words are not asked twice.
    expect(terms.filter((t) => t === 'attention')).toHaveLength(1);
    expect(terms).toContain('token');
    expect(terms).toContain('costly');
  });

  it('finds the paper on the same narrow subject first and never the paper itself', () => {
    const index = buildPaperIndex(docs.map((d) => toSearchDoc(d.p, d.tags)));
    const hits = findRelated(index, docs[0]!.p, (slug) => (slug === 'process-reward-models' ? 0.9 : 0.3), 3);
    expect(hits.map((h) => h.id)).not.toContain('2605.00001');
    expect(hits[0]?.id).toBe('2605.00002');
    expect(hits[0]?.sharedTopics[0]).toBe('process-reward-models');
    expect(hits.map((h) => h.id)).not.toContain('2605.00003');
  });

  it('lets a shared narrow topic lift a weaker text match above a stronger one', () => {
    const ranked = rankRelated({
      selfId: 'self',
      selfTags: ['narrow', 'broad'],
      candidates: [
        { id: 'words', score: 10, tags: ['broad'] },
        { id: 'topic', score: 8, tags: ['narrow', 'broad'] },
        { id: 'self', score: 99, tags: ['narrow'] },
      ],
      specificity: (slug) => (slug === 'narrow' ? 1 : 0),
      limit: 5,
    });
    expect(ranked.map((r) => r.id)).toEqual(['topic', 'words']);
    expect(ranked[0]?.sharedTopics).toEqual(['narrow', 'broad']);
  });

  it('rates a topic held by few papers as specific and one held by all as not', () => {
    expect(topicSpecificity(27_000, 27_000)).toBe(0);
    expect(topicSpecificity(1, 27_000)).toBe(1);
    expect(topicSpecificity(100, 27_000)).toBeGreaterThan(topicSpecificity(10_000, 27_000));
    expect(topicSpecificity(0, 27_000)).toBe(0);
  });

  it('leaves out words most papers hold, which cost much and say little', () => {
    // 200 papers say "model"; only three say "quokka", "wombat", "numbat" or "bilby".
    const many = Array.from({ length: 200 }, (_, i) =>
      toSearchDoc(
        paper(`2605.${String(10000 + i)}`, {
          title: i < 3 ? 'A quokka and numbat model' : `A model number ${i}`,
          abstract: i < 3 ? 'The wombat and bilby model.' : 'Some model.',
        }),
        [],
      ),
    );
    const index = buildPaperIndex(many);
    expect(papersWithTerm(index, 'model')).toBe(200);
    expect(papersWithTerm(index, 'quokka')).toBe(3);
    expect(papersWithTerm(index, 'absent')).toBe(0);
    expect(distinctiveTerms(index, ['model', 'quokka', 'wombat', 'numbat', 'bilby'])).toEqual([
      'quokka',
      'wombat',
      'numbat',
      'bilby',
    ]);
    // Too few rare words: the rarest are kept, common ones with them, so the query is never empty.
    expect(distinctiveTerms(index, ['model', 'quokka'])).toEqual(['model', 'quokka']);
  });
});
