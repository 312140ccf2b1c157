import { describe, expect, it } from 'vitest';
import { CoreError } from '../errors.ts';
import { withAncestors } from './tag-hierarchy.ts';
import { documentFrequencies } from './collection-stats.ts';
import { compileTaxonomy, type TaggablePaper } from './tagging-engine.ts';
import { loadTaxonomy, topicDefinitionHash } from './taxonomy-load.ts';
import type { TopicSpec } from './taxonomy-types.ts';

function topic(slug: string, definition: TopicSpec['definition'], parents: string[] = []): TopicSpec {
  return {
    slug,
    name: slug.replace(/-/g, ' '),
    acronyms: '',
    description: 'A test topic.',
    parents,
    definition,
  };
}

const TAXONOMY = {
  version: 'test-1',
  topics: [
    topic('reinforcement-learning', { phrases: [{ terms: ['reinforcement learning', 'RL'], weight: 3 }] }),
    topic(
      'rl-for-llm-agents',
      {
        phrases: [
          { terms: ['agentic reinforcement learning', 'agentic RL'], weight: 4 },
          { terms: ['multi-turn', 'tool use'], weight: 1 },
        ],
        requireAll: [
          ['reinforcement learning', 'RL', 'GRPO', 'PPO'],
          ['LLM agent', 'language agent', 'agentic'],
        ],
        threshold: 3,
      },
      ['reinforcement-learning'],
    ),
    topic('retrieval-augmented-generation', {
      phrases: [{ terms: ['retrieval-augmented generation', 'RAG'], weight: 3 }],
      exclude: ['ragdoll'],
      categoryPriors: { 'cs.IR': 1 },
    }),
    // Prefix matching on its own: one word may carry this topic.
    topic('reinforcement-prefix', {
      phrases: [{ terms: ['reinforc*'], weight: 3 }],
      singleWordSuffices: true,
    }),
    topic('policies', { phrases: [{ terms: ['diffusion policy'], weight: 3 }] }),
    topic('gated', {
      phrases: [{ terms: ['tool use'], weight: 5 }],
      requireAll: [['LLM', 'language model']],
    }),
  ],
};

function paper(
  title: string,
  abstract: string,
  categories: string[] = ['cs.LG'],
  id = '2604.00001',
): TaggablePaper {
  return { id, title, abstract, categories };
}

const taxonomy = loadTaxonomy(TAXONOMY);
const engine = compileTaxonomy(taxonomy);
const slugs = (p: TaggablePaper) => engine.tag(p).map((t) => t.slug);

