import type { Taxonomy } from '@quire/core';
import type { Database, Statement } from 'better-sqlite3';

/** SQL the search index is built and kept up to date from. */

const DOC_COLUMNS = `id, title, abstract, authors, categories, primary_category, listing_date, updated_at`;
// Keyset slices in id order, so a background build reads a slice per turn of the event loop without
// holding a statement open across turns (better-sqlite3 forbids other queries meanwhile).
const SELECT_SLICE = `SELECT ${DOC_COLUMNS} FROM papers WHERE id > ? ORDER BY id LIMIT ?`;
const SELECT_SLICE_TAGS = `SELECT paper_id, topic FROM paper_tags WHERE paper_id > ? AND paper_id <= ?`;
const SELECT_SINCE = `SELECT ${DOC_COLUMNS} FROM papers WHERE updated_at >= ?`;
const SELECT_TAGS_SINCE = `
SELECT t.paper_id, t.topic FROM paper_tags t JOIN papers p ON p.id = t.paper_id WHERE p.updated_at >= ?`;
const SELECT_PAGE = `SELECT id, title, abstract, authors FROM papers WHERE id IN (SELECT value FROM json_each(?))`;
const SELECT_PHRASE_ROW = `SELECT id, title, abstract, authors FROM papers WHERE id = ?`;
const MAX_UPDATED = `SELECT COALESCE(MAX(updated_at), '') FROM papers`;

export interface DocRow {
  id: string;
  title: string;
  abstract: string;
  authors: string;
  categories: string;
  primary_category: string;
  listing_date: string | null;
  updated_at: string;
}

export interface TextRow {
  id: string;
  title: string;
  abstract: string;
  authors: string;
}

interface TagRow {
  paper_id: string;
  topic: string;
}

export class SearchSource {
  readonly #slice: Statement<[string, number], DocRow>;
  readonly #sliceTags: Statement<[string, string], TagRow>;
  readonly #since: Statement<[string], DocRow>;
  readonly #tagsSince: Statement<[string], TagRow>;
  readonly #page: Statement<[string], TextRow>;
  readonly #phraseRow: Statement<[string], TextRow>;
  readonly #maxUpdated: Statement<[], string>;
  readonly #dataVersion: Statement<[], number>;

  constructor(db: Database) {
    this.#slice = db.prepare(SELECT_SLICE);
    this.#sliceTags = db.prepare(SELECT_SLICE_TAGS);
    this.#since = db.prepare(SELECT_SINCE);
    this.#tagsSince = db.prepare(SELECT_TAGS_SINCE);
    this.#page = db.prepare(SELECT_PAGE);
    this.#phraseRow = db.prepare(SELECT_PHRASE_ROW);
    this.#maxUpdated = db.prepare<[], string>(MAX_UPDATED).pluck();
    this.#dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
  }

  /** Changes when another connection commits; this connection's own writes do not change it. */
  dataVersion(): number {
    return this.#dataVersion.get() ?? 0;
  }

  maxUpdatedAt(): string {
    return this.#maxUpdated.get() ?? '';
  }

  /** Up to `limit` papers after `afterId` in id order, with their tags. */
  slice(afterId: string, limit: number, taxonomy: Taxonomy): { rows: DocRow[]; tags: Map<string, string[]> } {
    const rows = this.#slice.all(afterId, limit);
    const last = rows.at(-1)?.id;
    const tags =
      last === undefined
        ? new Map<string, string[]>()
        : withAncestors(this.#sliceTags.all(afterId, last), taxonomy);
    return { rows, tags };
  }

  rowsSince(updatedAt: string): DocRow[] {
    return this.#since.all(updatedAt);
  }

  tagsSince(updatedAt: string, taxonomy: Taxonomy): Map<string, string[]> {
    return withAncestors(this.#tagsSince.all(updatedAt), taxonomy);
  }

  /** The text of a page of results, which the index does not keep. */
  pageRows(ids: readonly string[]): Map<string, TextRow> {
    if (ids.length === 0) return new Map();
    return new Map(this.#page.all(JSON.stringify(ids)).map((r) => [r.id, r]));
  }

  textRow(id: string): TextRow | undefined {
    return this.#phraseRow.get(id);
  }
}

/**
 * Each paper's tags with the broader topics they imply (stored tags are the narrow ones), so a `topic:`
 * filter finds papers tagged with any narrower topic. Tags of topics no longer in the taxonomy are dropped.
 */
function withAncestors(rows: readonly TagRow[], taxonomy: Taxonomy): Map<string, string[]> {
  const byPaper = new Map<string, Set<string>>();
  for (const { paper_id: id, topic } of rows) {
    if (!taxonomy.bySlug.has(topic)) continue;
    let set = byPaper.get(id);
    if (!set) byPaper.set(id, (set = new Set()));
    set.add(topic);
    for (const ancestor of taxonomy.ancestors.get(topic) ?? []) set.add(ancestor);
  }
  return new Map([...byPaper].map(([id, set]) => [id, [...set]]));
}
