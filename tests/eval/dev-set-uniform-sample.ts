/**
 * Draws a taxonomy-wide development sample: `tsx tests/eval/dev-set-uniform-sample.ts SET OUT_DIR` writes
 * judging batches (corpus text: never committed; OUT_DIR from `mktemp -d`). SET `dev3` drew the third sample
 * (dev-set-taxonomy-3.jsonl), `dev4` the fourth (dev-set-taxonomy-4.jsonl), `dev5` the fifth
 * (dev-set-taxonomy-5.jsonl, drawn with main's engine of 2026-12-06); each leaves out every paper
 * judged before it, so `dev3` drawn again today gives other papers than it first did.
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
import { compileForCollection, defaultTaxonomy } from '@quire/core';
import { taggableCorpus } from './eval-corpus.ts';
import { candidateDrawer, criteriaSections, paperBlock, topicLine } from './judging-batches.ts';
import { CRITERIA_FILE, conceptPattern, coreConcepts, sampleOf, seededRandom } from './recall-pools.ts';

const SETS = {
  dev3: { seed: 20_261_203, papers: 150, batches: 6 },
  dev4: { seed: 20_261_204, papers: 210, batches: 3 },
  dev5: { seed: 20_261_207, papers: 240, batches: 4 },
} as const;

const [setName, out] = process.argv.slice(2);
const set = SETS[setName as keyof typeof SETS] as (typeof SETS)[keyof typeof SETS] | undefined;
if (!set || !out)
  throw new Error(
    `Name the set (${Object.keys(SETS).join(' or ')}) and the folder for the batches: tsx tests/eval/dev-set-uniform-sample.ts dev4 "$(mktemp -d)"`,
  );
const { seed: SEED, papers: PAPERS, batches: BATCHES } = set;
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
const { rules, sections } = criteriaSections(criteria);

const candidatesOf = candidateDrawer(taxonomy, engine, patterns, random);
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
    join(out, `${setName}-${b + 1}.md`),
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
