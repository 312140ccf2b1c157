import { AUTHOR_SEPARATOR, columnTerms, SEARCH_FIELDS, type Author } from '@quire/core';
import type { Database, Statement } from 'better-sqlite3';

/**
 * The on-disk search index: an FTS5 table over each paper's title, authors and abstract, kept up to date
 * in the transaction of every write of papers (see CREATE_SEARCH_INDEX), so it is never rebuilt.
 *
 * FTS5 cannot run core's tokenizer (LaTeX dropped, accents and plurals folded, hyphenated words indexed
 * as their parts and joined, whole-name author keys), so the index stores core's terms, computed by two
 * functions every writing connection registers (`registerSearchFunctions`, called by `migrate`), and the
 * table splits them on spaces only (the `ascii` tokenizer: our terms hold no ASCII punctuation). The
 * table is contentless (it keeps no copy of the text; results are read from `papers`), with deletes
 * allowed so an updated paper's old terms can go.
 *
 * FTS5 rowids are their own numbers (`search_docs.doc`, an INTEGER PRIMARY KEY, which VACUUM keeps), not
 * `papers`' implicit rowid, which VACUUM may renumber. `search_docs` also keeps the listing date, so a
 * date filter over many matches reads this small table rather than the paper rows.
 *
 * Papers' text is written only by `PaperStore`, which indexes what it queued before each batch commits. An
 * import hands it the terms its parse thread computed (`KnownTerms`); the functions answer from those.
 * A paper changed by other means (the sqlite3 shell) stays queued until the next batch indexes it.
 */

/** The function the triggers call for a title or an abstract. */
export const SEARCH_TEXT_FUNCTION = 'quire_search_text';
/** The function the triggers call for `papers.authors` (JSON). */
export const SEARCH_AUTHORS_FUNCTION = 'quire_search_authors';

/** The FTS5 table's columns, in `SEARCH_FIELDS` order: bm25 weights are given by position. */
export const SEARCH_COLUMNS = ['title', 'authors', 'abstract'] as const;

if (SEARCH_COLUMNS.join() !== SEARCH_FIELDS.join()) {
  throw new Error(`The search table's columns (${SEARCH_COLUMNS.join()}) must follow SEARCH_FIELDS.`);
}

const COLUMNS = SEARCH_COLUMNS.join(', ');
const TERMS_OF_PAPER = `${SEARCH_TEXT_FUNCTION}(p.title), ${SEARCH_AUTHORS_FUNCTION}(p.authors), ${SEARCH_TEXT_FUNCTION}(p.abstract)`;

/**
 * The migration step. The triggers do not write the FTS5 table themselves: FTS5 flushes its pending
 * terms at every savepoint, and SQLite opens one for each statement that fires a trigger, so writing it
 * per paper made an import three times slower. They queue the paper in `search_pending` instead (pure
 * SQL, cheap) and `PaperStore` writes the whole queue with one statement (`INDEX_PENDING`) at the end of
 * each batch, in the batch's transaction: what is committed is always indexed.
 *
 * `indexed` says the queued paper already has terms in the table, which go first. Trigger inserts are
 * upserts, not OR IGNORE/REPLACE, so an outer INSERT OR REPLACE cannot change what they do.
 */
export const CREATE_SEARCH_INDEX = `
CREATE TABLE search_docs (
  doc          INTEGER PRIMARY KEY,  -- the paper's rowid in paper_search
  paper_id     TEXT NOT NULL UNIQUE,
  listing_date TEXT                  -- papers.listing_date, for date filters over many matches
);
CREATE INDEX search_docs_listing ON search_docs (listing_date, paper_id);

CREATE TABLE search_pending (
  doc     INTEGER PRIMARY KEY,
  indexed INTEGER NOT NULL CHECK (indexed IN (0, 1))
);

CREATE VIRTUAL TABLE paper_search USING fts5 (
  ${COLUMNS},
  content = '', contentless_delete = 1, tokenize = 'ascii'
);
-- One row per indexed term with the number of papers holding it: typo correction and related papers.
CREATE VIRTUAL TABLE paper_search_vocab USING fts5vocab (paper_search, 'row');
-- The same per column: ranking.
CREATE VIRTUAL TABLE paper_search_columns USING fts5vocab (paper_search, 'col');

CREATE TRIGGER papers_search_insert AFTER INSERT ON papers BEGIN
  -- A row put back by INSERT OR REPLACE keeps its doc, and its old terms are replaced.
  INSERT INTO search_pending (doc, indexed) SELECT doc, 1 FROM search_docs WHERE paper_id = NEW.id
  ON CONFLICT (doc) DO NOTHING;
  INSERT INTO search_docs (paper_id, listing_date) VALUES (NEW.id, NEW.listing_date)
  ON CONFLICT (paper_id) DO UPDATE SET listing_date = excluded.listing_date;
  INSERT INTO search_pending (doc, indexed) SELECT doc, 0 FROM search_docs WHERE paper_id = NEW.id
  ON CONFLICT (doc) DO NOTHING;
END;

CREATE TRIGGER papers_search_update AFTER UPDATE OF title, authors, abstract ON papers
WHEN OLD.title IS NOT NEW.title OR OLD.authors IS NOT NEW.authors OR OLD.abstract IS NOT NEW.abstract BEGIN
  INSERT INTO search_pending (doc, indexed) SELECT doc, 1 FROM search_docs WHERE paper_id = NEW.id
  ON CONFLICT (doc) DO NOTHING;
END;

CREATE TRIGGER papers_search_redate AFTER UPDATE OF listing_date ON papers
WHEN OLD.listing_date IS NOT NEW.listing_date BEGIN
  UPDATE search_docs SET listing_date = NEW.listing_date WHERE paper_id = NEW.id;
END;

CREATE TRIGGER papers_search_delete AFTER DELETE ON papers BEGIN
  DELETE FROM paper_search WHERE rowid IN (
    SELECT d.doc FROM search_docs d WHERE d.paper_id = OLD.id
      AND NOT EXISTS (SELECT 1 FROM search_pending q WHERE q.doc = d.doc AND q.indexed = 0));
  DELETE FROM search_pending WHERE doc IN (SELECT doc FROM search_docs WHERE paper_id = OLD.id);
  DELETE FROM search_docs WHERE paper_id = OLD.id;
END;

INSERT INTO search_docs (paper_id, listing_date) SELECT id, listing_date FROM papers ORDER BY id;
INSERT INTO paper_search (rowid, ${COLUMNS})
SELECT d.doc, ${TERMS_OF_PAPER} FROM search_docs d JOIN papers p ON p.id = d.paper_id;
`;

