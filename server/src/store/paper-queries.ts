import type { PaperEntity } from '@quire/core';

/** SQL for the papers tables, kept apart from the store logic so the queries read as one list. */

/** `papers`' columns in the order `paperRowValues` gives them. */
export const PAPER_COLUMN_LIST = [
  'id',
  'title',
  'abstract',
  'authors',
  'categories',
  'primary_category',
  'versions',
  'listing_date',
  'listing_date_estimated',
  'submitted_v1',
  'comment',
  'doi',
  'journal_ref',
  'license',
  'links',
  'code_links',
  'updated_at',
] as const;

const PAPER_COLUMNS = PAPER_COLUMN_LIST.join(', ');

export const SELECT_PAPER = `SELECT ${PAPER_COLUMNS} FROM papers WHERE id = ?`;

export const HAS_PAPER = `SELECT 1 FROM papers WHERE id = ?`;

/** Values each row of `UPSERT_PAPERS` binds. */
export const PAPER_ROW_PARAMS = PAPER_COLUMN_LIST.length;

/**
 * `rows` papers in one statement (bind `paperRowValues` of each, in order). One statement, not one per
 * paper: inside a transaction SQLite keeps a statement journal for every statement that fires triggers,
 * holding each page the statement touches before it changes it, so one statement per paper copied the
 * same ten or so pages (the tables' and indexes' open leaves) out again for every paper: 46 MiB of
 * journal per 1,000 papers, most of an import's system time.
 */
export const UPSERT_PAPERS = (rows: number): string => `
INSERT INTO papers (${PAPER_COLUMNS})
VALUES ${Array.from({ length: rows }, () => `(${PAPER_COLUMN_LIST.map(() => '?').join(', ')})`).join(',\n  ')}
ON CONFLICT (id) DO UPDATE SET
  ${PAPER_COLUMN_LIST.slice(1)
    .map((c) => `${c} = excluded.${c}`)
    .join(',\n  ')}`;

export const DELETE_PAPER_CATEGORIES = `DELETE FROM paper_categories WHERE paper_id = ?`;

/** Values each row of `INSERT_PAPER_CATEGORIES` binds: paper id, category. */
export const CATEGORY_ROW_PARAMS = 2;

/** `rows` (paper, category) pairs in one statement, for the reason `UPSERT_PAPERS` gives. */
export const INSERT_PAPER_CATEGORIES = (rows: number): string =>
  `INSERT OR IGNORE INTO paper_categories (paper_id, category) VALUES ${Array.from({ length: rows }, () => '(?, ?)').join(', ')}`;

export const COUNT_PAPERS = `SELECT COUNT(*) FROM papers`;

export const SELECT_IDS = `SELECT id FROM papers ORDER BY id`;

export const COUNT_BY_PRIMARY_CATEGORY = `
SELECT primary_category AS category, COUNT(*) AS n FROM papers
GROUP BY primary_category ORDER BY n DESC, category`;

export const LISTING_RANGE = `SELECT MIN(listing_date) AS first, MAX(listing_date) AS last FROM papers`;

export const COUNT_BY_LISTING_DAY = `
SELECT listing_date AS day, COUNT(*) AS n FROM papers
WHERE listing_date IS NOT NULL GROUP BY listing_date ORDER BY listing_date`;

export const SELECT_BY_LISTING_DATE = `
SELECT ${PAPER_COLUMNS} FROM papers
WHERE listing_date BETWEEN ? AND ? ORDER BY listing_date DESC, id DESC`;

export const SELECT_IDS_IN_CATEGORY = `SELECT paper_id FROM paper_categories WHERE category = ? ORDER BY paper_id`;

/** A `papers` row as SQLite returns it. */
export interface PaperRow {
  id: string;
  title: string;
  abstract: string;
  authors: string;
  categories: string;
  primary_category: string;
  versions: string;
  listing_date: string | null;
  listing_date_estimated: number;
  submitted_v1: string | null;
  comment: string | null;
  doi: string | null;
  journal_ref: string | null;
  license: string | null;
  links: string;
  code_links: string;
  updated_at: string;
}

/** `papers.authors` of a paper: the text the search index's authors terms are computed from. */
export function authorsColumn(authors: PaperEntity['authors']): string {
  return JSON.stringify(authors);
}

/** A paper's `papers` row as the values `UPSERT_PAPERS` binds, in column order. */
export function paperRowValues(paper: PaperEntity, updatedAt: string): unknown[] {
  const row = paperToRow(paper, updatedAt);
  return PAPER_COLUMN_LIST.map((column) => row[column]);
}

export function paperToRow(paper: PaperEntity, updatedAt: string): PaperRow {
  return {
    id: paper.id,
    title: paper.title,
    abstract: paper.abstract,
    authors: authorsColumn(paper.authors),
    categories: JSON.stringify(paper.categories),
    primary_category: paper.primaryCategory,
    versions: JSON.stringify(paper.versions),
    listing_date: paper.listingDate,
    listing_date_estimated: paper.listingDateEstimated ? 1 : 0,
    submitted_v1: paper.submittedV1,
    comment: paper.comment,
    doi: paper.doi,
    journal_ref: paper.journalRef,
    license: paper.license,
    links: JSON.stringify(paper.links),
    code_links: JSON.stringify(paper.codeLinks),
    updated_at: updatedAt,
  };
}

export function rowToPaper(row: PaperRow): PaperEntity {
  return {
    id: row.id,
    title: row.title,
    abstract: row.abstract,
    authors: JSON.parse(row.authors) as PaperEntity['authors'],
    categories: JSON.parse(row.categories) as string[],
    primaryCategory: row.primary_category,
    versions: JSON.parse(row.versions) as PaperEntity['versions'],
    listingDate: row.listing_date,
    listingDateEstimated: row.listing_date_estimated === 1,
    submittedV1: row.submitted_v1,
    comment: row.comment,
    doi: row.doi,
    journalRef: row.journal_ref,
    license: row.license,
    links: JSON.parse(row.links) as PaperEntity['links'],
    codeLinks: JSON.parse(row.code_links) as string[],
  };
}
