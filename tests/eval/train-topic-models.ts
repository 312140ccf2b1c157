/**
 * Fits the learned per-topic models (packages/core/taxonomy/topic-models.json) on development data only
 * (topic-model-training.ts says how) and prints what they are worth alone, out of fold: on every judged
 * (paper, topic) pair, the precision and recall of "the model says yes" (log-odds ≥ 0), beside the rules'
 * own passing tags on the same pairs. `pnpm eval train-topic-models [--write]`; then refit the calibration
 * (`pnpm eval train-calibration --write`), which reads the models' out-of-fold scores.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { repoRoot } from '../src/paths.ts';
import { taggableCorpus } from './eval-corpus.ts';
import { loadTrainingSet, TopicModelTrainer } from './topic-model-training.ts';

export async function runTrainTopicModels(): Promise<Record<string, unknown>> {
  const { papers, byId } = await taggableCorpus();
  const set = loadTrainingSet(papers, byId);
  const started = performance.now();
  const trainer = new TopicModelTrainer(set);
  const prepared = trainer.prepared;
  console.log(
    `${papers.length} papers, ${prepared.vocab.length} features in at least 3 papers; ${set.fold.size} judged papers in 5 folds`,
  );
  const oof = trainer.outOfFold();
  const pairs = { tp: 0, fp: 0, fn: 0, rulesTp: 0, rulesFp: 0, rulesFn: 0 };
  for (const [id, logits] of oof) {
    const i = prepared.index.get(id);
    if (i === undefined) continue;
    const judged = set.wide.get(id) ?? set.narrow.get(id) ?? new Map<string, boolean>();
    const slugs = set.wide.has(id) ? set.taxonomy.topics.map((t) => t.slug) : [...judged.keys()];
    for (const slug of slugs) {
      const y = judged.get(slug) === true;
      const model = (logits.get(slug) ?? -Infinity) >= 0;
      const rules = prepared.passing[i]?.has(slug) === true;
      if (model && y) pairs.tp++;
      else if (model) pairs.fp++;
      else if (y) pairs.fn++;
      if (rules && y) pairs.rulesTp++;
      else if (rules) pairs.rulesFp++;
      else if (y) pairs.rulesFn++;
    }
  }
  const f3 = (x: number) => x.toFixed(3);
  const modelP = pairs.tp / (pairs.tp + pairs.fp);
  const modelR = pairs.tp / (pairs.tp + pairs.fn);
  console.log(
    `out of fold, judged pairs: model alone (log-odds ≥ 0) precision ${f3(modelP)} recall ${f3(modelR)}; rules passing precision ${f3(pairs.rulesTp / (pairs.rulesTp + pairs.rulesFp))} recall ${f3(pairs.rulesTp / (pairs.rulesTp + pairs.rulesFn))}`,
  );
  const models = trainer.fit(-1);
  const json = `${JSON.stringify(models.file)}\n`;
  const gz = gzipSync(json).length;
  const count = Object.keys(models.file.topics).length;
  console.log(
    `${count} topic models, ${Object.values(models.file.topics).reduce((n, m) => n + m.features.length, 0)} weights: ${(json.length / 1024).toFixed(0)} KiB, ${(gz / 1024).toFixed(0)} KiB gzipped; ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  if (process.argv.includes('--write')) {
    writeFileSync(join(repoRoot, 'packages/core/taxonomy/topic-models.json'), json);
    console.log('wrote packages/core/taxonomy/topic-models.json');
  }
  return {
    version: models.file.version,
    models: count,
    gzipBytes: gz,
    outOfFold: { precision: Number(f3(modelP)), recall: Number(f3(modelR)) },
  };
}
