import type { Database, Statement } from 'better-sqlite3';

const PAPER_COUNT = 'SELECT COUNT(*) FROM papers';
const ABSTRACT_AT = 'SELECT abstract FROM papers ORDER BY id LIMIT 1 OFFSET ?';

/** The store's abstracts by position, for drawing benchmark queries from (see search-timing.ts). */
export class SearchSamples {
  readonly #count: Statement<[], number>;
  readonly #abstractAt: Statement<[number], string>;

  constructor(db: Database) {
    this.#count = db.prepare<[], number>(PAPER_COUNT).pluck();
    this.#abstractAt = db.prepare<[number], string>(ABSTRACT_AT).pluck();
  }

  paperCount(): number {
    return this.#count.get() ?? 0;
  }

  /** The abstract of the paper at `offset` in id order. */
  abstractAt(offset: number): string | undefined {
    return this.#abstractAt.get(offset);
  }
}
