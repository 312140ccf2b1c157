import { defaultTaxonomy, type TaggablePaper } from '@quire/core';
import { describe, expect, it } from 'vitest';
import { Neighbourhood } from './neighbourhood.ts';

const paper = (id: string, title: string, abstract: string): TaggablePaper => ({
  id,
  title,
  abstract,
  categories: ['cs.LG'],
});

// Paper-shaped examples of our own: two video papers, two agent papers, and a query that uses an agent's
// words once but is about video.
const papers = [
  paper('v1', 'Temporal diffusion for video synthesis', 'We generate video frames with temporal diffusion.'),
  paper('v2', 'Video synthesis with motion priors', 'Motion priors make video frames coherent.'),
  paper('a1', 'Agents that browse', 'An agent browses pages and plans tool calls.'),
  paper('a2', 'Tool calls for agents', 'The agent plans tool calls over many pages.'),
  paper(
    'q',
    'Coherent video synthesis',
    'Temporal motion priors for video frames; an agent plans the shots.',
  ),
];
const tags = [
  new Set(['video-generation', 'computer-vision']),
  new Set(['video-generation', 'computer-vision']),
  new Set(['ai-agents']),
  new Set(['ai-agents']),
  new Set<string>(),
];
const near = (k: number, recall = false) =>
  new Neighbourhood(defaultTaxonomy(), papers, { k, at: 0.5, recall, maxDfShare: 1 }, tags);

describe('Neighbourhood', () => {
  it('ranks the papers sharing the most weighted words first and leaves the paper itself out', () => {
    const ids = near(4)
      .neighbours('q')
      .map((n) => n.id);
    expect(ids.slice(0, 2).sort()).toEqual(['v1', 'v2']);
    expect(ids).not.toContain('q');
  });

  it('gives each topic the similarity-weighted share of the neighbours tagged with it', () => {
    const n = near(2);
    const shares = n.shares('q');
    // Both neighbours are video papers: the whole weight is theirs, none is the agents'.
    expect(shares.get('video-generation')).toBeCloseTo(1, 6);
    expect(shares.get('computer-vision')).toBeCloseTo(1, 6);
    expect(shares.has('ai-agents')).toBe(false);
  });

  it('reads a share as z = 8 × (share − at) for the ruled topics, and adds others only with recall', () => {
    expect([...near(2).logits('q', ['ai-agents'])]).toEqual([['ai-agents', -4]]);
    const withRecall = near(2, true).logits('q', ['ai-agents']);
    expect(withRecall.get('video-generation')).toBeCloseTo(4, 6);
  });

  it('never takes a skipped paper as a neighbour', () => {
    const n = new Neighbourhood(
      defaultTaxonomy(),
      papers,
      { k: 4, at: 0.5, recall: false, maxDfShare: 1, skip: new Set(['v1']) },
      tags,
    );
    expect(n.neighbours('q').map((x) => x.id)).not.toContain('v1');
    expect(n.neighbours('q')[0]?.id).toBe('v2');
  });
});

describe('Neighbourhood, exact scan (QUIRE_NEIGHBOURS_EXACT=1)', () => {
  it('finds the neighbours the index finds, in the same order', () => {
    const options = { k: 4, at: 0.5, recall: false, maxDfShare: 1 };
    const pruned = new Neighbourhood(defaultTaxonomy(), papers, options, tags).neighbours('q');
    const exact = new Neighbourhood(defaultTaxonomy(), papers, { ...options, exact: true }, tags).neighbours(
      'q',
    );
    expect(exact.map((n) => n.id)).toEqual(pruned.map((n) => n.id));
    expect(
      exact
        .slice(0, 2)
        .map((n) => n.id)
        .sort(),
    ).toEqual(['v1', 'v2']);
  });
});
