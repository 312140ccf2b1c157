import type { PaperEntity } from '@quire/core';

/** SQL for the papers tables, kept apart from the store logic so the queries read as one list. */

const PAPER_COLUMNS = `id, title, abstract, authors, categories, primary_category, versions, listing_date,
  listing_date_estimated, submitted_v1, comment, doi, journal_ref, license, links, code_links, updated_at`;

export const SELECT_PAPER = `SELECT ${PAPER_COLUMNS} FROM papers WHERE id = ?`;

export const HAS_PAPER = `SELECT 1 FROM papers WHERE id = ?`;

export const UPSERT_PAPER = `
INSERT INTO papers (${PAPER_COLUMNS})
VALUES (@id, @title, @abstract, @authors, @categories, @primary_category, @versions, @listing_date,
  @listing_date_estimated, @submitted_v1, @comment, @doi, @journal_ref, @license, @links, @code_links, @updated_at)
ON CONFLICT (id) DO UPDATE SET
  title = excluded.title,
  abstract = excluded.abstract,
  authors = excluded.authors,
  categories = excluded.categories,
  primary_category = excluded.primary_category,
  versions = excluded.versions,
  listing_date = excluded.listing_date,
  listing_date_estimated = excluded.listing_date_estimated,
  submitted_v1 = excluded.submitted_v1,
  comment = excluded.comment,
  doi = excluded.doi,
  journal_ref = excluded.journal_ref,
  license = excluded.license,
  links = excluded.links,
  code_links = excluded.code_links,
  updated_at = excluded.updated_at,
  tags_stale = 1`;

export const DELETE_PAPER_CATEGORIES = `DELETE FROM paper_categories WHERE paper_id = ?`;

export const INSERT_PAPER_CATEGORY = `INSERT OR IGNORE INTO paper_categories (paper_id, category) VALUES (?, ?)`;

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
