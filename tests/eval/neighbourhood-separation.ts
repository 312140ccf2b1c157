/**
 * How well the neighbourhood share (neighbourhood.ts) tells a right passing tag from a wrong one on the
 * taxonomy-wide development samples 1–3 (in-sample for the rules; never the fresh or locked sets):
 * `QUIRE_NEIGHBOURS=1 tsx tests/eval/neighbourhood-separation.ts` prints, for the rules' passing tags and for
 * the shipped engine's kept ones, the mean share of right and wrong tags, the AUC of the share alone, and
 * the precision of the tags by share band.
 */
import { collectionStats, compileTaxonomy, defaultTaxonomy } from '@quire/core';
import { taggableCorpus } from './eval-corpus.ts';
import { Neighbourhood, neighbourOptionsFromEnv, shippedTags } from './neighbourhood.ts';
import { loadJudgments } from './tagging-eval.ts';
import { majority } from './topic-model-training.ts';

const options = neighbourOptionsFromEnv() ?? { k: 15, at: 0.5, recall: false };
const taxonomy = defaultTaxonomy();
const { papers, byId } = await taggableCorpus();
const shipped = compileTaxonomy(taxonomy, collectionStats(taxonomy, papers));
const tags = shippedTags(taxonomy, papers);
let started = performance.now();
const near = new Neighbourhood(taxonomy, papers, options, tags);
const indexMs = performance.now() - started;
const wide = majority(loadJudgments(/^dev-set-taxonomy(-[23])?\.jsonl$/));

function report(name: string, rows: { share: number; y: boolean }[]): void {
  const right = rows.filter((r) => r.y);
  const wrong = rows.filter((r) => !r.y);
  const mean = (xs: { share: number }[]) => xs.reduce((s, r) => s + r.share, 0) / Math.max(1, xs.length);
  let wins = 0;
  for (const r of right) for (const w of wrong) wins += r.share > w.share ? 1 : r.share === w.share ? 0.5 : 0;
  const auc = wins / Math.max(1, right.length * wrong.length);
  console.log(
    `${name}: ${rows.length} tags, ${right.length} right; mean share right ${mean(right).toFixed(3)}, wrong ${mean(wrong).toFixed(3)}; AUC of the share alone ${auc.toFixed(3)}`,
  );
  const bands = [0, 0.05, 0.2, 0.4, 0.6, 0.8, 1.01];
  for (let b = 0; b + 1 < bands.length; b++) {
    const lo = bands[b] ?? 0;
    const hi = bands[b + 1] ?? 1;
    const inBand = rows.filter((r) => r.share >= lo && r.share < hi);
    const ok = inBand.filter((r) => r.y).length;
    console.log(
      `  share [${lo.toFixed(2)}, ${Math.min(1, hi).toFixed(2)}): ${inBand.length} tags, precision ${inBand.length ? (ok / inBand.length).toFixed(3) : '–'}`,
    );
  }
}

started = performance.now();
for (const id of wide.keys()) near.neighbours(id);
console.log(
  `index of ${papers.length} papers built in ${indexMs.toFixed(0)} ms; ${wide.size} papers' ${options.k} neighbours in ${(performance.now() - started).toFixed(0)} ms (wall clock, under the machine's load)`,
);
const passingRows: { share: number; y: boolean }[] = [];
const keptRows: { share: number; y: boolean }[] = [];
const missRows: { share: number; y: boolean }[] = [];
for (const [id, labels] of wide) {
  const paper = byId.get(id);
  if (!paper) continue;
  const shares = near.shares(id);
  const kept = new Set(shipped.tag(paper).map((t) => t.slug));
  for (const tag of shipped.passing(paper)) {
    const row = { share: shares.get(tag.slug) ?? 0, y: labels.get(tag.slug) === true };
    passingRows.push(row);
    if (kept.has(tag.slug)) keptRows.push(row);
    else missRows.push(row);
  }
}
report('rules passing', passingRows);
report('kept by the shipped engine', keptRows);
report('passing, not kept', missRows);
