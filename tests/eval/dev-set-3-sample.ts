/**
 * Draws the third development sample: `tsx tests/eval/dev-set-3-sample.ts OUT_DIR` writes judging batches
 * (corpus text: never committed; OUT_DIR from `mktemp -d`). Its judgments become dev-set-taxonomy-3.jsonl.
 *
 * Drawn as the locked set's precision papers were (locked-set-sample.ts): papers uniformly from the corpus,
 * each with candidate topics — the engine of the day's tags with their ancestors and every topic whose core
 * concepts the paper names — shuffled together, so a judge cannot tell which the engine chose; judges add
 * any other topic that clearly applies. Papers of every judged set, locked or not, are left out by id alone
 * (only the "paper" field of each line is read). Each batch comes with the criteria sections of the topics
 * it names, so a judge reads the written rules and nothing of the engine.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileForCollection, defaultTaxonomy, withAncestors, type TaggablePaper } from '@quire/core';
import { taggableCorpus } from './eval-corpus.ts';
import { paperBlock, topicLine } from './judging-batches.ts';
import {
  CRITERIA_FILE,
  conceptPattern,
  coreConcepts,
  namesConcept,
  sampleOf,
  seededRandom,
} from './recall-pools.ts';

const SEED = 20_261_203;
const PAPERS = 150;
const BATCHES = 6;

const out = process.argv[2];
if (!out)
  throw new Error('Name the folder for the batches: tsx tests/eval/dev-set-3-sample.ts "$(mktemp -d)"');
const here = dirname(fileURLToPath(import.meta.url));

// Ids only: the labels of the locked sets are never read.
const used = new Set<string>();
for (const file of readdirSync(here).filter((f) => f.endsWith('.jsonl')))
  for (const m of readFileSync(join(here, file), 'utf8').matchAll(/"paper":\s*"([^"]+)"/g))
    if (m[1]) used.add(m[1]);

const taxonomy = defaultTaxonomy();
const { papers } = await taggableCorpus();
const fresh = papers.filter((p) => !used.has(p.id));
const engine = compileForCollection(taxonomy, papers);
const patterns = new Map([...coreConcepts()].map(([slug, list]) => [slug, conceptPattern(list)]));
const random = seededRandom(SEED);

// The criteria file's rules, and one section per topic, for the batches' own criteria extracts.
const criteria = readFileSync(CRITERIA_FILE, 'utf8');
const sections = new Map<string, string>();
for (const part of criteria.split(/^(?=## )/m)) {
  const slug = /^## ([a-z0-9-]+) —/.exec(part)?.[1];
  if (slug) sections.set(slug, part.trim());
}
const rules = criteria.split(/^(?=## [a-z0-9-]+ —)/m)[0] ?? '';

const candidatesOf = (p: TaggablePaper): string[] => {
  const set = new Set(withAncestors(taxonomy, engine.tag(p)).map((t) => t.slug));
  for (const [slug, pattern] of patterns) if (namesConcept(pattern, p)) set.add(slug);
  return sampleOf([...set].sort(), set.size, random);
};
const sampled = sampleOf(fresh, PAPERS, random);
let pairs = 0;
for (let b = 0; b < BATCHES; b++) {
  const mine = sampled.filter((_, i) => i % BATCHES === b);
  const named = new Set<string>();
  const text = mine
    .map((p) => {
      const candidates = candidatesOf(p);
      candidates.forEach((s) => named.add(s));
      pairs += candidates.length;
      return `${paperBlock(p)}Candidate topics:\n${candidates.map((s) => topicLine(taxonomy, s)).join('\n')}\n`;
    })
    .join('\n');
  writeFileSync(
    join(out, `dev3-${b + 1}.md`),
    `# Development batch ${b + 1}: ${mine.length} papers\n\n${text}`,
  );
  const extract = [...named].sort().map((s) => sections.get(s) ?? `## ${s} — (no section)`);
  writeFileSync(join(out, `criteria-${b + 1}.md`), `${rules.trim()}\n\n${extract.join('\n\n')}\n`);
}
writeFileSync(
  join(out, 'topics.md'),
  taxonomy.topics.map((t) => topicLine(taxonomy, t.slug)).join('\n') + '\n',
);
console.log(
  `${sampled.length} of ${fresh.length} unjudged papers, ${pairs} candidate pairs in ${BATCHES} batches`,
);
