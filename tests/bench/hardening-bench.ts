/**
 * `pnpm bench hardening`: the limits of issue 10 under hostile input. Each section prints its lines and
 * returns its figures under its own key.
 */
import { runImportHardeningBench } from './hardening-import-bench.ts';
import { runRenderHardeningBench } from './hardening-render-bench.ts';
import { runSearchHardeningBench } from './hardening-search-bench.ts';

const SECTIONS: Record<string, () => Promise<Record<string, unknown>>> = {
  import: runImportHardeningBench,
  render: runRenderHardeningBench,
  search: runSearchHardeningBench,
};

/** HARDENING_SECTIONS=search,render runs only those sections (all by default). */
export async function runHardeningBench(): Promise<Record<string, unknown>> {
  const wanted = (process.env.HARDENING_SECTIONS ?? Object.keys(SECTIONS).join(',')).split(',');
  const figures: Record<string, unknown> = {};
  for (const name of wanted) {
    const section = SECTIONS[name.trim()];
    if (!section)
      throw new Error(
        `No hardening section "${name}"; the sections are ${Object.keys(SECTIONS).join(', ')}.`,
      );
    Object.assign(figures, await section());
  }
  return figures;
}
