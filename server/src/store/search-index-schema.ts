import { AUTHOR_SEPARATOR, columnTerms, SEARCH_FIELDS, type Author, type PaperEntity } from '@quire/core';
import type { Database, Statement } from 'better-sqlite3';
import { RowWriter } from './row-writer.ts';
import {
  DELETE_TITLE_TERMS,
  INDEX_PENDING_TITLES,
  INSERT_TITLE_TERMS,
  OPTIMIZE_TITLES,
  TITLE_ROW_PARAMS,
} from './search-titles.ts';

/**
 * The on-disk search index: an FTS5 table over each paper's title, authors and abstract, kept up to date
 * in the transaction of every write of papers (see CREATE_SEARCH_INDEX), so it is never rebuilt.
 *
 * FTS5 cannot run core's tokenizer (LaTeX dropped, accents and plurals folded, hyphenated words indexed
 * as their parts and joined, whole-name author keys), so the index stores core's terms, computed in
 * JavaScript (by the paper store as it writes, or by two SQL functions every writing connection
 * registers: `registerSearchFunctions`, called by `migrate`), and the table splits them on spaces only (the `ascii` tokenizer: our terms hold no ASCII punctuation). The
 * table is contentless (it keeps no copy of the text; results are read from `papers`), with deletes
 * allowed so an updated paper's old terms can go.
 *
 * FTS5 rowids are their own numbers (`search_docs.doc`, an INTEGER PRIMARY KEY, which VACUUM keeps), not
 * `papers`' implicit rowid, which VACUUM may renumber. `search_docs` also keeps the listing date, so a
 * date filter over many matches reads this small table rather than the paper rows.
 *
 * Papers' text is written only by `PaperStore`, which indexes what it queued before each batch commits,
 * from the papers it wrote, so no text goes from SQLite back to JavaScript. An import hands it the terms
 * its parse thread computed (`KnownTerms`). A paper changed by other means (the sqlite3 shell) stays
 * queued until the next batch indexes it, through the functions.
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
 * SQL, cheap) and `PaperStore` writes the whole queue in a few statements (`SearchIndexWriter`) at the end
 * of each batch, in the batch's transaction: what is committed is always indexed.
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

/**
 * How FTS5 merges its segments, kept in its config table. Each batch's terms flush as one new segment
 * (hashsize, 16 MiB of pending terms, is above what a batch of 1,000 papers holds, so a batch no longer
 * flushes part way), and a level is merged once it holds 8 segments (FTS5's default is 4), at most 32:
 * each term is rewritten about half as often as it is imported, at the cost of a few more segments for a
 * query to read. Measured on 80,535 papers: the writing thread's CPU 13.8 s -> 10.8 s.
 */
export const SEARCH_INDEX_MERGING = `
INSERT INTO paper_search (paper_search, rank) VALUES ('hashsize', 16777216);
INSERT INTO paper_search (paper_search, rank) VALUES ('automerge', 8);
INSERT INTO paper_search (paper_search, rank) VALUES ('crisismerge', 32);
`;

/**
 * Merges every segment of the index into one (FTS5's 'optimize'), in one transaction. A bulk import leaves
 * its terms in many segments (automerge stops at 8 a level), and every query term, prefix and vocabulary
 * look-up seeks each segment; after the merge it reads one. Rewrites the whole index, so only an import
 * that wrote much of the store asks for it (see `COMPACT_FROM_SHARE`).
 */
export const OPTIMIZE_INDEX = `INSERT INTO paper_search (paper_search) VALUES ('optimize')`;

/**
 * OPTIMIZE_INDEX, and the same for the titles' own index (search-titles.ts): two statements, each its own
 * transaction unless the caller holds one (a merge interrupted between them leaves two correct indexes).
 */
export function optimizeSearchIndex(db: Database): void {
  db.prepare(OPTIMIZE_INDEX).run();
  db.prepare(OPTIMIZE_TITLES).run();
}

