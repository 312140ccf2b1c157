import type { PaperTag } from '@quire/core';
import type { Database, Statement } from 'better-sqlite3';
import { evidenceJson, type EncodedTag } from './tag-store.ts';

/**
 * The tags of papers an import has just stored for the first time, with the rows derived from them
 * written set-wise.
 *
 * Each tag row used to fire the closure trigger (a paper_topics row per broader topic), and each closure
 * row two more (its topic's day count, its doc's bit in the topic's bitmap): about 80% of what a batch's
 * tags cost the writing thread, which sets an import's pace. A batch's papers are new, so every closure
 * row they get is new too; here they are staged once, then written to paper_topics and folded into the
 * counts and bitmap words in one statement each, grouped by (topic, day) and (topic, word). The result is
 * the rows the triggers write, row for row (tests/integration/import-tagging.test.ts compares them with an
 * import followed by a re-tag, which goes through the triggers).
 *
 * The per-row triggers stay for every other write (a re-tag, a harvest, the hierarchy changing): the
 * migration step below makes them skip while `derived_in_bulk` holds its row, which only this writer
 * inserts, and deletes again before the transaction can commit (it is never seen outside it).
 */
export const DERIVED_IN_BULK = `
CREATE TABLE derived_in_bulk (one INTEGER PRIMARY KEY CHECK (one = 1));

DROP TRIGGER paper_tags_closure_insert;
CREATE TRIGGER paper_tags_closure_insert AFTER INSERT ON paper_tags
WHEN NOT EXISTS (SELECT 1 FROM derived_in_bulk) BEGIN
  INSERT INTO paper_topics (topic, paper_id, listing_date)
  SELECT c.broader, NEW.paper_id, (SELECT listing_date FROM papers WHERE id = NEW.paper_id)
  FROM topic_closure c WHERE c.topic = NEW.topic
  ON CONFLICT DO NOTHING;
END;

DROP TRIGGER paper_topics_count_insert;
CREATE TRIGGER paper_topics_count_insert AFTER INSERT ON paper_topics
WHEN NEW.listing_date IS NOT NULL AND NOT EXISTS (SELECT 1 FROM derived_in_bulk) BEGIN
  INSERT INTO topic_day_counts (topic, listing_date, n) VALUES (NEW.topic, NEW.listing_date, 1)
  ON CONFLICT (topic, listing_date) DO UPDATE SET n = n + 1;
END;

DROP TRIGGER paper_topics_bits_insert;
CREATE TRIGGER paper_topics_bits_insert AFTER INSERT ON paper_topics
WHEN NOT EXISTS (SELECT 1 FROM derived_in_bulk) BEGIN
  INSERT INTO topic_doc_bits (topic, word, bits)
  SELECT NEW.topic, doc >> 5, 1 << (doc & 31) FROM search_docs WHERE paper_id = NEW.paper_id
  ON CONFLICT (topic, word) DO UPDATE SET bits = bits | excluded.bits;
END;
`;

const BULK_ON = `INSERT INTO derived_in_bulk (one) VALUES (1)`;
const BULK_OFF = `DELETE FROM derived_in_bulk`;

// The connection's own scratch table (temp: never in the file, nor seen by another connection). Made
// again at every batch if gone: setting temp_store (bulk-load.ts does, at each import's start and end)
// drops a connection's temp tables, and the statements that read it are then prepared again by SQLite.
const CREATE_STAGED = `
CREATE TEMP TABLE IF NOT EXISTS new_paper_topics (
  paper_id     TEXT NOT NULL,
  topic        TEXT NOT NULL,
  listing_date TEXT,
  doc          INTEGER,
  PRIMARY KEY (paper_id, topic)
) WITHOUT ROWID`;

