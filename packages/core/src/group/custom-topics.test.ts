import { describe, expect, it } from 'vitest';
import { compileForCollection } from '../tagging/collection-stats.ts';
import type { TaggablePaper } from '../tagging/tagging-engine.ts';
import { customTopicSpec, customTopicsTaxonomy } from './custom-topic-tagging.ts';
import {
  addCustomTopicExemplar,
  addCustomTopicPhrase,
  createCustomTopic,
  customTopicIdOf,
  deleteCustomTopic,
  getCustomTopic,
  listCustomTopics,
  removeCustomTopicPhrase,
  renameCustomTopic,
} from './custom-topics.ts';
import { isFollowing } from './followed-topics.ts';
import { ROOT } from './group-doc.ts';
import { at, codeOf, newDoc, pair, sync } from './test-helpers.ts';

const NOW = at('2026-03-10T09:00:00Z');

describe('custom topics', () => {
  it('creates a topic with an id derived from its name, and follows it', () => {
    const doc = newDoc();
    const topic = createCustomTopic(
      doc,
      {
        name: 'Diffusion Policies (Robots)',
        phrases: ['diffusion policy', ' DP3 '],
        exemplars: ['arXiv:2603.00003v2'],
      },
      'ada',
      NOW,
    );
    expect(topic.id).toBe('diffusion-policies-robots');
    expect(getCustomTopic(doc, 'diffusion-policies-robots')).toEqual({
      id: 'diffusion-policies-robots',
      slug: 'custom-diffusion-policies-robots',
      name: 'Diffusion Policies (Robots)',
      phrases: ['DP3', 'diffusion policy'],
      exemplars: ['2603.00003'],
      createdBy: 'ada',
      createdAt: '2026-03-10T09:00:00.000Z',
    });
    expect(isFollowing(doc, 'custom-diffusion-policies-robots')).toBe(true);
  });

  it('derives ids without accents or punctuation', () => {
    expect(customTopicIdOf('Égalité & RL — Agents!')).toBe('egalite-rl-agents');
    expect(codeOf(() => customTopicIdOf('!!!'))).toBe('invalid-input');
  });

  it('refuses a duplicate id, empty names, wordless phrases and bad exemplars', () => {
    const doc = newDoc();
    createCustomTopic(doc, { name: 'World Models' }, 'ada', NOW);
    expect(codeOf(() => createCustomTopic(doc, { name: 'world models' }, 'bob', NOW))).toBe('invalid-input');
    expect(codeOf(() => createCustomTopic(doc, { name: ' ' }, 'bob', NOW))).toBe('invalid-input');
    expect(codeOf(() => addCustomTopicPhrase(doc, 'world-models', '***', 'ada', NOW))).toBe('invalid-input');
    expect(codeOf(() => addCustomTopicExemplar(doc, 'world-models', 'not-an-id', 'ada', NOW))).toBe(
      'invalid-arxiv-id',
    );
    expect(codeOf(() => addCustomTopicPhrase(doc, 'no-such-topic', 'x', 'ada', NOW))).toBe('invalid-input');
  });

  it('edits name and phrases, and deleting also unfollows', () => {
    const doc = newDoc();
    createCustomTopic(doc, { name: 'World Models', phrases: ['world model'] }, 'ada', NOW);
    renameCustomTopic(doc, 'world-models', 'Learned World Models');
    addCustomTopicPhrase(doc, 'world-models', 'dreamer', 'bob', at('2026-03-11T09:00:00Z'));
    expect(removeCustomTopicPhrase(doc, 'world-models', 'world model')).toBe(true);
    expect(getCustomTopic(doc, 'world-models')).toMatchObject({
      name: 'Learned World Models',
      phrases: ['dreamer'],
    });
    expect(deleteCustomTopic(doc, 'world-models')).toBe(true);
    expect(listCustomTopics(doc)).toEqual([]);
    expect(isFollowing(doc, 'custom-world-models')).toBe(false);
  });

  it('keeps the phrases two members add to one topic offline', () => {
    const [a, b] = pair();
    createCustomTopic(a, { name: 'World Models', phrases: ['world model'] }, 'ada', NOW);
    sync(a, b);
    addCustomTopicPhrase(a, 'world-models', 'dreamer', 'ada', at('2026-03-11T09:00:00Z'));
    addCustomTopicPhrase(b, 'world-models', 'latent dynamics', 'bob', at('2026-03-11T10:00:00Z'));
    addCustomTopicExemplar(b, 'world-models', '2603.00007', 'bob', at('2026-03-11T10:00:00Z'));
    sync(a, b);
    expect(getCustomTopic(a, 'world-models')).toMatchObject({
      phrases: ['world model', 'dreamer', 'latent dynamics'],
      exemplars: ['2603.00007'],
    });
    expect(getCustomTopic(b, 'world-models')).toEqual(getCustomTopic(a, 'world-models'));
  });

  it('merges one topic created by two members offline under the same name', () => {
    const [a, b] = pair();
    createCustomTopic(a, { name: 'World Models', phrases: ['world model'] }, 'ada', NOW);
    createCustomTopic(b, { name: 'World models', phrases: ['dreamer'] }, 'bob', at('2026-03-10T09:30:00Z'));
    sync(a, b);
    const topics = listCustomTopics(a);
    expect(topics).toHaveLength(1);
    expect(topics[0]?.phrases).toEqual(['world model', 'dreamer']);
  });

  it('skips what a peer wrote malformed, and still builds a taxonomy', () => {
    const doc = newDoc();
    createCustomTopic(doc, { name: 'World Models', phrases: ['world model'] }, 'ada', NOW);
    const map = doc.getMap(ROOT.customTopics);
    map.set('world-models|phrase|!!!', { by: 'eve', at: '2026-03-10T09:00:00Z' });
    map.set('world-models|exemplar|nonsense', { by: 'eve', at: '2026-03-10T09:00:00Z' });
    map.set('world-models|phrase|no stamp', 7);
    map.set('orphan|phrase|x', { by: 'eve', at: '2026-03-10T09:00:00Z' });
    map.set('nokey', 'x');
    map.set('broken|name', 12);
    expect(listCustomTopics(doc).map((t) => [t.id, t.phrases, t.exemplars])).toEqual([
      ['world-models', ['world model'], []],
    ]);
    expect(customTopicsTaxonomy(listCustomTopics(doc))?.topics.map((t) => t.slug)).toEqual([
      'custom-world-models',
    ]);
  });
});