/** Papers ever indexed (docs are never reused downwards): one index seek. */
export const INDEXED_DOCS = `SELECT COALESCE(MAX(doc), 0) FROM search_docs`;

/**
 * The least share of the indexed papers an import must have written for its end to merge the index's
 * segments: the merge rewrites the whole index, so an import of a few papers into a large store must not.
 */
export const COMPACT_FROM_SHARE = 0.5;

/**
 * Writes the queued papers' terms, replacing old ones (the titles' own index's too): statements run in
 * order in one transaction. What a batch of `PaperStore` leaves queued besides its own papers (a row
 * changed by other means).
 */
export const INDEX_PENDING = [
  `DELETE FROM paper_search WHERE rowid IN (SELECT doc FROM search_pending WHERE indexed = 1)`,
  `INSERT INTO paper_search (rowid, ${COLUMNS})
   SELECT q.doc, ${TERMS_OF_PAPER}
   FROM search_pending q JOIN search_docs d ON d.doc = q.doc JOIN papers p ON p.id = d.paper_id`,
  ...INDEX_PENDING_TITLES,
  `DELETE FROM search_pending`,
] as const;

/** The queue, in doc order: FTS5 takes rows in rowid order without flushing between them. */
export const PENDING_DOCS = `
SELECT q.doc, q.indexed, d.paper_id AS paperId
FROM search_pending q JOIN search_docs d ON d.doc = q.doc ORDER BY q.doc`;

/** Old terms of docs about to be indexed again (a JSON array of docs). */
export const DELETE_TERMS = `DELETE FROM paper_search WHERE rowid IN (SELECT value FROM json_each(?))`;

/** Values each row of `INSERT_TERMS` binds: doc, then the terms of each column. */
export const TERMS_ROW_PARAMS = 1 + SEARCH_COLUMNS.length;

/** `rows` docs' terms in one statement. */
export const INSERT_TERMS = (rows: number): string =>
  `INSERT INTO paper_search (rowid, ${COLUMNS}) VALUES ${Array.from({ length: rows }, () => '(?, ?, ?, ?)').join(', ')}`;

/** Docs indexed from their terms in hand (a JSON array of docs), leaving the rest queued. */
export const DONE_PENDING = `DELETE FROM search_pending WHERE doc IN (SELECT value FROM json_each(?))`;

export const CLEAR_PENDING = `DELETE FROM search_pending`;

/** A title's or abstract's index terms, space-separated. */
export function searchText(text: string): string {
  return columnTerms(text).join(' ');
}

/** The authors column's terms, space-separated. */
export function authorTerms(authors: readonly Pick<Author, 'name'>[]): string {
  return columnTerms(authors.map((a) => a.name).join(AUTHOR_SEPARATOR), 'authors').join(' ');
}

/** The authors column's terms from `papers.authors` (JSON), as `authorTerms` gives them. */
export function searchAuthors(authorsJson: string): string {
  return authorTerms(JSON.parse(authorsJson) as Author[]);
}

/** The terms of one paper's three columns, as `searchText` and `authorTerms` give them. */
export interface PaperTerms {
  title: string;
  authors: string;
  abstract: string;
}

/** The texts a paper's terms are computed from. */
export interface TermsSource {
  title: string;
  abstract: string;
  authors: readonly Pick<Author, 'name'>[];
}

export function paperTerms(paper: TermsSource): PaperTerms {
  return {
    title: searchText(paper.title),
    authors: authorTerms(paper.authors),
    abstract: searchText(paper.abstract),
  };
}

/**
 * Index terms worked out ahead of a batch (an import computes them in its parse thread, beside the
 * writes), by paper id, with the paper they were computed from. They are used for a column only when the
 * paper as stored has that very text (a merge may keep an older title, say); otherwise the writer
 * computes the column's terms, so the index is the same either way.
 */
export type KnownTerms = Map<string, { from: TermsSource; terms: PaperTerms }>;

