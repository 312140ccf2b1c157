/**
 * `pnpm bench hardening`: the limits of issue 10 under hostile input. Each section prints its lines and
 * returns its figures under its own key.
 */
import { runImportHardeningBench } from './hardening-import-bench.ts';
import { runRenderHardeningBench } from './hardening-render-bench.ts';
import { runSearchHardeningBench } from './hardening-search-bench.ts';

const SECTIONS: Array<() => Promise<Record<string, unknown>>> = [
  runImportHardeningBench,
  runRenderHardeningBench,
  runSearchHardeningBench,
];

export async function runHardeningBench(): Promise<Record<string, unknown>> {
  const figures: Record<string, unknown> = {};
  for (const section of SECTIONS) Object.assign(figures, await section());
  return figures;
}
