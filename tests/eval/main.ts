/**
 * `pnpm eval <name>`: quality measurements. Like benchmarks, they print readable lines and, last, one JSON
 * object with the figures.
 */
import { runReaderGap } from './reader-gap.ts';
import { runTaggingEval } from './tagging-eval.ts';
import { runTrainTopicModels } from './train-topic-models.ts';

const EVALS: Record<string, () => Promise<Record<string, unknown>>> = {
  tagging: runTaggingEval,
  'train-topic-models': runTrainTopicModels,
  'reader-gap': runReaderGap,
};

const name = process.argv[2];
const run = name ? EVALS[name] : undefined;
if (!run) {
  console.error(`Usage: pnpm eval <${Object.keys(EVALS).join('|')}>`);
  process.exit(2);
}
const figures = await run();
console.log(JSON.stringify({ eval: name, ...figures }));