/** Writes the queued papers' terms, replacing old ones: three statements, run in order in one transaction. */
export const INDEX_PENDING = [
  `DELETE FROM paper_search WHERE rowid IN (SELECT doc FROM search_pending WHERE indexed = 1)`,
  `INSERT INTO paper_search (rowid, ${COLUMNS})
   SELECT q.doc, ${TERMS_OF_PAPER}
   FROM search_pending q JOIN search_docs d ON d.doc = q.doc JOIN papers p ON p.id = d.paper_id`,
  `DELETE FROM search_pending`,
] as const;

/** A title's or abstract's index terms, space-separated. */
export function searchText(text: string): string {
  return columnTerms(text).join(' ');
}

/** The authors column's terms from `papers.authors` (JSON), space-separated. */
export function searchAuthors(authorsJson: string): string {
  const authors = JSON.parse(authorsJson) as Author[];
  return columnTerms(authors.map((a) => a.name).join(AUTHOR_SEPARATOR), 'authors').join(' ');
}

/**
 * Index terms worked out ahead of a batch (an import computes them in its parse thread, beside the
 * writes), keyed by the exact text the SQL functions are called with: a title or an abstract, and
 * `papers.authors` as stored (JSON). The functions answer from here and compute what is not here, so the
 * index is the same either way; it only moves the work off the writing thread.
 */
export interface KnownTerms {
  text: Map<string, string>;
  authors: Map<string, string>;
}

export function emptyKnownTerms(): KnownTerms {
  return { text: new Map(), authors: new Map() };
}

/** The terms of one paper's three columns, as `searchText` and `searchAuthors` give them. */
export interface PaperTerms {
  title: string;
  authors: string;
  abstract: string;
}

/** `paper`'s terms; `authorsJson` is `papers.authors` as the store writes it (JSON of the authors). */
export function paperTerms(paper: { title: string; abstract: string }, authorsJson: string): PaperTerms {
  return {
    title: searchText(paper.title),
    authors: searchAuthors(authorsJson),
    abstract: searchText(paper.abstract),
  };
}

/** Adds a paper's terms, computed by `paperTerms` from the same texts, to `known`. */
export function addKnownTerms(
  known: KnownTerms,
  paper: { title: string; abstract: string },
  authorsJson: string,
  terms: PaperTerms,
): void {
  known.text.set(paper.title, terms.title);
  known.text.set(paper.abstract, terms.abstract);
  known.authors.set(authorsJson, terms.authors);
}

// The terms the batch being indexed on a connection came with, for the functions that connection runs.
const knownOn = new WeakMap<Database, KnownTerms>();

/**
 * Registers the functions the search index is written with. Every connection that writes papers needs them;
 * `migrate` registers them, and every writing connection is opened through it.
 */
export function registerSearchFunctions(db: Database): void {
  db.function(SEARCH_TEXT_FUNCTION, { deterministic: true }, (text: unknown) =>
    typeof text === 'string' ? (knownOn.get(db)?.text.get(text) ?? searchText(text)) : '',
  );
  db.function(SEARCH_AUTHORS_FUNCTION, { deterministic: true }, (json: unknown) =>
    typeof json === 'string' ? (knownOn.get(db)?.authors.get(json) ?? searchAuthors(json)) : '',
  );
}

/** Indexes the papers the triggers queued; `PaperStore` calls it before each batch of papers commits. */
export class SearchIndexWriter {
  readonly #db: Database;
  readonly #statements: Statement[];

  constructor(db: Database) {
    this.#db = db;
    this.#statements = INDEX_PENDING.map((sql) => db.prepare(sql));
  }

  /** `known`: terms computed ahead for (some of) the queued papers; the rest are computed here. */
  indexPending(known?: KnownTerms): void {
    if (known) knownOn.set(this.#db, known);
    try {
      for (const statement of this.#statements) statement.run();
    } finally {
      knownOn.delete(this.#db);
    }
  }
}
