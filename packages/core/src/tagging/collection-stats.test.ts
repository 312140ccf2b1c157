import { describe, expect, it } from 'vitest';
import {
  CollectionStats,
  collectionStats,
  compileForCollection,
  documentFrequencies,
} from './collection-stats.ts';
import { compileTaxonomy, type TaggablePaper } from './tagging-engine.ts';
import { loadTaxonomy } from './taxonomy-load.ts';

const taxonomy = loadTaxonomy({
  version: 'stats-1',
  topics: [
    {
      slug: 'splats',
      name: 'splats',
      acronyms: '',
      description: 'A test topic.',
      parents: [],
      definition: { phrases: [], exemplars: ['e1', 'e2', 'missing'], exemplarWeight: 4, threshold: 3 },
    },
  ],
});

const paper = (id: string, title: string, abstract: string): TaggablePaper => ({
  id,
  title,
  abstract,
  categories: ['cs.CV'],
});

const corpus: TaggablePaper[] = [
  paper('x1', 'A language model', 'tokens text language model pretraining scenes'),
  paper('e1', 'Gaussian splatting for scenes', 'splatting gaussians rasterise radiance scenes quickly'),
  paper('x2', 'Robot grasping', 'robot grasp objects gripper radiance'),
  paper('e2', 'Faster splatting', 'gaussians splatting rasterise radiance novel views'),
  paper('n1', 'Splatting radiance scenes', 'gaussians rasterise novel views'),
  paper('n2', 'Rendering scenes', 'radiance fields of scenes, rasterise'),
  paper('n3', 'Robot scenes', 'robot grasp scenes'),
];

describe('collection stats read a piece at a time', () => {
  it('compile to the same tags as the whole collection with every word counted', () => {
    // The frequencies as they were before streaming: every word of every paper.
    const exemplarTexts = new Map(corpus.filter((p) => p.id.startsWith('e')).map((p) => [p.id, p]));
    const whole = compileTaxonomy(taxonomy, { exemplarTexts, ...documentFrequencies(corpus) });

    const stats = new CollectionStats(exemplarTexts);
    for (let i = 0; i < corpus.length; i += 2) stats.add(corpus.slice(i, i + 2));
    const paged = compileTaxonomy(taxonomy, stats.options());

    const tags = corpus.map((p) => whole.tag(p));
    expect(tags.flat().length).toBeGreaterThan(2);
    expect(corpus.map((p) => paged.tag(p))).toEqual(tags);
    expect(corpus.map((p) => compileForCollection(taxonomy, corpus).tag(p))).toEqual(tags);
  });

  it('count only the exemplars’ words, each paper once', () => {
    const stats = new CollectionStats(new Map([['e1', corpus[1] as TaggablePaper]]));
    stats.add(corpus);
    const { docFreq, docCount } = stats.options();
    expect(docCount).toBe(corpus.length);
    expect(docFreq?.get('scene')).toBe(5);
    expect(docFreq?.get('radiance')).toBe(5);
    expect(docFreq?.has('robot')).toBe(false);
  });

  it('read no frequencies when the collection holds no exemplar', () => {
    expect(CollectionStats.exemplarIds(taxonomy)).toEqual(new Set(['e1', 'e2', 'missing']));
    const none = collectionStats(taxonomy, corpus.slice(4));
    expect(none).toEqual({ exemplarTexts: new Map() });
    const stats = new CollectionStats(new Map());
    expect(stats.counting).toBe(false);
    stats.add(corpus);
    expect(stats.options().docCount).toBeUndefined();
  });
});
