import { describe, expect, it } from 'vitest';
import { defaultTaxonomy } from './default-taxonomy.ts';
import { compileTaxonomy, type TaggablePaper } from './tagging-engine.ts';

/**
 * The built-in taxonomy's tags for made-up papers, as the engine gave them before it could read a paper's
 * neighbourhood (issue 9): called without neighbours (the browser, offline tagging, group topics) it must
 * keep giving exactly these, evidence and confidence included.
 */
const PAPERS: TaggablePaper[] = [
  {
    id: 'made-up-1',
    title: 'Agentic Reinforcement Learning for LLM Agents with Multi-Turn Tool Use',
    abstract:
      'We train LLM agents with reinforcement learning (GRPO) over multi-turn tool use in a search engine environment. The agent learns when to call tools.',
    categories: ['cs.CL', 'cs.LG'],
  },
  {
    id: 'made-up-2',
    title: 'Vision-Language Models as Zero-Shot Image Captioners',
    abstract:
      'Large vision-language models (VLMs) describe images. We benchmark VLMs on image captioning and visual question answering.',
    categories: ['cs.CV'],
  },
  {
    id: 'made-up-3',
    title: '3D Gaussian Splatting for Dynamic Scenes',
    abstract:
      'We extend 3D Gaussian splatting to dynamic scenes with deformation fields, rendering novel views in real time.',
    categories: ['cs.CV', 'cs.GR'],
  },
  {
    id: 'made-up-4',
    title: 'A Note on Sheaf Cohomology',
    abstract: 'We compute sheaf cohomology groups of certain varieties.',
    categories: ['math.AG'],
  },
];

const agrees = (pct: number) => `confidence:a reader agrees with such a tag about ${pct}% of the time:0`;

const EXPECTED = [
  [
    [
      'rl-for-llm-agents',
      23.88,
      [
        'phrase:reinforcement learning for LLM agents:6',
        'phrase:tool-use:3.38',
        'phrase:reinforcement learning:11.25',
        'phrase:agents:2.25',
        'phrase:environment:1',
        'required:one phrase names every required concept:0',
        agrees(98),
      ],
    ],
    [
      'rl-for-tool-use',
      15.94,
      [
        'phrase:tool-use:2.81',
        'phrase:reinforcement learning:11.25',
        'phrase:multi-turn:1.88',
        'required:the required concepts meet in the title or one sentence:0',
        agrees(76),
      ],
    ],
    [
      'tool-use',
      7.2,
      [
        'phrase:tool-use:4.5',
        'phrase:tools:2.7',
        'required:the required concepts meet in the title or one sentence:0',
        agrees(87),
      ],
    ],
  ],
  [
    [
      'multimodal-llms',
      8.25,
      [
        'phrase:large vision-language model:2.4',
        'phrase:image:2.25',
        'phrase:vision-language model:3.6',
        agrees(91),
      ],
    ],
    ['computer-vision', 4.65, ['phrase:images:3.15', 'category:cs.CV:1.5', agrees(90)]],
  ],
  [
    [
      '3d-gaussian-splatting',
      8,
      ['phrase:gaussian splatting:5.63', 'phrase:splatting:1.88', 'phrase:rendering:0.5', agrees(97)],
    ],
  ],
  [],
];

describe('the built-in taxonomy without neighbours', () => {
  it('tags made-up papers exactly as before the neighbourhood existed', () => {
    const engine = compileTaxonomy(defaultTaxonomy());
    const got = PAPERS.map((p) =>
      engine.tag(p).map((t) => [t.slug, t.score, t.evidence.map((e) => `${e.rule}:${e.detail}:${e.points}`)]),
    );
    expect(got).toEqual(EXPECTED);
  });
});
