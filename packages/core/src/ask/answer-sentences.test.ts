import { describe, expect, it } from 'vitest';
import { answerSentences, splitSentences } from './answer-sentences.ts';

describe('splitSentences', () => {
  it('splits on sentence ends but keeps abbreviations, decimals and inline maths whole', () => {
    expect(
      splitSentences(
        'We study agents, e.g. web agents, in detail. Accuracy rises by 3.5 points on ALFWorld. The bound is $O(n \\log n). x$ tight. Short.',
      ),
    ).toEqual([
      'We study agents, e.g. web agents, in detail.',
      'Accuracy rises by 3.5 points on ALFWorld.',
      'The bound is $O(n \\log n). x$ tight.',
    ]);
  });
});

describe('answerSentences', () => {
  const papers = [
    {
      id: 'p1',
      title: 'Credit assignment for agents',
      abstract:
        'Long horizons make credit assignment hard for language agents. We propose turn-level advantages that assign credit to each turn. Experiments use ALFWorld.',
      listingDate: '2026-04-01',
    },
    {
      id: 'p2',
      title: 'A survey of web agents',
      abstract:
        'Web agents browse pages to finish tasks. Rewards are sparse, so credit assignment across turns matters.',
      listingDate: '2026-04-02',
    },
    {
      id: 'p3',
      title: 'Image segmentation',
      abstract: 'We segment medical images with a new decoder network.',
      listingDate: null,
    },
  ];

  it('returns the sentences that answer the question, one per paper, citing it', () => {
    const answer = answerSentences('How is credit assigned across turns?', papers);
    // p1's sentence names both subjects (turn twice) and its title matches: it ranks first.
    expect(answer.map((a) => a.paperId)).toEqual(['p1', 'p2']);
    expect(answer[0]?.sentence).toBe('We propose turn-level advantages that assign credit to each turn.');
    expect(answer[0]?.matched.sort()).toEqual(['credit', 'turn']);
    expect(answer[1]?.sentence).toBe('Rewards are sparse, so credit assignment across turns matters.');
    expect(answer[1]?.title).toBe('A survey of web agents');
  });

  it('returns nothing for a question of stopwords only, or with no matching sentence', () => {
    expect(answerSentences('what is the', papers)).toEqual([]);
    expect(answerSentences('quantum chromodynamics', papers)).toEqual([]);
  });
});
