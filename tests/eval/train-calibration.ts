/**
 * Fits the tag calibration (packages/core/taxonomy/calibration.json) on the development judgments only:
 * dev-set-taxonomy.jsonl (every passing tag of 120 uniform papers, a topic never labelled for a paper
 * counting as "does not apply", as the judges were asked to add every topic that applies) and the first
 * 12-topic sets (dev-set-a/b/c, test-set: passing tags on their topics). The locked set is never read.
 * `tsx tests/eval/train-calibration.ts`; prints the fit and the development precision at a few cut-offs.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CALIBRATION_FEATURES,
  compileTaxonomy,
  collectionStats,
  defaultTaxonomy,
  TagSelection,
  tagFeatures,
  type TaggablePaper,
} from '@quire/core';
import { repoRoot } from '../src/paths.ts';
import { taggableCorpus } from './eval-corpus.ts';
import { loadJudgments } from './tagging-eval.ts';

const taxonomy = defaultTaxonomy();
const { papers, byId } = await taggableCorpus();
const engine = compileTaxonomy(taxonomy, collectionStats(taxonomy, papers));
const selection = new TagSelection(taxonomy);

interface Example {
  x: number[];
  y: number;
  wide: boolean;
}
let wideSource = true;
const examples: Example[] = [];
const add = (paper: TaggablePaper, label: (slug: string) => boolean | undefined) => {
  const passing = engine.passing(paper);
  for (const { tag, context } of selection.contexts(passing)) {
    const y = label(tag.slug);
    if (y === undefined) continue;
    examples.push({ x: tagFeatures(tag, context), y: y ? 1 : 0, wide: wideSource });
  }
};

// Taxonomy-wide: every topic counts, unlabelled = does not apply (majority where several judged).
const wide = loadJudgments(/^dev-set-taxonomy\.jsonl$/);
const votes = new Map<string, number[]>();
for (const j of wide)
  votes.set(`${j.paper} ${j.topic}`, [...(votes.get(`${j.paper} ${j.topic}`) ?? []), j.label ? 1 : 0]);
for (const id of new Set(wide.map((j) => j.paper))) {
  const paper = byId.get(id);
  if (!paper) continue;
  add(paper, (slug) => {
    const v = votes.get(`${id} ${slug}`);
    return v ? v.reduce((s, x) => s + x, 0) * 2 > v.length : false;
  });
}
// The 12-topic sets: only the judged (paper, topic) pairs.
wideSource = false;
const narrow = loadJudgments(/^(dev-set-[a-c]|test-set)\.jsonl$/);
const judged = new Map<string, Map<string, boolean>>();
for (const j of narrow) {
  const m = judged.get(j.paper) ?? new Map<string, boolean>();
  m.set(j.topic, j.label);
  judged.set(j.paper, m);
}
for (const [id, labels] of judged) {
  const paper = byId.get(id);
  if (paper) add(paper, (slug) => labels.get(slug));
}

// Standardise, then logistic regression by gradient descent with a little L2.
const k = CALIBRATION_FEATURES.length;
const mean = Array.from(
  { length: k },
  (_, i) => examples.reduce((s, e) => s + (e.x[i] ?? 0), 0) / examples.length,
);
const sd = Array.from(
  { length: k },
  (_, i) =>
    Math.sqrt(examples.reduce((s, e) => s + ((e.x[i] ?? 0) - (mean[i] ?? 0)) ** 2, 0) / examples.length) || 1,
);
const z = (x: number[]) => x.map((v, i) => (v - (mean[i] ?? 0)) / (sd[i] ?? 1));
const w = new Array<number>(k).fill(0);
let b = 0;
const L2 = 0.01;
for (let epoch = 0; epoch < 3000; epoch++) {
  const gw = new Array<number>(k).fill(0);
  let gb = 0;
  for (const e of examples) {
    const xs = z(e.x);
    const p = 1 / (1 + Math.exp(-(b + xs.reduce((s, v, i) => s + v * (w[i] ?? 0), 0))));
    const d = p - e.y;
    xs.forEach((v, i) => (gw[i] = (gw[i] ?? 0) + d * v));
    gb += d;
  }
  for (let i = 0; i < k; i++) w[i] = (w[i] ?? 0) - 0.5 * ((gw[i] ?? 0) / examples.length + L2 * (w[i] ?? 0));
  b -= (0.5 * gb) / examples.length;
}
// Back to raw features, so the engine needs no standardisation step.
const weights = w.map((wi, i) => wi / (sd[i] ?? 1));
const bias = b - w.reduce((s, wi, i) => s + (wi * (mean[i] ?? 0)) / (sd[i] ?? 1), 0);
const prob = (x: number[]) =>
  1 / (1 + Math.exp(-(bias + x.reduce((s, v, i) => s + v * (weights[i] ?? 0), 0))));

console.log(`${examples.length} development tags, ${examples.filter((e) => e.y === 1).length} judged right`);
for (const [name, set] of [
  ['all', examples],
  ['taxonomy-wide', examples.filter((e) => e.wide)],
] as const) {
  for (const cut of [0.5, 0.6, 0.7, 0.75, 0.8, 0.85]) {
    const kept = set.filter((e) => prob(e.x) >= cut);
    const right = kept.filter((e) => e.y === 1).length;
    const all = set.filter((e) => e.y === 1).length;
    console.log(
      `  ${name} cut-off ${cut}: keeps ${kept.length} of ${set.length}, precision ${(right / Math.max(1, kept.length)).toFixed(3)}, share of right tags kept ${(right / all).toFixed(3)}`,
    );
  }
}
CALIBRATION_FEATURES.forEach((f, i) => console.log(`  ${f.padEnd(16)} ${(weights[i] ?? 0).toFixed(3)}`));
const file = {
  version: `${taxonomy.version}+${examples.length}`,
  features: [...CALIBRATION_FEATURES],
  weights: weights.map((x) => Number(x.toFixed(4))),
  bias: Number(bias.toFixed(4)),
};
writeFileSync(
  join(repoRoot, 'packages/core/taxonomy/calibration.json'),
  `${JSON.stringify(file, null, 2)}\n`,
);
console.log('wrote packages/core/taxonomy/calibration.json');
