import { describe, expect, it } from 'vitest';
import type { TaggedNeighbour } from './neighbour-shares.ts';
import {
  CALIBRATION_FEATURES,
  Calibration,
  NEIGHBOUR_FEATURES,
  type CalibrationFile,
} from './tag-calibration.ts';
import { defaultCalibration, defaultNeighbourCalibration } from './default-taxonomy.ts';
import { compileTaxonomy, type TaggablePaper } from './tagging-engine.ts';
import { loadTaxonomy } from './taxonomy-load.ts';
import type { TopicSpec } from './taxonomy-types.ts';

function topic(slug: string, terms: string[], parents: string[] = []): TopicSpec {
  return {
    slug,
    name: slug.replace(/-/g, ' '),
    acronyms: '',
    description: 'A test topic.',
    parents,
    definition: { phrases: [{ terms, weight: 4 }] },
  };
}

const taxonomy = loadTaxonomy({
  version: 'neighbours-1',
  topics: [
    topic('machine-learning', ['machine learning']),
    topic('retrieval-augmented-generation', ['retrieval-augmented generation'], ['machine-learning']),
    topic('reinforcement-learning', ['reinforcement learning'], ['machine-learning']),
  ],
});

const zeros = (n: number) => new Array<number>(n).fill(0);
/** Without neighbours every passing tag reads p = σ(2) ≈ 0.88: kept at the default cut-off 0.75. */
const BASE: CalibrationFile = {
  version: 'base',
  features: [...CALIBRATION_FEATURES],
  weights: zeros(CALIBRATION_FEATURES.length),
  bias: 2,
};
const base = new Calibration(BASE);
/** With them p = σ(−1 + 4 × share): share 1 gives ≈ 0.95, share 0 ≈ 0.27, under both cut-offs. */
const withShare: CalibrationFile = {
  version: 'with-share',
  features: [...CALIBRATION_FEATURES, ...NEIGHBOUR_FEATURES],
  weights: [...zeros(CALIBRATION_FEATURES.length), 4],
  bias: -1,
  keep: 0.75,
  floor: 0.4,
};
const engine = compileTaxonomy(taxonomy, {
  calibration: base,
  neighbourCalibration: new Calibration(withShare),
});

const PAPER: TaggablePaper = {
  id: '2612.00001',
  title: 'Retrieval-augmented generation trained by reinforcement learning',
  abstract: 'We study retrieval-augmented generation.',
  categories: ['cs.CL'],
};
const near = (id: string, title: string, sim: number, topics: string[]): TaggedNeighbour => ({
  id,
  title,
  sim,
  topics,
});
const RAG_NEIGHBOURS = [
  near('n1', 'Retrieval helps', 0.5, ['retrieval-augmented-generation', 'machine-learning']),
  near('n2', 'Dense retrievers', 0.3, ['retrieval-augmented-generation', 'machine-learning']),
  near('n3', 'Policy gradients', 0.2, ['reinforcement-learning', 'machine-learning']),
];
const slugs = (tags: readonly { slug: string }[]) => tags.map((t) => t.slug);

describe('tagging with the neighbourhood', () => {
  it('without neighbours, or with none, chooses exactly as before', () => {
    const before = engine.tag(PAPER);
    expect(slugs(before)).toEqual(['reinforcement-learning', 'retrieval-augmented-generation']);
    expect(engine.tag(PAPER, undefined, [])).toEqual(before);
    expect(before.every((t) => t.neighbourShare === undefined)).toBe(true);
    expect(before[0]?.evidence.at(-1)?.detail).toBe('a reader agrees with such a tag about 88% of the time');
  });

  it('keeps a topic its neighbours carry and drops one they do not', () => {
    const tags = engine.tag(PAPER, undefined, RAG_NEIGHBOURS);
    // RAG: share 0.8, p = σ(−1 + 3.2) ≈ 0.90; RL: share 0.2, p = σ(−0.2) ≈ 0.45, under keep 0.75.
    expect(slugs(tags)).toEqual(['retrieval-augmented-generation']);
    expect(tags[0]?.neighbourShare).toBe(0.8);
    expect(tags[0]?.evidence.slice(-2)).toEqual([
      {
        rule: 'neighbours',
        detail:
          '2 of its 3 nearest papers are tagged retrieval augmented generation (share 0.80), e.g. “Retrieval helps”, “Dense retrievers”: +3.20 to the log-odds',
        points: 0,
      },
      { rule: 'confidence', detail: 'a reader agrees with such a tag about 90% of the time', points: 0 },
    ]);
  });

  it('lifts a tag the base calibration leaves out when its neighbours carry it', () => {
    const doubtful = compileTaxonomy(taxonomy, {
      calibration: new Calibration({ ...BASE, bias: -1 }),
      neighbourCalibration: new Calibration(withShare),
    });
    // σ(−1) ≈ 0.27 for both without neighbours: under the floor, the paper is bare.
    expect(doubtful.tag(PAPER)).toEqual([]);
    const allRl = RAG_NEIGHBOURS.map((n) => ({ ...n, topics: ['reinforcement-learning'] }));
    expect(slugs(doubtful.tag(PAPER, undefined, allRl))).toEqual(['reinforcement-learning']);
  });

  it('ignores neighbours when no calibration reads them (a group’s own topics)', () => {
    const plain = compileTaxonomy(taxonomy, { calibration: base });
    expect(plain.tag(PAPER, undefined, RAG_NEIGHBOURS)).toEqual(plain.tag(PAPER));
  });

  it('gives the base tags and the neighbourhood’s from one reading, and the base topics with ancestors', () => {
    let given: readonly string[] = [];
    const twice = engine.tagTwice(PAPER, (baseTags) => {
      given = engine.topicsOf(baseTags);
      return RAG_NEIGHBOURS;
    });
    expect(twice.base).toEqual(engine.tag(PAPER));
    expect(twice.tags).toEqual(engine.tag(PAPER, undefined, RAG_NEIGHBOURS));
    expect([...given].sort()).toEqual([
      'machine-learning',
      'reinforcement-learning',
      'retrieval-augmented-generation',
    ]);
    expect(engine.baseTopics(PAPER)).toEqual(given);
    expect(engine.tagTwice(PAPER, () => undefined).tags).toEqual(engine.tag(PAPER));
  });
});

describe('the built-in neighbourhood calibration', () => {
  it('reads the share, which raises confidence, at its own cut-offs; the other reads no share', () => {
    const shipped = defaultNeighbourCalibration();
    expect(shipped.readsNeighbours).toBe(true);
    expect(shipped.cutoffs).toEqual({ keep: 0.75, floor: 0.3 });
    expect(shipped.shareContribution(1)).toBeGreaterThan(0);
    expect(defaultCalibration().readsNeighbours).toBe(false);
    expect(defaultCalibration().shareContribution(1)).toBe(0);
  });
});