describe('tagging engine', () => {
  it('matches phrases across case, plurals, hyphens and line breaks, with the evidence', () => {
    const tags = engine.tag(paper('A study', 'We train policies with Reinforcement\nLearning.'));
    expect(tags.map((t) => t.slug)).toEqual(['reinforcement-learning', 'reinforcement-prefix']);
    expect(tags[0]?.evidence).toEqual([
      { rule: 'phrase', detail: 'reinforcement learning', field: 'abstract', points: 3 },
    ]);
    expect(slugs(paper('Diffusion Policies for manipulation', ''))).toEqual(['policies']);
  });

  it('matches capitalised terms case-sensitively, plural acronyms included', () => {
    expect(slugs(paper('', 'Our RAG pipeline'))).toEqual(['retrieval-augmented-generation']);
    expect(slugs(paper('', 'Many RAGs'))).toEqual(['retrieval-augmented-generation']);
    expect(slugs(paper('', 'a rag and a Rag'))).toEqual([]);
    expect(slugs(paper('', 'retrieval augmented generation'))).toEqual(['retrieval-augmented-generation']);
  });

  it('boosts title matches and counts repeated mentions a little', () => {
    const inTitle = engine.tag(paper('RAG for search', ''))[0];
    expect(inTitle?.score).toBe(4.5);
    expect(inTitle?.evidence[0]?.field).toBe('title');
    const twice = engine.tag(paper('', 'RAG helps. RAG again.'))[0];
    expect(twice?.score).toBe(3.75);
  });

  it('counts overlapping or adjacent hits of one group as one mention', () => {
    const overlap = loadTaxonomy({
      version: 'test-3',
      topics: [
        topic('vla', {
          phrases: [{ terms: ['vision-language-action', 'VLA', 'vision-language-action model'], weight: 2 }],
          threshold: 1,
        }),
      ],
    });
    const e = compileTaxonomy(overlap);
    // One mention written three ways at once: no repeat bonus.
    expect(e.tag(paper('', 'a Vision-Language-Action model (VLA) for robots'))[0]?.score).toBe(2);
    // Two separate mentions: the repeat bonus applies once.
    expect(e.tag(paper('', 'a VLA for robots; the VLA is small'))[0]?.score).toBe(2.5);
  });

  it('reads a mention in a sentence about the field at exactly its weight, and says so', () => {
    const field = loadTaxonomy({
      version: 'test-4',
      topics: [topic('rl', { phrases: [{ terms: ['reinforcement learning'], weight: 5 }], threshold: 1 })],
    });
    const tag = compileTaxonomy(field).tag(
      paper('', 'Reinforcement learning has improved reasoning in many domains.'),
    )[0];
    // 5 × 0.6 is 3 only when 0.6 is kept exactly (in 32 bits it reads back as 0.6000000238…).
    expect(tag?.evidence[0]).toEqual({
      rule: 'phrase',
      detail: 'reinforcement learning (in a sentence about the field, ×0.6)',
      field: 'abstract',
      points: 3,
    });
  });

  it('requires every co-occurrence group', () => {
    const both = paper(
      '',
      'Agentic RL trains an LLM agent with reinforcement learning over multi-turn tool use.',
    );
    expect(slugs(both)).toContain('rl-for-llm-agents');
    // "tool use" alone scores 5, above the threshold, but the required LLM concept is missing.
    expect(slugs(paper('', 'tool use by robots'))).toEqual([]);
    expect(slugs(paper('', 'tool use by LLMs'))).toEqual(['gated']);
    expect(engine.tag(paper('', 'tool use by a language model'))[0]?.evidence.map((e) => e.rule)).toEqual([
      'phrase',
      'required',
    ]);
  });

  it('vetoes a topic on an exclusion, and adds a category prior only to a topic already matched', () => {
    expect(slugs(paper('', 'RAG with a ragdoll physics engine'))).toEqual([]);
    const ir = engine.tag(paper('', 'RAG systems', ['cs.IR']))[0];
    expect(ir?.score).toBe(4);
    expect(ir?.evidence.map((e) => e.rule)).toEqual(['phrase', 'category']);
    expect(slugs(paper('', 'nothing relevant', ['cs.IR']))).toEqual([]);
  });

  it('matches a prefix term against longer words', () => {
    expect(slugs(paper('', 'reinforcing behaviour'))).toEqual(['reinforcement-prefix']);
  });

  it('pulls in papers similar to the exemplars, and always tags the exemplars themselves', () => {
    const corpus = [
      {
        id: 'e1',
        title: 'Gaussian splatting for scenes',
        abstract: 'splatting gaussians rasterise radiance scenes quickly',
      },
      { id: 'e2', title: 'Faster splatting', abstract: 'gaussians splatting rasterise radiance novel views' },
      { id: 'x1', title: 'A language model', abstract: 'tokens text language model pretraining' },
      { id: 'x2', title: 'Robot grasping', abstract: 'robot grasp objects gripper' },
    ];
    const withExemplars = loadTaxonomy({
      version: 'test-2',
      topics: [topic('splats', { phrases: [], exemplars: ['e1', 'e2'], exemplarWeight: 4, threshold: 3 })],
    });
    const { docFreq, docCount } = documentFrequencies(corpus);
    const exemplarTexts = new Map(corpus.map((p) => [p.id, p]));
    const e = compileTaxonomy(withExemplars, { exemplarTexts, docFreq, docCount });
    const similar = e.tag(
      paper('Splatting radiance scenes', 'gaussians rasterise novel views', ['cs.CV'], 'n1'),
    );
    expect(similar.map((t) => t.slug)).toEqual(['splats']);
    expect(similar[0]?.evidence[0]?.rule).toBe('exemplar');
    expect(e.tag(paper('Robot grasping', 'robot grasp objects', ['cs.RO'], 'n2'))).toEqual([]);
    expect(e.tag(paper('Unrelated', 'nothing', ['cs.RO'], 'e1'))[0]?.evidence[0]?.rule).toBe(
      'exemplar-paper',
    );
  });

  it('adds implied ancestors, broad to narrow', () => {
    const direct = engine.tag(paper('Agentic RL for LLM agents', 'reinforcement learning with an LLM agent'));
    const shown = withAncestors(
      taxonomy,
      direct.filter((t) => t.slug === 'rl-for-llm-agents'),
    );
    expect(shown.map((t) => [t.slug, t.direct])).toEqual([
      ['reinforcement-learning', false],
      ['rl-for-llm-agents', true],
    ]);
    expect(shown[0]?.evidence[0]?.detail).toBe('implied by rl for llm agents');
  });

  it('can compile a subset of topics for re-tagging', () => {
    const only = compileTaxonomy(taxonomy, { only: new Set(['retrieval-augmented-generation']) });
    expect(only.topicCount).toBe(1);
    expect(only.tag(paper('RAG and reinforcement learning', '')).map((t) => t.slug)).toEqual([
      'retrieval-augmented-generation',
    ]);
  });
});

