/**
 * Each paper's neighbours as the engine reads them (`CompiledTaxonomy.tag(paper, logits, neighbours)`):
 * its nearest corpus papers from neighbourhood.ts, each with its title and its tags WITHOUT neighbours
 * (the shipped engine's, direct and implied), as the server gives them.
 */
import type { TaggablePaper, TaggedNeighbour, Taxonomy } from '@quire/core';
import { Neighbourhood, shippedTags, type NeighbourOptions } from './neighbourhood.ts';

export class EngineNeighbours {
  readonly #hood: Neighbourhood;
  readonly #byId: ReadonlyMap<string, TaggablePaper>;
  readonly #topics = new Map<string, readonly string[]>();

  constructor(taxonomy: Taxonomy, papers: readonly TaggablePaper[], options: NeighbourOptions) {
    const tags = shippedTags(taxonomy, papers);
    papers.forEach((p, i) => this.#topics.set(p.id, [...(tags[i] ?? [])]));
    this.#byId = new Map(papers.map((p) => [p.id, p]));
    this.#hood = new Neighbourhood(taxonomy, papers, options, tags);
  }

  /** The paper's neighbours, most similar first (none for a paper outside the corpus). */
  of(id: string): TaggedNeighbour[] {
    return this.#hood.neighbours(id).map((n) => ({
      id: n.id,
      title: this.#byId.get(n.id)?.title ?? '',
      sim: n.sim,
      topics: this.#topics.get(n.id) ?? [],
    }));
  }

  /** The paper's base topics (direct and implied): what it gives its own neighbours. */
  baseTopics(id: string): readonly string[] {
    return this.#topics.get(id) ?? [];
  }
}
