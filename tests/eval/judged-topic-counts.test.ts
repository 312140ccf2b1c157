import { defaultTaxonomy } from '@quire/core';
import { describe, expect, it } from 'vitest';
import { judgedTopicCounts } from './judged-topic-counts.ts';
import type { LockedJudgment } from './locked-eval.ts';

const j = (paper: string, topic: string, label: boolean, judge = 'x'): LockedJudgment => ({
  set: 'precision',
  paper,
  topic,
  label,
  judge,
});

describe('judgedTopicCounts', () => {
  it('counts judged-in topics less their judged-in ancestors, ties as out', () => {
    const c = judgedTopicCounts(
      [
        // a: RL for LLM Agents with two of its ancestors, plus robotics → 2 direct
        j('a', 'rl-for-llm-agents', true),
        j('a', 'reinforcement-learning', true),
        j('a', 'ai-agents', true),
        j('a', 'robotics', true),
        j('a', 'computer-vision', false),
        // b: one judge in, one out → a tie, out → 0 direct
        j('b', 'robotics', true, 'p'),
        j('b', 'robotics', false, 'q'),
        // c: autonomous driving implies computer vision and robotics; with 3D vision and information
        // retrieval → 3 direct
        j('c', 'autonomous-driving', true),
        j('c', 'computer-vision', true),
        j('c', 'robotics', true),
        j('c', '3d-vision', true),
        j('c', 'information-retrieval', true),
      ],
      defaultTaxonomy(),
    );
    expect(c.papers).toBe(3);
    expect(c.histogram.slice(0, 4)).toEqual([1, 0, 1, 1]);
    expect(c.median).toBe(2);
    expect(c.none).toBe(1);
    expect(c.threeOrMore).toBe(1);
    expect(c.mean).toBeCloseTo(5 / 3, 6);
    expect(c.medianLow).toBeGreaterThanOrEqual(0);
    expect(c.medianHigh).toBeLessThanOrEqual(3);
  });
});