const INSERT_NEW_PAPER_TAGS = `
INSERT INTO paper_tags (topic, paper_id, score, evidence)
SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3 FROM json_each(?)`;
// The closure of the batch's tags (pairs [topic, paperId]), each (paper, topic) once, with what the
// triggers read for it: the paper's listing date and its search doc.
const STAGE_CLOSURE = `
INSERT OR IGNORE INTO temp.new_paper_topics (paper_id, topic, listing_date, doc)
SELECT t.paper_id, c.broader, p.listing_date, d.doc
FROM (SELECT value ->> 0 AS topic, value ->> 1 AS paper_id FROM json_each(?)) AS t
JOIN topic_closure c ON c.topic = t.topic
JOIN papers p ON p.id = t.paper_id
LEFT JOIN search_docs d ON d.paper_id = t.paper_id`;
// A plain INSERT: the papers are new, so a row already there would mean the counts below were wrong,
// and the batch fails rather than counting it twice.
const WRITE_CLOSURE = `
INSERT INTO paper_topics (paper_id, topic, listing_date)
SELECT paper_id, topic, listing_date FROM temp.new_paper_topics ORDER BY paper_id, topic`;
const ADD_DAY_COUNTS = `
INSERT INTO topic_day_counts (topic, listing_date, n)
SELECT topic, listing_date, COUNT(*) FROM temp.new_paper_topics WHERE listing_date IS NOT NULL
GROUP BY topic, listing_date
ON CONFLICT (topic, listing_date) DO UPDATE SET n = n + excluded.n`;
// Distinct docs set distinct bits, so their sum is their OR.
const ADD_DOC_BITS = `
INSERT INTO topic_doc_bits (topic, word, bits)
SELECT topic, doc >> 5, SUM(1 << (doc & 31)) FROM temp.new_paper_topics WHERE doc IS NOT NULL
GROUP BY topic, doc >> 5
ON CONFLICT (topic, word) DO UPDATE SET bits = bits | excluded.bits`;
const CLEAR_STAGED = `DELETE FROM temp.new_paper_topics`;
const UNMARK_PAPERS = `DELETE FROM papers_to_tag WHERE paper_id IN (SELECT value FROM json_each(?))`;

/** One paper's tags as the import worked them out. */
export interface NewPaperTags {
  id: string;
  tags: readonly (PaperTag | EncodedTag)[];
}

interface Statements {
  on: Statement<[], unknown>;
  off: Statement<[], unknown>;
  insert: Statement<[string], unknown>;
  stage: Statement<[string], unknown>;
  closure: Statement<[], unknown>;
  counts: Statement<[], unknown>;
  bits: Statement<[], unknown>;
  clear: Statement<[], unknown>;
  unmark: Statement<[string], unknown>;
}

/**
 * Writes the tags of papers first stored in the transaction it is called in (an import tags each batch in
 * a thread of its own): synchronous, since it joins the paper store's batch transaction, so a batch's
 * papers, their tags, the rows derived from them and the papers' cleared stale marks commit together.
 */
export class NewPaperTagWriter {
  readonly #db: Database;
  // Prepared at the first write, after the temp table they read is made: never on a connection that
  // only reads.
  #statements: Statements | null = null;

  constructor(db: Database) {
    this.#db = db;
  }

  /** Only for papers that had no row before this transaction (so no stored tags either). */
  write(results: readonly NewPaperTags[]): void {
    if (results.length === 0) return;
    this.#db.exec(CREATE_STAGED);
    const s = this.#prepared();
    const tags: unknown[][] = [];
    const pairs: string[][] = [];
    for (const r of results) {
      for (const t of r.tags) {
        tags.push([t.slug, r.id, t.score, evidenceJson(t)]);
        pairs.push([t.slug, r.id]);
      }
    }
    if (tags.length > 0) {
      s.on.run();
      try {
        s.insert.run(JSON.stringify(tags));
        s.stage.run(JSON.stringify(pairs));
        s.closure.run();
        s.counts.run();
        s.bits.run();
      } finally {
        s.clear.run();
        s.off.run();
      }
    }
    s.unmark.run(JSON.stringify(results.map((r) => r.id)));
  }

  #prepared(): Statements {
    if (this.#statements) return this.#statements;
    const db = this.#db;
    this.#statements = {
      on: db.prepare(BULK_ON),
      off: db.prepare(BULK_OFF),
      insert: db.prepare(INSERT_NEW_PAPER_TAGS),
      stage: db.prepare(STAGE_CLOSURE),
      closure: db.prepare(WRITE_CLOSURE),
      counts: db.prepare(ADD_DAY_COUNTS),
      bits: db.prepare(ADD_DOC_BITS),
      clear: db.prepare(CLEAR_STAGED),
      unmark: db.prepare(UNMARK_PAPERS),
    };
    return this.#statements;
  }
}