describe('loadTaxonomy', () => {
  const base = () => JSON.parse(JSON.stringify(TAXONOMY)) as { version: string; topics: TopicSpec[] };
  const error = (raw: unknown) => {
    try {
      loadTaxonomy(raw);
    } catch (err) {
      expect(err).toBeInstanceOf(CoreError);
      return (err as CoreError).message;
    }
    throw new Error('expected loadTaxonomy to fail');
  };

  it('resolves ancestors and depth', () => {
    expect(taxonomy.ancestors.get('rl-for-llm-agents')).toEqual(['reinforcement-learning']);
    expect(taxonomy.depth.get('rl-for-llm-agents')).toBe(1);
    expect(taxonomy.children.get('reinforcement-learning')).toEqual(['rl-for-llm-agents']);
  });

  it('names a duplicate slug, an unknown parent, a cycle and a definition that matches nothing', () => {
    const dup = base();
    dup.topics.push({ ...dup.topics[0]! });
    expect(error(dup)).toBe('The slug "reinforcement-learning" is used by two topics; slugs must be unique.');

    const orphan = base();
    orphan.topics[1]!.parents = ['no-such-topic'];
    expect(error(orphan)).toBe('Topic "rl-for-llm-agents" has the unknown parent "no-such-topic".');

    const cycle = base();
    cycle.topics[0]!.parents = ['rl-for-llm-agents'];
    expect(error(cycle)).toMatch(
      /^The parents form a cycle: .*reinforcement-learning → rl-for-llm-agents → reinforcement-learning/,
    );

    const empty = base();
    empty.topics[0]!.definition = { phrases: [] };
    expect(error(empty)).toContain('has no phrases and no exemplars, so it matches nothing');

    const blank = base();
    blank.topics[0]!.definition.phrases[0]!.terms = ['—'];
    expect(error(blank)).toContain('contains no words and can never match');

    expect(error({ topics: [] })).toBe('The taxonomy needs a version string.');
  });

  it('hashes a definition so a change is noticed', () => {
    const changed = base();
    changed.topics[2]!.definition.phrases[0]!.weight = 2;
    const h1 = topicDefinitionHash(taxonomy, 'retrieval-augmented-generation');
    expect(topicDefinitionHash(loadTaxonomy(changed), 'retrieval-augmented-generation')).not.toBe(h1);
    expect(topicDefinitionHash(loadTaxonomy(changed), 'reinforcement-learning')).toBe(
      topicDefinitionHash(taxonomy, 'reinforcement-learning'),
    );
  });
  it('matches a prefix term capitalised only in its first letter against model names with digits', () => {
    const engine = compileTaxonomy(
      loadTaxonomy({
        version: 'prefix-case',
        topics: [topic('models', { phrases: [{ terms: ['Qwen*'], weight: 3 }], singleWordSuffices: true })],
      }),
    );
    expect(
      engine.tag(paper('Fine-tuning Qwen3 for tables', 'We adapt Qwen2.5-7B.')).map((t) => t.slug),
    ).toEqual(['models']);
  });
});
