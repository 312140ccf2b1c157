import type { Taxonomy } from './taxonomy-load.ts';
import { CompiledTaxonomy, type CompileOptions, type TaggablePaper } from './tagging-engine.ts';
import { tokenise } from './tokenise.ts';

/**
 * What exemplar profiles need from a paper collection: the exemplar papers' texts, and how many papers of
 * the collection hold each word, so an exemplar's distinctive words weigh more than its common ones.
 *
 * Gathered a piece at a time, so a server's store of millions of papers is never held whole: the exemplar
 * texts first (a server looks them up by id), then every paper is counted once, page by page. Only the
 * exemplars' own words are counted, since a profile reads no other word's frequency: the map stays the size
 * of a few abstracts' vocabulary, not the collection's.
 */
export class CollectionStats {
  readonly #exemplarTexts: ReadonlyMap<string, { title: string; abstract: string }>;
  readonly #docFreq = new Map<string, number>();
  #docCount = 0;

  /** The exemplar papers a taxonomy names, whose texts the collection must supply. */
  static exemplarIds(taxonomy: Taxonomy): Set<string> {
    return new Set(taxonomy.topics.flatMap((t) => t.definition.exemplars ?? []));
  }

  /** `exemplarTexts`: the collection's papers among `exemplarIds`, by id (absent ones only tag themselves). */
  constructor(exemplarTexts: ReadonlyMap<string, { title: string; abstract: string }>) {
    this.#exemplarTexts = exemplarTexts;
    for (const text of exemplarTexts.values()) for (const word of wordsOf(text)) this.#docFreq.set(word, 0);
  }

  /**
   * False when no exemplar text is known: word frequencies are then never read, and counting them over a
   * whole store would cost as much as tagging it.
   */
  get counting(): boolean {
    return this.#exemplarTexts.size > 0;
  }

  /** Counts papers of the collection; each paper must be counted once, in any order and any pieces. */
  add(papers: Iterable<{ title: string; abstract: string }>): void {
    if (!this.counting) return;
    const freq = this.#docFreq;
    for (const p of papers) {
      this.#docCount += 1;
      for (const word of wordsOf(p)) {
        const n = freq.get(word);
        if (n !== undefined) freq.set(word, n + 1);
      }
    }
  }

  /** The compile options for the papers counted so far. */
  options(): CompileOptions {
    if (!this.counting) return { exemplarTexts: this.#exemplarTexts };
    return { exemplarTexts: this.#exemplarTexts, docFreq: this.#docFreq, docCount: this.#docCount };
  }
}

function wordsOf(text: { title: string; abstract: string }): Set<string> {
  return new Set(tokenise(`${text.title} ${text.abstract}`).lower);
}

/** Document frequency of every folded word over `papers`. */
export function documentFrequencies(papers: Iterable<{ title: string; abstract: string }>): {
  docFreq: Map<string, number>;
  docCount: number;
} {
  const docFreq = new Map<string, number>();
  let docCount = 0;
  for (const p of papers) {
    docCount += 1;
    for (const word of wordsOf(p)) docFreq.set(word, (docFreq.get(word) ?? 0) + 1);
  }
  return { docFreq, docCount };
}

/** CollectionStats over a collection held whole (the papers a browser holds, an evaluation set). */
export function collectionStats(taxonomy: Taxonomy, papers: readonly TaggablePaper[]): CompileOptions {
  const wanted = CollectionStats.exemplarIds(taxonomy);
  const stats = new CollectionStats(new Map(papers.filter((p) => wanted.has(p.id)).map((p) => [p.id, p])));
  stats.add(papers);
  return stats.options();
}

/**
 * Compiles a taxonomy against a paper collection held whole: its exemplar texts and word frequencies come
 * from the collection (the papers a browser holds).
 */
export function compileForCollection(
  taxonomy: Taxonomy,
  papers: readonly TaggablePaper[],
  only?: ReadonlySet<string>,
): CompiledTaxonomy {
  return new CompiledTaxonomy(taxonomy, { ...collectionStats(taxonomy, papers), ...(only ? { only } : {}) });
}
