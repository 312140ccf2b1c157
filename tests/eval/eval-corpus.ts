import type { TaggablePaper } from '@quire/core';
import { loadCorpus } from '../src/replay/index.ts';

/** The listing corpus as the tagging engine reads it, and by id: what every eval script starts from. */
export async function taggableCorpus(): Promise<{
  papers: TaggablePaper[];
  byId: Map<string, TaggablePaper>;
}> {
  const papers: TaggablePaper[] = (await loadCorpus()).map((p) => ({
    id: p.id,
    title: p.title,
    abstract: p.abstract,
    categories: p.categories,
  }));
  return { papers, byId: new Map(papers.map((p) => [p.id, p])) };
}