/** `paper`'s terms, from `known` for each column whose text is the one they were computed from. */
export function termsOf(paper: TermsSource, known?: { from: TermsSource; terms: PaperTerms }): PaperTerms {
  if (!known) return paperTerms(paper);
  const { from, terms } = known;
  return {
    title: from.title === paper.title ? terms.title : searchText(paper.title),
    authors: sameNames(from.authors, paper.authors) ? terms.authors : authorTerms(paper.authors),
    abstract: from.abstract === paper.abstract ? terms.abstract : searchText(paper.abstract),
  };
}

function sameNames(a: TermsSource['authors'], b: TermsSource['authors']): boolean {
  return a === b || (a.length === b.length && a.every((author, i) => author.name === b[i]?.name));
}

/**
 * Registers the functions the search index is written with from SQL (`INDEX_PENDING`, the migration that
 * fills it). Every connection that writes papers needs them; `migrate` registers them, and every writing
 * connection is opened through it.
 */
export function registerSearchFunctions(db: Database): void {
  db.function(SEARCH_TEXT_FUNCTION, { deterministic: true }, (text: unknown) =>
    typeof text === 'string' ? searchText(text) : '',
  );
  db.function(SEARCH_AUTHORS_FUNCTION, { deterministic: true }, (json: unknown) =>
    typeof json === 'string' ? searchAuthors(json) : '',
  );
}

interface PendingDoc {
  doc: number;
  indexed: number;
  paperId: string;
}

/** Indexes the papers the triggers queued; `PaperStore` calls it before each batch of papers commits. */
export class SearchIndexWriter {
  readonly #pending: Statement<[], PendingDoc>;
  readonly #deleteTerms: Statement<[string], unknown>;
  readonly #insertTerms: RowWriter;
  readonly #deleteTitles: Statement<[string], unknown>;
  readonly #insertTitles: RowWriter;
  readonly #done: Statement<[string], unknown>;
  readonly #clear: Statement<[], unknown>;
  readonly #fromSql: Statement[];

  constructor(db: Database) {
    this.#pending = db.prepare(PENDING_DOCS);
    this.#deleteTerms = db.prepare(DELETE_TERMS);
    this.#insertTerms = new RowWriter(db, INSERT_TERMS, TERMS_ROW_PARAMS, { whole: true });
    this.#deleteTitles = db.prepare(DELETE_TITLE_TERMS);
    this.#insertTitles = new RowWriter(db, INSERT_TITLE_TERMS, TITLE_ROW_PARAMS, { whole: true });
    this.#done = db.prepare(DONE_PENDING);
    this.#clear = db.prepare(CLEAR_PENDING);
    this.#fromSql = INDEX_PENDING.map((sql) => db.prepare(sql));
  }

  /**
   * Indexes the queue: the papers of `written` (as stored by this batch) from their texts in hand, with
   * `known` terms where they apply, in a few statements; anything else queued through SQL.
   */
  indexPending(written: readonly PaperEntity[], known?: KnownTerms): void {
    const queue = this.#pending.all();
    if (queue.length === 0) return;
    const byId = new Map(written.map((paper) => [paper.id, paper]));
    const stale: number[] = [];
    const done: number[] = [];
    const rows: unknown[][] = [];
    const titles: unknown[][] = [];
    for (const { doc, indexed, paperId } of queue) {
      const paper = byId.get(paperId);
      if (!paper) continue;
      if (indexed === 1) stale.push(doc);
      const terms = termsOf(paper, known?.get(paperId));
      rows.push([doc, terms.title, terms.authors, terms.abstract]);
      titles.push([doc, terms.title]);
      done.push(doc);
    }
    if (stale.length > 0) {
      this.#deleteTerms.run(JSON.stringify(stale));
      this.#deleteTitles.run(JSON.stringify(stale));
    }
    this.#insertTerms.write(rows);
    this.#insertTitles.write(titles);
    if (done.length === queue.length) {
      this.#clear.run();
      return;
    }
    this.#done.run(JSON.stringify(done));
    for (const statement of this.#fromSql) statement.run();
  }
}
