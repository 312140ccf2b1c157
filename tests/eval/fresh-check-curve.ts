/**
 * A calibration compared on the fresh checks at several cut-offs, aggregates only: `tsx
 * tests/eval/fresh-check-curve.ts [CALIBRATION.json] [--keep 0.7,0.75,0.8] [--floor 0.4]` prints, for each
 * keep cut-off, the precision of every direct tag and of one tag per paper (its expectation) and the recall
 * of judged-in topics over the fourth and fifth taxonomy-wide samples together, and the pooled precision and
 * recall on dev-recall-4. `pnpm eval tagging` prints them at the shipped cut-off only; a feature that buys
 * recall at one cut-off is compared with the old calibration at equal recall here. No item is printed (the
 * samples stay fresh); the locked sets are never read. The default file is the shipped calibration, and
 * with QUIRE_NEIGHBOURS=1 the shipped neighbourhood calibration (each passing tag then carries its share
 * among the paper's neighbours, as the engine reads it; the floor defaults to the file's own).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import {
  Calibration,
  collectionStats,
  compileTaxonomy,
  defaultTaxonomy,
  FLOOR_CONFIDENCE,
  TagSelection,
  withAncestors,
  type CalibrationFile,
  type PaperTag,
  withNeighbourShares,
} from '@quire/core';
import { repoRoot } from '../src/paths.ts';
import { taggableCorpus } from './eval-corpus.ts';
import { consensus, type LockedJudgment } from './locked-eval.ts';
import { EngineNeighbours } from './engine-neighbours.ts';
import { neighbourOptionsFromEnv } from './neighbourhood.ts';
import { loadJudgments } from './tagging-eval.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { keep: { type: 'string' }, floor: { type: 'string' } },
});
// QUIRE_NEIGHBOURS=1: each passing tag carries its share among the paper's neighbours, as the engine reads it.
const neighbourOptions = neighbourOptionsFromEnv();
const shipped = neighbourOptions ? 'calibration-neighbours.json' : 'calibration.json';
const path = positionals[0] ?? `${repoRoot}/packages/core/taxonomy/${shipped}`;
const calibration = new Calibration(JSON.parse(readFileSync(path, 'utf8')) as CalibrationFile);
const keeps = (values.keep ?? '0.7,0.75,0.8').split(',').map(Number);
const floor = values.floor ? Number(values.floor) : (calibration.cutoffs.floor ?? FLOOR_CONFIDENCE);

const taxonomy = defaultTaxonomy();
const { papers, byId } = await taggableCorpus();
const engine = compileTaxonomy(taxonomy, { ...collectionStats(taxonomy, papers), calibration: null });
const load = (pattern: RegExp) => consensus(loadJudgments(pattern) as unknown as LockedJudgment[]);
const wide = load(/^dev-set-taxonomy-[45]\.jsonl$/);
const pool = load(/^dev-recall-4\.jsonl$/);
const paperOf = (key: string) => key.slice(0, key.indexOf(' '));
const wideIds = [...new Set([...wide.keys()].map(paperOf))];
const neighbourhood = neighbourOptions ? new EngineNeighbours(taxonomy, papers, neighbourOptions) : null;
const passing = new Map<string, PaperTag[]>();
for (const id of new Set([...wideIds, ...[...pool.keys()].map(paperOf)])) {
  const paper = byId.get(id);
  if (!paper) continue;
  const ruled = engine.passing(paper);
  passing.set(id, neighbourhood ? withNeighbourShares(ruled, neighbourhood.of(id)) : ruled);
}

// A share of nothing prints as "–", not NaN.
const f3 = (part: number, whole: number) => (whole > 0 ? (part / whole).toFixed(3) : '–');
for (const keep of keeps) {
  const selection = new TagSelection(taxonomy, calibration, { keep, floor });
  const chosen = (id: string): PaperTag[] => {
    const paper = byId.get(id);
    return paper ? engine.select(paper, passing.get(id) ?? [], selection) : [];
  };
  const all = (id: string) => new Set(withAncestors(taxonomy, chosen(id)).map((t) => t.slug));
  let tags = 0;
  let right = 0;
  let onePerPaper = 0;
  let tagged = 0;
  let inTopic = 0;
  let found = 0;
  for (const id of wideIds) {
    const direct = chosen(id);
    const ok = direct.filter((t) => wide.get(`${id} ${t.slug}`) === true).length;
    tags += direct.length;
    right += ok;
    if (direct.length > 0) {
      tagged++;
      onePerPaper += ok / direct.length;
    }
    const implied = all(id);
    for (const [key, label] of wide)
      if (label && paperOf(key) === id) {
        inTopic++;
        if (implied.has(key.slice(id.length + 1))) found++;
      }
  }
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const [key, label] of pool) {
    const id = paperOf(key);
    const has = all(id).has(key.slice(id.length + 1));
    if (has && label) tp++;
    else if (has) fp++;
    else if (label) fn++;
  }
  console.log(
    `keep ${keep} floor ${floor}: fourth + fifth samples (${wideIds.length} papers) every tag ${f3(right, tags)} ` +
      `(${tags}), one tag per paper ${f3(onePerPaper, tagged)}, recall ${f3(found, inTopic)}, ` +
      `bare ${((100 * (wideIds.length - tagged)) / wideIds.length).toFixed(1)}%; ` +
      `dev-recall-4 precision ${f3(tp, tp + fp)}, recall ${f3(tp, tp + fn)}`,
  );
}
