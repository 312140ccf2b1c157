import type { TermDocs } from '../search-reader.ts';

/**
 * Words' papers asked one at a time in one turn of the event loop, read in one statement: related papers
 * ask how common each of a paper's 20-40 words is (fts-related.ts: termCounts, `hitsUpTo` per word, at
 * each of three levels), which was a statement and a round trip per word, ten at a time over the pool.
 */
export class WordBatch {
  readonly #read: (terms: readonly string[]) => Promise<TermDocs[]>;
  #pending: Map<string, ((docs: number) => void)[]> | null = null;
  #failed: ((err: unknown) => void)[] = [];

  /** `read`: the papers holding each of some terms (terms held by none left out). */
  constructor(read: (terms: readonly string[]) => Promise<TermDocs[]>) {
    this.#read = read;
  }

  /** Papers holding `term`, 0 when none. */
  docs(term: string): Promise<number> {
    return new Promise((resolve, reject) => {
      if (this.#pending === null) {
        this.#pending = new Map();
        this.#failed = [];
        // After the callers of this turn have all asked (a Promise.all over the words).
        queueMicrotask(() => void this.#flush());
      }
      const waiting = this.#pending.get(term);
      if (waiting) waiting.push(resolve);
      else this.#pending.set(term, [resolve]);
      this.#failed.push(reject);
    });
  }

  async #flush(): Promise<void> {
    const pending = this.#pending ?? new Map<string, ((docs: number) => void)[]>();
    const failed = this.#failed;
    this.#pending = null;
    try {
      const found = new Map((await this.#read([...pending.keys()])).map((t) => [t.term, t.docs]));
      for (const [term, waiting] of pending) for (const resolve of waiting) resolve(found.get(term) ?? 0);
    } catch (err) {
      for (const reject of failed) reject(err);
    }
  }
}
