/**
 * Draws the locked test set's samples and writes judging batches to .tmp/eval-batches (they hold corpus
 * text, so they are never committed). Run once, before any engine change: `tsx tests/eval/locked-set-sample.ts`.
 *
 * - Precision: papers drawn uniformly from the corpus. Each comes with candidate topics to judge: the
 *   topics the engine of the day tags (direct and implied) and every topic whose core concepts the paper
 *   names, shuffled together, so a judge cannot tell which the engine chose. Judges also add any other
 *   topic of the taxonomy that clearly applies, so a topic left unlabelled for a paper means "does not
 *   apply". A shared slice of papers goes to every precision judge, to measure their agreement.
 * - Recall: for each evaluation topic, papers drawn uniformly from its candidate pool (papers naming a
 *   core concept, tagged or not).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileForCollection, defaultTaxonomy, withAncestors, type TaggablePaper } from '@quire/core';
import { repoRoot } from '../src/paths.ts';
import { taggableCorpus } from './eval-corpus.ts';
import { conceptPattern, coreConcepts, namesConcept, sampleOf, seededRandom } from './recall-pools.ts';
import { EVAL_TOPICS } from './eval-topics.ts';
import { paperBlock, topicLine as topicLineOf } from './judging-batches.ts';

const SEED = 20_261_201;
const PRECISION_PAPERS = 390;
const SHARED_PAPERS = 5;
const PRECISION_BATCHES = 6;
const RECALL_PER_TOPIC = 50;
const RECALL_BATCHES = 8;
/** A development sample drawn the same way, disjoint from the locked one: tuned on, misses printed. */
const DEV_PAPERS = 120;
const DEV_BATCHES = 2;

const out = join(repoRoot, '.tmp/eval-batches');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

const taxonomy = defaultTaxonomy();
const { papers } = await taggableCorpus();
const engine = compileForCollection(taxonomy, papers);
const concepts = coreConcepts();
const missing = taxonomy.topics.filter((t) => !concepts.has(t.slug)).map((t) => t.slug);
if (missing.length) throw new Error(`CRITERIA-taxonomy.md has no core concepts for: ${missing.join(', ')}`);
const patterns = new Map([...concepts].map(([slug, list]) => [slug, conceptPattern(list)]));
const random = seededRandom(SEED);

const topicLine = (slug: string) => topicLineOf(taxonomy, slug);

// Precision sample.
const sampled = sampleOf(papers, PRECISION_PAPERS + SHARED_PAPERS + DEV_PAPERS, random);
const shared = sampled.slice(0, SHARED_PAPERS);
const rest = sampled.slice(SHARED_PAPERS, SHARED_PAPERS + PRECISION_PAPERS);
const dev = sampled.slice(SHARED_PAPERS + PRECISION_PAPERS);
const candidatesOf = (p: TaggablePaper): string[] => {
  const set = new Set(withAncestors(taxonomy, engine.tag(p)).map((t) => t.slug));
  for (const [slug, pattern] of patterns) if (namesConcept(pattern, p)) set.add(slug);
  return sampleOf([...set].sort(), set.size, random);
};
const block = (p: TaggablePaper) =>
  `${paperBlock(p)}Candidate topics:\n${candidatesOf(p).map(topicLine).join('\n')}\n`;
let pairs = 0;
const sharedText = shared.map(block).join('\n');
for (let b = 0; b < PRECISION_BATCHES; b++) {
  const mine = rest.filter((_, i) => i % PRECISION_BATCHES === b);
  const text = mine.map(block).join('\n');
  pairs += (text.match(/^- /gm) ?? []).length;
  writeFileSync(
    join(out, `precision-${b + 1}.md`),
    `# Precision batch ${b + 1}: ${mine.length + shared.length} papers\n\n${sharedText}\n${text}`,
  );
}

for (let b = 0; b < DEV_BATCHES; b++) {
  const mine = dev.filter((_, i) => i % DEV_BATCHES === b);
  writeFileSync(
    join(out, `dev-${b + 1}.md`),
    `# Development batch ${b + 1}: ${mine.length} papers\n\n${mine.map(block).join('\n')}`,
  );
}

// Recall samples: per evaluation topic, from its pool.
const recallBatches: string[][] = Array.from({ length: RECALL_BATCHES }, () => []);
const pools: Record<string, number> = {};
EVAL_TOPICS.forEach((slug, i) => {
  const pattern = patterns.get(slug);
  if (!pattern) throw new Error(`No core concepts for the evaluation topic ${slug}.`);
  const pool = papers.filter((p) => namesConcept(pattern, p));
  pools[slug] = pool.length;
  const pick = sampleOf(pool, RECALL_PER_TOPIC, random);
  recallBatches[i % RECALL_BATCHES]?.push(
    `## Topic ${topicLine(slug).slice(2)}\n\n${pick.map(paperBlock).join('\n')}`,
  );
});
recallBatches.forEach((parts, b) =>
  writeFileSync(join(out, `recall-${b + 1}.md`), `# Recall batch ${b + 1}\n\n${parts.join('\n')}`),
);
writeFileSync(join(out, 'topics.md'), taxonomy.topics.map((t) => topicLine(t.slug)).join('\n') + '\n');
console.log(
  `precision: ${rest.length} papers + ${shared.length} shared, ${pairs} candidate pairs in ${PRECISION_BATCHES} batches`,
);
console.log(`recall pools: ${JSON.stringify(pools)}`);
