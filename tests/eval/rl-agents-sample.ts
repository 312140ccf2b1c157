/** Draws the RL-agents pool sample (see rl-agents-pool.ts) into .tmp/eval-batches for judging; run once. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../src/paths.ts';
import { loadCorpus } from '../src/replay/index.ts';
import { sampleOf, seededRandom } from './recall-pools.ts';
import { inRlAgentsPool, RL_AGENTS_POOL_SAMPLE, RL_AGENTS_POOL_SEED } from './rl-agents-pool.ts';

const corpus = await loadCorpus();
const pool = corpus.filter(inRlAgentsPool);
const pick = sampleOf(pool, RL_AGENTS_POOL_SAMPLE, seededRandom(RL_AGENTS_POOL_SEED));
const out = join(repoRoot, '.tmp/eval-batches');
mkdirSync(out, { recursive: true });
const block = (p: (typeof pick)[number]) =>
  `### ${p.id}\nTitle: ${p.title.replace(/\s+/g, ' ')}\nCategories: ${p.categories.join(' ')}\nAbstract: ${p.abstract.replace(/\s+/g, ' ')}\n`;
for (let b = 0; b < 2; b++) {
  const mine = pick.filter((_, i) => i % 2 === b);
  writeFileSync(
    join(out, `rlagents-${b + 1}.md`),
    `# RL-agents pool, batch ${b + 1}: ${mine.length} papers\n\n${mine.map(block).join('\n')}`,
  );
}
console.log(`RL-agents pool: ${pool.length} papers; ${pick.length} drawn`);
