/**
 * Draws the second development sample and writes judging batches to .tmp/dev2-batches (corpus text: never
 * committed). Its judgments become dev-set-taxonomy-2.jsonl and dev-recall-2.jsonl, tuned on like the first
 * development set. Papers of the locked sets and of every earlier set are left out, so the locked set stays
 * held out. `tsx tests/eval/dev-set-2-sample.ts`
 *
 * - Taxonomy-wide: papers drawn uniformly from the rest of the corpus, each with candidate topics: every
 *   topic the engine of the day finds evidence for (kept or not, with their ancestors) and every topic
 *   whose core concepts the paper names, shuffled together; judges add any other topic that applies.
 * - Recall: for each evaluation topic, papers drawn uniformly from its candidate pool.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileForCollection, defaultTaxonomy, withAncestors, type TaggablePaper } from '@quire/core';
import { repoRoot } from '../src/paths.ts';
import { taggableCorpus } from './eval-corpus.ts';
import { EVAL_TOPICS } from './eval-topics.ts';
import { paperBlock, topicLine } from './judging-batches.ts';
import { conceptPattern, coreConcepts, namesConcept, sampleOf, seededRandom } from './recall-pools.ts';

const SEED = 20_261_202;
const PAPERS = 360;
const BATCHES = 6;
const RECALL_PER_TOPIC = 25;
const RECALL_BATCHES = 2;

const here = dirname(fileURLToPath(import.meta.url));
const out = join(repoRoot, '.tmp/dev2-batches');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

// Every paper any judged set already holds, locked or not.
const used = new Set<string>();
for (const file of readdirSync(here).filter((f) => f.endsWith('.jsonl')))
  for (const line of readFileSync(join(here, file), 'utf8').split('\n'))
    if (line.trim()) used.add((JSON.parse(line) as { paper: string }).paper);

const taxonomy = defaultTaxonomy();
const { papers } = await taggableCorpus();
const fresh = papers.filter((p) => !used.has(p.id));
const engine = compileForCollection(taxonomy, papers);
const patterns = new Map([...coreConcepts()].map(([slug, list]) => [slug, conceptPattern(list)]));
const random = seededRandom(SEED);
const line = (slug: string) => topicLine(taxonomy, slug);

const candidatesOf = (p: TaggablePaper): string[] => {
  const set = new Set(withAncestors(taxonomy, engine.passing(p)).map((t) => t.slug));
  for (const [slug, pattern] of patterns) if (namesConcept(pattern, p)) set.add(slug);
  return sampleOf([...set].sort(), set.size, random);
};
const sampled = sampleOf(fresh, PAPERS, random);
let pairs = 0;
for (let b = 0; b < BATCHES; b++) {
  const mine = sampled.filter((_, i) => i % BATCHES === b);
  const text = mine
    .map((p) => `${paperBlock(p)}Candidate topics:\n${candidatesOf(p).map(line).join('\n')}\n`)
    .join('\n');
  pairs += (text.match(/^- /gm) ?? []).length;
  writeFileSync(
    join(out, `dev2-${b + 1}.md`),
    `# Development batch ${b + 1}: ${mine.length} papers\n\n${text}`,
  );
}

const taken = new Set(sampled.map((p) => p.id));
const recall: string[][] = Array.from({ length: RECALL_BATCHES }, () => []);
EVAL_TOPICS.forEach((slug, i) => {
  const pattern = patterns.get(slug);
  if (!pattern) throw new Error(`No core concepts for the evaluation topic ${slug}.`);
  const pool = fresh.filter((p) => !taken.has(p.id) && namesConcept(pattern, p));
  const pick = sampleOf(pool, RECALL_PER_TOPIC, random);
  recall[i % RECALL_BATCHES]?.push(`## Topic ${line(slug).slice(2)}\n\n${pick.map(paperBlock).join('\n')}`);
});
recall.forEach((parts, b) =>
  writeFileSync(join(out, `recall2-${b + 1}.md`), `# Recall batch ${b + 1}\n\n${parts.join('\n')}`),
);
writeFileSync(join(out, 'topics.md'), taxonomy.topics.map((t) => line(t.slug)).join('\n') + '\n');
console.log(
  `${sampled.length} papers, ${pairs} candidate pairs in ${BATCHES} batches; recall ${RECALL_PER_TOPIC} per topic`,
);
