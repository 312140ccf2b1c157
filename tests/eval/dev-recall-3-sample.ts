/**
 * Draws a fresh pool sample for named topics: `tsx tests/eval/dev-recall-3-sample.ts OUT_DIR topic[,topic]
 * [n] [seed]` writes one judging batch per topic (corpus text: never committed; OUT_DIR from `mktemp -d`). Papers
 * come uniformly from the topic's candidate pool (title or abstract names a core concept of
 * CRITERIA-taxonomy.md, tagged or not), leaving out every paper a judged file names (ids only are read).
 * Judged for that topic alone, they became dev-recall-3.jsonl (seed 20261204, one topic) and
 * dev-recall-4.jsonl (seed 20261206, 14 topics, 40 papers each).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultTaxonomy } from '@quire/core';
import { taggableCorpus } from './eval-corpus.ts';
import { paperBlock, topicLine } from './judging-batches.ts';
import { conceptPattern, coreConcepts, namesConcept, sampleOf, seededRandom } from './recall-pools.ts';

const [out, topics, size, seed] = process.argv.slice(2);
const SEED = Number(seed ?? 20_261_204);
if (!out || !topics)
  throw new Error('Usage: tsx tests/eval/dev-recall-3-sample.ts OUT_DIR topic[,topic] [n] [seed]');
const here = dirname(fileURLToPath(import.meta.url));
const used = new Set<string>();
for (const file of readdirSync(here).filter((f) => f.endsWith('.jsonl')))
  for (const m of readFileSync(join(here, file), 'utf8').matchAll(/"paper":\s*"([^"]+)"/g))
    if (m[1]) used.add(m[1]);

const taxonomy = defaultTaxonomy();
const { papers } = await taggableCorpus();
const concepts = coreConcepts();
const random = seededRandom(SEED);
for (const slug of topics.split(',')) {
  const list = concepts.get(slug);
  if (!list) throw new Error(`CRITERIA-taxonomy.md has no core concepts for ${slug}.`);
  const pattern = conceptPattern(list);
  const pool = papers.filter((p) => !used.has(p.id) && namesConcept(pattern, p));
  const pick = sampleOf(pool, Number(size ?? 30), random);
  pick.forEach((p) => used.add(p.id));
  writeFileSync(
    join(out, `recall-${slug}.md`),
    `# Recall batch: ${topicLine(taxonomy, slug).slice(2)}\n\n${pick.map(paperBlock).join('\n')}`,
  );
  console.log(`${slug}: pool ${pool.length} unjudged papers, drew ${pick.length}`);
}
