/**
 * Draws the reader-gap slice: `tsx tests/eval/reader-gap-sample.ts OUT_DIR [seed]` (OUT_DIR from `mktemp -d`;
 * the batches hold corpus text: never committed). The slice measures how far the two ways the development sets
 * were judged pull apart under the same criteria: a reader judging many papers for ONE topic (pool mode, as
 * dev-recall-4) against a reader judging a paper against all its candidate topics (wide mode, as
 * dev-set-taxonomy-5). Each of the 60 items is (paper, its pool's topic): 5 papers drawn uniformly from the
 * candidate pool of each of 12 topics (title or abstract names a core concept of CRITERIA-taxonomy.md, tagged or
 * not), never a paper a judged *.jsonl names (ids only are read) and never one paper twice.
 *
 * The same 60 pairs are written twice: pool-A/B.md group them under their topics; wide-A/B.md give each paper
 * its shuffled candidate topics, drawn as dev-set-uniform-sample.ts draws them (the engine's tags with their
 * ancestors and every topic whose core concepts the paper names; the pool topic is always among them, and
 * nothing marks it). wide-A holds the papers of pool-B's topics and wide-B those of pool-A's, so the reader of
 * one pool batch never meets its papers again in wide mode. slice.json lists the pairs (ids and slugs) for
 * `pnpm eval reader-gap`. The slice's own judgments (reader-gap-*.jsonl) are not left out, so the draw stays
 * the same once they are committed.
 */
import { copyFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileForCollection, defaultTaxonomy, type TaggablePaper } from '@quire/core';
import { taggableCorpus } from './eval-corpus.ts';
import { candidateDrawer, criteriaSections, paperBlock, topicLine } from './judging-batches.ts';
import { poolBrief, wideBrief } from './reader-gap-briefs.ts';
import {
  CRITERIA_FILE,
  conceptPattern,
  coreConcepts,
  namesConcept,
  sampleOf,
  seededRandom,
} from './recall-pools.ts';

/** Pool batch A judges the first six, pool batch B the last six; wide mode swaps them. */
const GAP_TOPICS = [
  'credit-assignment-in-rl',
  'agentic-rag',
  'group-relative-policy-optimization',
  'multi-agent-llm-systems',
  'llm-safety',
  'imitation-learning',
  'video-generation',
  'large-language-models',
  'multimodal-learning',
  'vision-language-models',
  'llm-reasoning',
  'reinforcement-learning',
] as const;
const PER_TOPIC = 5;

const [outArg, seedArg] = process.argv.slice(2);
if (!outArg)
  throw new Error(
    'Name the folder for the batches: tsx tests/eval/reader-gap-sample.ts "$(mktemp -d)" [seed]',
  );
const out = resolve(outArg);
const SEED = Number(seedArg ?? 20_261_208);
const here = dirname(fileURLToPath(import.meta.url));

const used = new Set<string>();
for (const file of readdirSync(here).filter((f) => f.endsWith('.jsonl') && !f.startsWith('reader-gap-')))
  for (const m of readFileSync(join(here, file), 'utf8').matchAll(/"paper":\s*"([^"]+)"/g))
    if (m[1]) used.add(m[1]);

const taxonomy = defaultTaxonomy();
const { papers } = await taggableCorpus();
const concepts = coreConcepts();
const patterns = new Map([...concepts].map(([slug, list]) => [slug, conceptPattern(list)]));
const random = seededRandom(SEED);

interface Item {
  paper: TaggablePaper;
  topic: string;
}
const slice: Item[] = [];
for (const topic of GAP_TOPICS) {
  const pattern = patterns.get(topic);
  if (!pattern) throw new Error(`CRITERIA-taxonomy.md has no core concepts for ${topic}.`);
  const pool = papers.filter((p) => !used.has(p.id) && namesConcept(pattern, p));
  const pick = sampleOf(pool, PER_TOPIC, random);
  if (pick.length < PER_TOPIC) throw new Error(`${topic}: only ${pick.length} unjudged papers in its pool.`);
  for (const paper of pick) {
    used.add(paper.id);
    slice.push({ paper, topic });
  }
  console.log(`${topic}: pool ${pool.length} unjudged papers, drew ${pick.length}`);
}

const halves = { A: GAP_TOPICS.slice(0, 6), B: GAP_TOPICS.slice(6) } as const;
const itemsOf = (topics: readonly string[]) => slice.filter((i) => topics.includes(i.topic));

// Pool mode: one heading per topic, its papers in draw order.
for (const [name, topics] of Object.entries(halves)) {
  const sections = topics.map(
    (t) =>
      `## Topic: ${topicLine(taxonomy, t).slice(2)}\n\n${itemsOf([t])
        .map((i) => paperBlock(i.paper))
        .join('\n')}`,
  );
  writeFileSync(
    join(out, `pool-${name}.md`),
    `# Pool batch ${name}: ${topics.length} topics, ${itemsOf(topics).length} papers\n\n${sections.join('\n')}`,
  );
}

// Wide mode: the criteria file's rules and one section per topic, for each batch's own extract.
const criteria = readFileSync(CRITERIA_FILE, 'utf8');
const { rules, sections } = criteriaSections(criteria);
const engine = compileForCollection(taxonomy, papers);
const candidatesOf = candidateDrawer(taxonomy, engine, patterns, random);
const wide = { A: halves.B, B: halves.A } as const;
let widePairs = 0;
for (const [name, topics] of Object.entries(wide)) {
  const mine = sampleOf(itemsOf(topics), PER_TOPIC * topics.length, random);
  const named = new Set<string>();
  const text = mine
    .map(({ paper, topic }) => {
      const candidates = candidatesOf(paper);
      if (!candidates.includes(topic))
        throw new Error(`${paper.id}: its pool topic ${topic} is not a candidate.`);
      candidates.forEach((s) => named.add(s));
      widePairs += candidates.length;
      return `${paperBlock(paper)}Candidate topics:\n${candidates.map((s) => topicLine(taxonomy, s)).join('\n')}\n`;
    })
    .join('\n');
  writeFileSync(join(out, `wide-${name}.md`), `# Wide batch ${name}: ${mine.length} papers\n\n${text}`);
  const extract = [...named].sort().map((s) => sections.get(s) ?? `## ${s} — (no section)`);
  writeFileSync(join(out, `criteria-wide-${name}.md`), `${rules.trim()}\n\n${extract.join('\n\n')}\n`);
}
writeFileSync(
  join(out, 'topics.md'),
  taxonomy.topics.map((t) => topicLine(taxonomy, t.slug)).join('\n') + '\n',
);
copyFileSync(CRITERIA_FILE, join(out, 'CRITERIA-taxonomy.md'));
writeFileSync(join(out, 'BRIEF-pool.md'), poolBrief(out));
writeFileSync(join(out, 'BRIEF-wide.md'), wideBrief(out));
writeFileSync(
  join(out, 'slice.json'),
  JSON.stringify({ seed: SEED, pairs: slice.map((i) => ({ paper: i.paper.id, topic: i.topic })) }, null, 1) +
    '\n',
);
console.log(
  `${slice.length} pairs in pool-A/B.md; the same papers with ${widePairs} candidate pairs in wide-A/B.md`,
);
console.log(`batches in ${out}`);
