// Bundled by the tagging benchmark for Chromium: the same core engine the browser app uses.
import { compileForCollection, defaultTaxonomy, type TaggablePaper } from '@quire/core';

async function runTagging(
  url: string,
): Promise<{ papers: number; compileMs: number; tagMs: number; tags: number }> {
  const papers = (await (await fetch(url)).json()) as TaggablePaper[];
  const t0 = performance.now();
  const engine = compileForCollection(defaultTaxonomy(), papers);
  const t1 = performance.now();
  let tags = 0;
  for (const paper of papers) tags += engine.tag(paper).length;
  const t2 = performance.now();
  return { papers: papers.length, compileMs: t1 - t0, tagMs: t2 - t1, tags };
}

(globalThis as unknown as { runTagging: typeof runTagging }).runTagging = runTagging;
