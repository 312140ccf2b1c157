/**
 * Each topic's and each category's search docs as bitmaps on disk, for the topic: and cat: filters on
 * text (search-doc-sets.ts). A set used to be read as one row per paper joined to `search_docs` for its
 * doc (0.5-1 µs a paper: at 100x a topic of 200,000 papers took 120-150 ms before the query could start).
 * Here a row holds 32 docs of one set, so a broad topic is read in a few tens of thousands of rows
 * without a join: the cost no longer grows with the topic's size past one row per 32 docs.
 *
 * `word` is doc >> 5 and `bits` has bit (doc & 31) set for each doc of the set in that word: a set's
 * docs are the OR of each bit position (SQLite integers hold the 32 bits whole; JavaScript reads them
 * as numbers). Kept by triggers in the transaction of every write: a closure row (`paper_topics`) or a
 * category (`paper_categories`) written or removed sets or clears its doc's bit, found through
 * `search_docs`. A paper deleted clears its bits first (BEFORE DELETE, while its rows and its doc are
 * there to be read), whatever order the tables' own triggers and cascades then run in. A word whose
 * bits are all cleared is removed.
 */

/**
 * The triggers that keep `bits` (keyed by `key`) in step with `source`'s rows (paper_id, `key`): a row
 * written sets its doc's bit, removed clears it (and drops a word left empty), changed does both.
 */
const SET_TRIGGERS = (source: string, bits: string, key: string) => `
CREATE TRIGGER ${source}_bits_insert AFTER INSERT ON ${source} BEGIN
  INSERT INTO ${bits} (${key}, word, bits)
  SELECT NEW.${key}, doc >> 5, 1 << (doc & 31) FROM search_docs WHERE paper_id = NEW.paper_id
  ON CONFLICT (${key}, word) DO UPDATE SET bits = bits | excluded.bits;
END;

CREATE TRIGGER ${source}_bits_delete AFTER DELETE ON ${source} BEGIN
  UPDATE ${bits} SET bits = bits & ~(1 << (d.doc & 31))
  FROM search_docs d WHERE d.paper_id = OLD.paper_id AND ${key} = OLD.${key} AND word = d.doc >> 5;
  DELETE FROM ${bits} WHERE ${key} = OLD.${key} AND bits = 0
    AND word = (SELECT doc >> 5 FROM search_docs WHERE paper_id = OLD.paper_id);
END;

CREATE TRIGGER ${source}_bits_update AFTER UPDATE OF ${key}, paper_id ON ${source}
WHEN OLD.${key} IS NOT NEW.${key} OR OLD.paper_id IS NOT NEW.paper_id BEGIN
  UPDATE ${bits} SET bits = bits & ~(1 << (d.doc & 31))
  FROM search_docs d WHERE d.paper_id = OLD.paper_id AND ${key} = OLD.${key} AND word = d.doc >> 5;
  DELETE FROM ${bits} WHERE ${key} = OLD.${key} AND bits = 0
    AND word = (SELECT doc >> 5 FROM search_docs WHERE paper_id = OLD.paper_id);
  INSERT INTO ${bits} (${key}, word, bits)
  SELECT NEW.${key}, doc >> 5, 1 << (doc & 31) FROM search_docs WHERE paper_id = NEW.paper_id
  ON CONFLICT (${key}, word) DO UPDATE SET bits = bits | excluded.bits;
END;`;

/** The migration step: the tables, their triggers, and the sets of every paper stored before it. */
export const CREATE_SEARCH_DOC_BITS = `
CREATE TABLE topic_doc_bits (
  topic TEXT NOT NULL,
  word  INTEGER NOT NULL,
  bits  INTEGER NOT NULL,
  PRIMARY KEY (topic, word)
) WITHOUT ROWID;

CREATE TABLE category_doc_bits (
  category TEXT NOT NULL,  -- as stored in paper_categories
  word     INTEGER NOT NULL,
  bits     INTEGER NOT NULL,
  PRIMARY KEY (category, word)
) WITHOUT ROWID;

${SET_TRIGGERS('paper_topics', 'topic_doc_bits', 'topic')}

${SET_TRIGGERS('paper_categories', 'category_doc_bits', 'category')}

CREATE TRIGGER papers_doc_bits_delete BEFORE DELETE ON papers BEGIN
  UPDATE topic_doc_bits SET bits = bits & ~(1 << (d.doc & 31))
  FROM search_docs d WHERE d.paper_id = OLD.id AND word = d.doc >> 5
    AND topic IN (SELECT topic FROM paper_topics WHERE paper_id = OLD.id);
  UPDATE category_doc_bits SET bits = bits & ~(1 << (d.doc & 31))
  FROM search_docs d WHERE d.paper_id = OLD.id AND word = d.doc >> 5
    AND category IN (SELECT category FROM paper_categories WHERE paper_id = OLD.id);
END;

-- Distinct docs of a set set distinct bits, so their sum is their OR.
INSERT INTO topic_doc_bits (topic, word, bits)
SELECT t.topic, d.doc >> 5, SUM(1 << (d.doc & 31))
FROM paper_topics t JOIN search_docs d ON d.paper_id = t.paper_id GROUP BY t.topic, d.doc >> 5;

INSERT INTO category_doc_bits (category, word, bits)
SELECT c.category, d.doc >> 5, SUM(1 << (d.doc & 31))
FROM paper_categories c JOIN search_docs d ON d.paper_id = c.paper_id GROUP BY c.category, d.doc >> 5;
`;

/**
 * The aggregate a set is read through: each (word, bits) row sets its docs in the set being read (see
 * search-doc-sets.ts). Rows handed to JavaScript one by one through better-sqlite3 cost four times
 * SQLite's read itself, and as two JSON arrays built and parsed (the earlier read) still twice what
 * the aggregate costs.
 */
export const DOC_WORDS_AGGREGATE = 'quire_doc_words';

/**
 * The bitmap words of the docs carrying any of the topics, by their closure, into DOC_WORDS_AGGREGATE: each
 * row as one integer, its word above its 32 bits (under 2^53 for any word below 2^21, 67M docs).
 */
export const TOPIC_DOC_WORDS = `SELECT ${DOC_WORDS_AGGREGATE}((word << 32) | bits) FROM topic_doc_bits
  WHERE topic IN (SELECT value FROM json_each(?))`;

/** The same for categories, as stored (see search-category-filter.ts). */
export const CATEGORY_DOC_WORDS = `SELECT ${DOC_WORDS_AGGREGATE}((word << 32) | bits) FROM category_doc_bits
  WHERE category IN (SELECT value FROM json_each(?))`;

/** Docs per bitmap word. */
export const DOCS_PER_WORD = 32;
/**
 * What a filter's plan costs reading a doc set from its bitmaps, per bitmap word read, and then per match
 * tested against the set (µs, measured on a 268,450-paper store).
 */
export const WORD_US = 0.2;
export const LOOKUP_US = 0.08;
