import type { Database, Statement } from 'better-sqlite3';
import {
  CATEGORY_DOC_WORDS,
  DOC_WORDS_AGGREGATE,
  DOCS_PER_WORD,
  TOPIC_DOC_WORDS,
} from './search-doc-bits.ts';

/**
 * Topic filters on text matches, tested against sets held in memory. A text query walks its matches from
 * the newest doc down, and a topic: filter tested each one with an index probe (1.5 µs: search_docs for
 * the paper id, then paper_topics), or gathered the topic's papers into a temporary set in every
 * statement (0.4 µs a paper): at 100x "topic:reinforcement-learning transformers" walked 170,000 matches
 * against a topic of 199,000 papers, twice (all fields, then titles), about a second. Here the topic's
 * docs are read once, kept while nothing is committed to the store, and bound to each statement as a
 * blob of one byte per doc (1 for a doc in the set), which SQL tests itself: `substr(set, doc + 1, 1)`
 * reads a blob's byte in place. A JavaScript function called per match cost 0.2-0.3 µs of the walk, the
 * byte 0.05-0.1 µs (at 10x, the 20,700 "transformer" matches under the topic: 4.2-6.6 ms against
 * 1.6-3.1). A topic closure's or a category's docs are read from the bitmaps the store keeps on disk
 * (search-doc-bits.ts), 32 docs a row, through an aggregate that sets the bytes as SQLite hands it the
 * rows (no JSON built and parsed: at 10x cs.CV and cs.RO in 2.3-2.5 ms against 3.5-9); stored tags (a
 * hierarchy the store did not record) one paper a row.
 *
 * `PRAGMA data_version` changes when another connection commits (total_changes() when this one writes):
 * every set is then dropped, so a set never misses a paper tagged since it was read (while an import is
 * being tagged the sets are read again per query, which costs what a set cost before).
 */

/** A bitmap word's span in DOC_WORDS_AGGREGATE's argument: 2^32. */
const WORD_SPAN = 4_294_967_296;

/** A doc's byte in a set's blob when the doc is in the set (a blob literal). */
export const IN_SET = "x'01'";

/** Sets kept at most (each a byte per doc: 2.7 MB at 2.7M papers). */
export const DOC_SETS_KEPT = 16;

/** The docs of the papers carrying any of the topics by their stored tags. */
const TAGGED_DOCS = `SELECT d.doc FROM paper_tags t JOIN search_docs d ON d.paper_id = t.paper_id
  WHERE t.topic IN (SELECT value FROM json_each(?))`;
// Another connection's commits change data_version, this connection's own change total_changes().
export const DATA_VERSION = `SELECT (SELECT data_version FROM pragma_data_version) || ' ' || total_changes()`;
// The largest doc, for the size of a set's blob (docs indexed later are past its end: not in it).
const TOP_DOC = `SELECT COALESCE(MAX(doc), 0) FROM search_docs`;

export type DocSetSource = 'closure' | 'tags' | 'categories';

export class DocSets {
  readonly #byKey = new Map<string, Buffer>();
  readonly #closureWords: Statement<[string], number>;
  readonly #taggedDocs: Statement<[string], number>;
  readonly #categoryWords: Statement<[string], number>;
  readonly #dataVersion: Statement<[], string>;
  readonly #topDoc: Statement<[], number>;
  /** The blob the aggregate is filling while a set is read. */
  #filling: Buffer = Buffer.alloc(0);
  #version = '';

  /** One per connection (see `of`): the aggregate it registers fills this instance's sets. */
  private constructor(db: Database) {
    db.aggregate(DOC_WORDS_AGGREGATE, {
      start: 0,
      // One argument, the word above the 32 bits (see TOPIC_DOC_WORDS): a call with two cost more.
      step: (rows: number, packed: number) => {
        const word = Math.floor(packed / WORD_SPAN);
        this.#fill(word, packed - word * WORD_SPAN);
        return rows + 1;
      },
    });
    this.#closureWords = db.prepare<[string], number>(TOPIC_DOC_WORDS).pluck();
    this.#taggedDocs = db.prepare<[string], number>(TAGGED_DOCS).pluck();
    this.#categoryWords = db.prepare<[string], number>(CATEGORY_DOC_WORDS).pluck();
    this.#dataVersion = db.prepare<[], string>(DATA_VERSION).pluck();
    this.#topDoc = db.prepare<[], number>(TOP_DOC).pluck();
  }

  static #ofDatabase = new WeakMap<Database, DocSets>();

  static of(db: Database): DocSets {
    let sets = DocSets.#ofDatabase.get(db);
    if (!sets) DocSets.#ofDatabase.set(db, (sets = new DocSets(db)));
    return sets;
  }

  /**
   * Whether the set for these topics (or categories) is held and still current (so using it costs no
   * gathering).
   */
  has(source: DocSetSource, topics: readonly string[]): boolean {
    this.#checkVersion();
    return this.#byKey.has(keyOf(source, topics));
  }

  /**
   * The set of docs carrying any of `topics`, read now unless held and current: a blob holding 1 at byte
   * `doc` for each doc in it, 0 elsewhere (see IN_SET).
   */
  docsOf(source: DocSetSource, topics: readonly string[]): Buffer {
    this.#checkVersion();
    const key = keyOf(source, topics);
    const held = this.#byKey.get(key);
    if (held) {
      // Most recently used last, so the first is the one to drop.
      this.#byKey.delete(key);
      this.#byKey.set(key, held);
      return held;
    }
    const docs = this.#read(source, JSON.stringify(topics));
    this.#byKey.set(key, docs);
    while (this.#byKey.size > DOC_SETS_KEPT) {
      const oldest = this.#byKey.keys().next().value as string;
      this.#byKey.delete(oldest);
    }
    return docs;
  }

  #read(source: DocSetSource, topics: string): Buffer {
    const docs = Buffer.alloc((this.#topDoc.get() ?? 0) + 1);
    if (source === 'tags') {
      for (const d of this.#taggedDocs.all(topics)) if (d < docs.length) docs[d] = 1;
      return docs;
    }
    this.#filling = docs;
    try {
      (source === 'closure' ? this.#closureWords : this.#categoryWords).get(topics);
    } finally {
      this.#filling = Buffer.alloc(0);
    }
    return docs;
  }

  /** Sets the byte of each doc of bitmap word `word` (docs word × 32 + bit, for each bit of `bits`). */
  #fill(word: number, bits: number): void {
    const docs = this.#filling;
    const base = word * DOCS_PER_WORD;
    // Lowest set bit first, each cleared once read: a sparse word costs only its docs.
    for (let rest = bits >>> 0; rest !== 0; rest = (rest & (rest - 1)) >>> 0) {
      const doc = base + 31 - Math.clz32(rest & -rest);
      if (doc < docs.length) docs[doc] = 1;
    }
  }

  #checkVersion(): void {
    const version = this.#dataVersion.get() ?? '';
    if (version === this.#version) return;
    this.#version = version;
    this.#byKey.clear();
  }
}

function keyOf(source: DocSetSource, topics: readonly string[]): string {
  return `${source} ${[...topics].sort().join(' ')}`;
}