describe('custom topics in the tagging engine', () => {
  const papers: TaggablePaper[] = [
    {
      id: '2603.00001',
      title: 'Diffusion Policies for Dexterous Manipulation',
      abstract: 'We train visuomotor controllers from demonstrations.',
      categories: ['cs.RO'],
    },
    {
      id: '2603.00002',
      title: 'A Survey of Graph Neural Networks',
      abstract: 'We review message passing architectures.',
      categories: ['cs.LG'],
    },
    {
      id: '2603.00003',
      title: 'Robot Learning at Scale',
      abstract: 'Imitation learning across many embodiments.',
      categories: ['cs.RO'],
    },
    {
      id: '2603.00004',
      title: 'Point Cloud Controllers',
      abstract: 'Our method beats dp3 baselines.',
      categories: ['cs.RO'],
    },
    {
      id: '2603.00005',
      title: 'Fast Controllers',
      abstract: 'Compared with DP3, a 3D diffusion policy, we are faster.',
      categories: ['cs.RO'],
    },
  ];

  it('tags sample papers with a custom topic through the real engine', () => {
    const doc = newDoc();
    createCustomTopic(
      doc,
      { name: 'Diffusion Policies', phrases: ['diffusion policy', 'DP3'], exemplars: ['2603.00003'] },
      'ada',
      NOW,
    );
    const taxonomy = customTopicsTaxonomy(listCustomTopics(doc));
    if (!taxonomy) throw new Error('expected a taxonomy');
    const engine = compileForCollection(taxonomy, papers);
    const tagged = papers.map((p) => [p.id, engine.tag(p).map((t) => t.slug)]);
    expect(tagged).toEqual([
      ['2603.00001', ['custom-diffusion-policies']], // phrase in the title (plural folded)
      ['2603.00002', []],
      ['2603.00003', ['custom-diffusion-policies']], // an exemplar always gets its topic
      ['2603.00004', []], // "DP3" is capitalised, so it matches case-sensitively
      ['2603.00005', ['custom-diffusion-policies']],
    ]);
    const [tag] = engine.tag(papers[4] as TaggablePaper);
    // Two phrases matched in the abstract, 3 points each.
    expect(tag?.score).toBe(6);
  });

  it('maps a topic to a TopicSpec and leaves out topics that can match nothing', () => {
    const doc = newDoc();
    createCustomTopic(doc, { name: 'Empty' }, 'ada', NOW);
    const topic = createCustomTopic(doc, { name: 'Agents', phrases: ['LLM agent'] }, 'ada', NOW);
    expect(customTopicSpec(topic)).toEqual({
      slug: 'custom-agents',
      name: 'Agents',
      acronyms: '',
      description: 'A topic defined by the group: LLM agent.',
      parents: [],
      definition: { phrases: [{ terms: ['LLM agent'], weight: 3 }], singleWordSuffices: true },
    });
    expect(customTopicsTaxonomy(listCustomTopics(doc))?.topics.map((t) => t.slug)).toEqual(['custom-agents']);
    expect(customTopicsTaxonomy([])).toBeNull();
  });
});
