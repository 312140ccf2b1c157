import { describe, expect, it } from 'vitest';
import { defaultTaxonomy, defaultTopicModels } from './default-taxonomy.ts';
import { compileTaxonomy, type TaggablePaper } from './tagging-engine.ts';
import { modelFeatures, type TopicModelFile } from './topic-model.ts';

/** The trainer's reading of a paper against a model file: the reference the engine's fast reading must equal. */
function referenceLogits(file: TopicModelFile, paper: TaggablePaper): Map<string, number> {
  const features = modelFeatures(paper.title, paper.abstract);
  return new Map(
    Object.entries(file.topics).map(([slug, m]) => [
      slug,
      m.features.reduce((z, [f, w]) => (features.has(f) ? z + w : z), m.bias),
    ]),
  );
}

const papers: TaggablePaper[] = [
  {
    id: 'a',
    title: 'Reward Models for LLM Agents: Process Supervision of Tool Calls',
    abstract:
      'We train a process reward model that scores each step of an agent. The reward model guides ' +
      'reinforcement learning of LLMs that call tools; the agents learn to search. Código disponible.',
    categories: ['cs.CL'],
  },
  {
    id: 'b',
    title: 'Mesh Deformation for Car Crash Simulation',
    abstract:
      'A finite-element mesh of the car is deformed; of the reward we say nothing. Naïve café-grade physics.',
    categories: ['cs.CE'],
  },
];

describe('learned topic models', () => {
  const taxonomy = defaultTaxonomy();
  const file: TopicModelFile = {
    version: 'test',
    topics: {
      'process-reward-models': {
        bias: -2,
        features: [
          ['reward model', 1.5],
          ['title:reward', 0.75],
          ['process', 0.5],
          ['agent', 0.25],
          ['café', 0.5],
          ['mesh', -1],
        ],
      },
      'rl-for-llm-agents': {
        bias: -1,
        features: [
          ['reinforcement learning', 1],
          ['title:llm', 0.5],
          ['tool', 0.5],
          ['the reward', 3],
          ['we say', 3],
        ],
      },
    },
  };

  it('scores a paper as the trainer reads it: words, title words and pairs, each once', () => {
    const engine = compileTaxonomy(taxonomy, { topicModels: file, calibration: null });
    for (const paper of papers) {
      const expected = referenceLogits(file, paper);
      const got = new Map(
        engine
          .passing(paper, undefined)
          .filter((t) => t.model !== undefined)
          .map((t) => [t.slug, t.model]),
      );
      for (const [slug, z] of got) expect(z).toBeCloseTo(expected.get(slug) ?? NaN, 6);
    }
    // "the reward" and "we say" hold a function word: never a pair, so they never count.
    expect(referenceLogits(file, papers[1] as TaggablePaper).get('rl-for-llm-agents')).toBe(-1);
  });

  it('names the features that carried a kept tag, with their weights', () => {
    const engine = compileTaxonomy(taxonomy, { topicModels: file });
    const tags = engine.passing(papers[0] as TaggablePaper);
    const prm = tags.find((t) => t.slug === 'process-reward-models');
    expect(prm?.model).toBeCloseTo(-2 + 1.5 + 0.75 + 0.5 + 0.25, 6);
    const kept = compileTaxonomy(taxonomy, { topicModels: file, calibration: null }).tag(
      papers[0] as TaggablePaper,
    );
    const line = kept
      .find((t) => t.slug === 'process-reward-models')
      ?.evidence.find((e) => e.rule === 'model');
    expect(line?.detail).toBe(
      'learned from judged papers: “reward model” +1.50, “reward” in the title +0.75, “process” +0.50, “agent” +0.25 (log-odds 1.00)',
    );
  });

  it('keeps no tag only a model names when there is no calibration to weigh it', () => {
    const cafe: TopicModelFile = {
      version: 'cafe',
      topics: { 'process-reward-models': { bias: -2, features: [['café', 3]] } },
    };
    const engine = compileTaxonomy(taxonomy, { topicModels: cafe, calibration: null });
    const paper = { id: 'c', title: 'Au café', abstract: 'Un café noir.', categories: [] };
    expect(engine.passing(paper).some((t) => t.score === 0)).toBe(true);
    expect(engine.tag(paper).every((t) => t.score > 0)).toBe(true);
  });

  it('an empty model file leaves every tag and evidence line as the rules alone give them', () => {
    const empty: TopicModelFile = { version: 'none', topics: {} };
    const withEmpty = compileTaxonomy(taxonomy, { topicModels: empty });
    const without = compileTaxonomy(taxonomy, { topicModels: null });
    for (const paper of papers) expect(withEmpty.tag(paper)).toEqual(without.tag(paper));
    // The built-in taxonomy's shipped file is compact when it holds models (tests/eval/README.md).
    for (const m of Object.values(defaultTopicModels().topics))
      expect(m.features.length).toBeLessThanOrEqual(60);
  });
});
