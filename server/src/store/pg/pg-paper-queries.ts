import { PAPER_COLUMN_LIST } from '../paper-queries.ts';

/*
 * SQL for the papers tables on PostgreSQL. The columns and their text encodings are SQLite's
 * (paper-queries.ts): JSON in text columns, dates as ISO strings, the estimated flag as 0/1, so one row
 * reader (rowToPaper) serves both engines and `quire migrate` copies rows as they are. Ids, slugs and dates
 * are COLLATE "C": they sort by code point as SQLite's binary collation sorts them, whatever the database's
 * locale, and keyset pages ("id > $1 ORDER BY id") use the primary key's index.
 */

export const CREATE_PAPERS = `
CREATE TABLE papers (
  id                     text COLLATE "C" PRIMARY KEY,
  title                  text NOT NULL,
  abstract               text NOT NULL,
  authors                text NOT NULL,  -- JSON: Author[]
  categories             text NOT NULL,  -- JSON: string[], primary first
  primary_category       text COLLATE "C" NOT NULL,
  versions               text NOT NULL,  -- JSON: PaperVersion[]
  listing_date           text COLLATE "C",  -- YYYY-MM-DD
  listing_date_estimated smallint NOT NULL DEFAULT 0 CHECK (listing_date_estimated IN (0, 1)),
  submitted_v1           text,
  comment                text,
  doi                    text,
  journal_ref            text,
  license                text,
  links                  text NOT NULL,  -- JSON: PaperLinks
  code_links             text NOT NULL,  -- JSON: string[]
  updated_at             text NOT NULL   -- ISO timestamp of the last write
);
CREATE INDEX papers_primary_category ON papers (primary_category);
CREATE INDEX papers_listing_date ON papers (listing_date, id);

CREATE TABLE paper_categories (
  paper_id text COLLATE "C" NOT NULL REFERENCES papers (id) ON DELETE CASCADE,
  category text COLLATE "C" NOT NULL,
  PRIMARY KEY (paper_id, category)
);
CREATE INDEX paper_categories_category ON paper_categories (category, paper_id);
`;

const COLUMNS = PAPER_COLUMN_LIST.join(', ');

// Papers are written by one node at a time (the elected harvester, or an import), but two writers merging
// the same new id at once would each miss the other's record: a transaction-wide lock makes writers queue,
// and readers never wait on it.
export const LOCK_PAPER_WRITES = `SELECT pg_advisory_xact_lock(hashtextextended('quire:paper-writes', 0))`;

export const SELECT_PAPERS_BY_IDS = `SELECT ${COLUMNS} FROM papers WHERE id = ANY($1::text[])`;

/**
 * Many papers in one statement: each column a parallel array (bind `paperColumns` of the batch), so a
 * batch is one round trip whatever its size.
 */
export const UPSERT_PAPERS = `
INSERT INTO papers (${COLUMNS})
SELECT * FROM unnest(${PAPER_COLUMN_LIST.map((c, i) => `$${i + 1}::${c === 'listing_date_estimated' ? 'smallint' : 'text'}[]`).join(', ')})
ON CONFLICT (id) DO UPDATE SET
  ${PAPER_COLUMN_LIST.slice(1)
    .map((c) => `${c} = excluded.${c}`)
    .join(',\n  ')}`;

export const DELETE_PAPER_CATEGORIES = `DELETE FROM paper_categories WHERE paper_id = ANY($1::text[])`;

export const INSERT_PAPER_CATEGORIES = `
INSERT INTO paper_categories (paper_id, category)
SELECT * FROM unnest($1::text[], $2::text[]) ON CONFLICT DO NOTHING`;

export const SELECT_PAPER = `SELECT ${COLUMNS} FROM papers WHERE id = $1`;
export const HAS_PAPER = `SELECT 1 FROM papers WHERE id = $1`;
export const COUNT_PAPERS = `SELECT count(*)::integer AS n FROM papers`;
export const SELECT_IDS = `SELECT id FROM papers ORDER BY id`;
export const SELECT_IDS_IN_CATEGORY = `
SELECT paper_id AS id FROM paper_categories WHERE category = $1 ORDER BY paper_id`;
export const COUNT_BY_PRIMARY_CATEGORY = `
SELECT primary_category AS category, count(*)::integer AS n FROM papers
GROUP BY primary_category ORDER BY n DESC, primary_category`;
export const LISTING_RANGE = `SELECT min(listing_date) AS first, max(listing_date) AS last FROM papers`;
export const COUNT_BY_LISTING_DAY = `
SELECT listing_date AS day, count(*)::integer AS n FROM papers
WHERE listing_date IS NOT NULL GROUP BY listing_date ORDER BY listing_date`;
export const SELECT_BY_LISTING_DATE = `
SELECT ${COLUMNS} FROM papers
WHERE listing_date BETWEEN $1 AND $2 ORDER BY listing_date DESC, id DESC`;
