import type { ColumnDocs, PaperTextRow } from '../store/search-reader.ts';
import type { Candidate } from './rerank.ts';
import { fieldTerms } from './search-hits.ts';

/**
 * What the search thread keeps between queries: the work a popular query repeats, and that the index
 * cannot answer cheaply. Both are bounded, and neither can serve a stale answer that matters: a paper's
 * terms are kept with the very text they were made from, and term counts only while the index holds
 * about as many papers as when they were read.
 */

/** A Map that forgets the entry used longest ago once it holds `capacity`. */
export class BoundedCache<K, V> {
  readonly #capacity: number;
  readonly #entries = new Map<K, V>();

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  get size(): number {
    return this.#entries.size;
  }

  get(key: K): V | undefined {
    const value = this.#entries.get(key);
    if (value !== undefined) {
      // Map keeps insertion order: moving the entry last makes the first the least recently used.
      this.#entries.delete(key);
      this.#entries.set(key, value);
    }
    return value;
  }

  set(key: K, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    if (this.#entries.size > this.#capacity) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
  }

  clear(): void {
    this.#entries.clear();
  }
}

/** Papers whose tokenized fields are kept: a few pages of re-ranked candidates for many queries. */
export const PAPER_TERMS_KEPT = 2_000;
/** Terms whose per-column paper counts are kept. */
export const TERM_COUNTS_KEPT = 20_000;
/** Kept term counts are read again once the index's paper count moved by more than this share. */
export const TERM_COUNTS_DRIFT = 0.01;

type PaperTerms = Pick<Candidate, 'fields' | 'lengths'>;

/**
 * Each candidate's fields tokenized for re-ranking (`fieldTerms`, most of a search's own work), kept by
 * paper with the title, authors and abstract they came from: a paper whose text changed is tokenized again.
 */
export class PaperTermsCache {
  readonly #cache = new BoundedCache<string, { row: PaperTextRow; terms: PaperTerms }>(PAPER_TERMS_KEPT);

  of(row: PaperTextRow): PaperTerms {
    const kept = this.#cache.get(row.id);
    if (
      kept &&
      kept.row.title === row.title &&
      kept.row.abstract === row.abstract &&
      kept.row.authors === row.authors
    ) {
      return kept.terms;
    }
    const terms = fieldTerms(row);
    this.#cache.set(row.id, { row, terms });
    return terms;
  }
}

/**
 * Papers holding each term per column, as `read` gives them (the index's column vocabulary, which reads
 * a term's whole posting list: costly for a common word, and the same for every query that has it). Kept
 * while the index holds within TERM_COUNTS_DRIFT of the papers it held when they were read, which moves
 * a ranking by far less than the counts' own noise.
 */
export class TermCountsCache {
  readonly #cache = new BoundedCache<string, readonly ColumnDocs[]>(TERM_COUNTS_KEPT);
  #papers = -1;

  async counts(
    terms: readonly string[],
    papers: number,
    read: (terms: readonly string[]) => Promise<ColumnDocs[]>,
  ): Promise<ColumnDocs[]> {
    if (Math.abs(papers - this.#papers) > this.#papers * TERM_COUNTS_DRIFT) {
      this.#cache.clear();
      this.#papers = papers;
    }
    const out: ColumnDocs[] = [];
    const missing: string[] = [];
    for (const term of terms) {
      const kept = this.#cache.get(term);
      if (kept) out.push(...kept);
      else missing.push(term);
    }
    if (missing.length === 0) return out;
    const byTerm = new Map<string, ColumnDocs[]>(missing.map((t) => [t, []]));
    for (const c of await read(missing)) byTerm.get(c.term)?.push(c);
    // A term in no column is kept too (as none), so it is not read again.
    for (const [term, columns] of byTerm) {
      this.#cache.set(term, columns);
      out.push(...columns);
    }
    return out;
  }
}
