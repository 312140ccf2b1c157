import type { Database, Statement } from 'better-sqlite3';
import { CATEGORY_DOC_WORDS, TOPIC_DOC_WORDS } from './search-doc-bits.ts';

/**
 * Topic filters on text matches, tested in memory. A text query walks its matches from the newest doc
 * down, and a topic: filter tested each one with an index probe (1.5 µs: search_docs for the paper id,
 * then paper_topics), or gathered the topic's papers into a temporary set in every statement (0.4 µs a
 * paper): at 100x "topic:reinforcement-learning transformers" walked 170,000 matches against a topic of
 * 199,000 papers, twice (all fields, then titles), about a second. Here the topic's docs are read once
 * into a bitset of doc numbers, kept while nothing is committed to the store, and a SQL function this
 * connection registers tests a match against it (0.08 µs). A topic closure's or a category's docs are
 * read from the bitmaps the store keeps on disk (search-doc-bits.ts), 32 docs a row; stored tags (a
 * hierarchy the store did not record) one paper a row.
 *
 * `PRAGMA data_version` changes when another connection commits (total_changes() when this one writes):
 * every set is then dropped, so a set never misses a paper tagged since it was read (while an import is being tagged the sets are read
 * again per query, which costs what a set cost before).
 */

/** The SQL function: `quire_in_doc_set(set, doc)` is 1 when `doc` is in set number `set`, else 0. */
export const IN_DOC_SET_FUNCTION = 'quire_in_doc_set';

/** Sets kept at most (each a bit per doc: 340 KiB at 2.7M papers). */
export const DOC_SETS_KEPT = 16;

/** The docs of the papers carrying any of the topics by their stored tags. */
const TAGGED_DOCS = `SELECT d.doc FROM paper_tags t JOIN search_docs d ON d.paper_id = t.paper_id
  WHERE t.topic IN (SELECT value FROM json_each(?))`;
// Another connection's commits change data_version, this connection's own change total_changes().
export const DATA_VERSION = `SELECT (SELECT data_version FROM pragma_data_version) || ' ' || total_changes()`;

export type DocSetSource = 'closure' | 'tags' | 'categories';

/** A set's bitmap words and their bits, each a JSON array. */
type DocWords = [string, string];

interface DocSet {
  number: number;
  bits: Uint32Array;
}

export class DocSets {
  readonly #byKey = new Map<string, DocSet>();
  readonly #byNumber = new Map<number, Uint32Array>();
  readonly #closureWords: Statement<[string], DocWords>;
  readonly #taggedDocs: Statement<[string], number>;
  readonly #categoryWords: Statement<[string], DocWords>;
  readonly #dataVersion: Statement<[], string>;
  #version = '';
  #next = 1;

  /** One per connection (see `docSetsOf`): the function it registers reads this instance's sets. */
  private constructor(db: Database) {
    this.#closureWords = db.prepare<[string], DocWords>(TOPIC_DOC_WORDS).raw();
    this.#taggedDocs = db.prepare<[string], number>(TAGGED_DOCS).pluck();
    this.#categoryWords = db.prepare<[string], DocWords>(CATEGORY_DOC_WORDS).raw();
    this.#dataVersion = db.prepare<[], string>(DATA_VERSION).pluck();
    db.function(IN_DOC_SET_FUNCTION, { varargs: false }, (set: unknown, doc: unknown) => {
      const bits = this.#byNumber.get(Number(set));
      const d = Number(doc);
      return bits !== undefined && ((bits[d >>> 5] ?? 0) >>> (d & 31)) & 1 ? 1 : 0;
    });
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

  /** The number of the set of docs carrying any of `topics`, read now unless held and current. */
  numberOf(source: DocSetSource, topics: readonly string[]): number {
    this.#checkVersion();
    const key = keyOf(source, topics);
    const held = this.#byKey.get(key);
    if (held) {
      // Most recently used last, so the first is the one to drop.
      this.#byKey.delete(key);
      this.#byKey.set(key, held);
      return held.number;
    }
    const bits = this.#read(source, JSON.stringify(topics));
    const set = { number: this.#next++, bits };
    this.#byKey.set(key, set);
    this.#byNumber.set(set.number, bits);
    while (this.#byKey.size > DOC_SETS_KEPT) {
      const [oldest, dropped] = this.#byKey.entries().next().value as [string, DocSet];
      this.#byKey.delete(oldest);
      this.#byNumber.delete(dropped.number);
    }
    return set.number;
  }

  /** The docs of the set as a bitset: bit (doc & 31) of element doc >> 5. */
  #read(source: DocSetSource, topics: string): Uint32Array {
    if (source === 'tags') {
      const docs = this.#taggedDocs.all(topics);
      let top = 0;
      for (const d of docs) if (d > top) top = d;
      const bits = new Uint32Array((top >>> 5) + 1);
      for (const d of docs) bits[d >>> 5] = (bits[d >>> 5] ?? 0) | (1 << (d & 31));
      return bits;
    }
    const [wordsJson, bitsJson] = (source === 'closure' ? this.#closureWords : this.#categoryWords).get(
      topics,
    ) ?? ['[]', '[]'];
    const words = JSON.parse(wordsJson) as number[];
    const sets = JSON.parse(bitsJson) as number[];
    let top = 0;
    for (const word of words) if (word > top) top = word;
    const bits = new Uint32Array(top + 1);
    // Several topics or categories may hold the same word.
    words.forEach((word, i) => (bits[word] = (bits[word] ?? 0) | (sets[i] ?? 0)));
    return bits;
  }

  #checkVersion(): void {
    const version = this.#dataVersion.get() ?? '';
    if (version === this.#version) return;
    this.#version = version;
    this.#byKey.clear();
    this.#byNumber.clear();
  }
}

function keyOf(source: DocSetSource, topics: readonly string[]): string {
  return `${source} ${[...topics].sort().join(' ')}`;
}
