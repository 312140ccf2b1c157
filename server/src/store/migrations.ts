import type { Database } from 'better-sqlite3';
import { QuireError, errorMessage } from '../errors.ts';
import { CREATE_CALENDAR_FEEDS } from './calendar-feeds.ts';
import { CREATE_SEARCH_DOC_BITS } from './search-doc-bits.ts';
import { CREATE_SEARCH_TERM_COUNTS } from './search-term-counts.ts';
import { CREATE_TITLES_INDEX } from './search-titles.ts';
import { CREATE_SEARCH_INDEX, SEARCH_INDEX_MERGING, registerSearchFunctions } from './search-index-schema.ts';
import { CREATE_PAPERS_TO_TAG } from './tag-store.ts';
import { DERIVED_IN_BULK } from './new-paper-tags.ts';

/**
 * Schema history. The database's `PRAGMA user_version` is the number of steps already applied, so a step's
 * position in this array is its version: append new steps, never edit or reorder shipped ones.
 */
export interface Migration {
  name: string;
  sql: string;
}

const CREATE_PAPERS = `
CREATE TABLE papers (
  id                     TEXT PRIMARY KEY NOT NULL,
  title                  TEXT NOT NULL,
  abstract               TEXT NOT NULL,
  authors                TEXT NOT NULL,  -- JSON: Author[]
  categories             TEXT NOT NULL,  -- JSON: string[], primary first
  primary_category       TEXT NOT NULL,
  versions               TEXT NOT NULL,  -- JSON: PaperVersion[]
  listing_date           TEXT,           -- YYYY-MM-DD
  listing_date_estimated INTEGER NOT NULL DEFAULT 0 CHECK (listing_date_estimated IN (0, 1)),
  submitted_v1           TEXT,
  comment                TEXT,
  doi                    TEXT,
  journal_ref            TEXT,
  license                TEXT,
  links                  TEXT NOT NULL,  -- JSON: PaperLinks
  code_links             TEXT NOT NULL,  -- JSON: string[]
  updated_at             TEXT NOT NULL   -- ISO timestamp of the last write
);
CREATE INDEX papers_primary_category ON papers (primary_category);
CREATE INDEX papers_listing_date ON papers (listing_date);

-- One row per (paper, category) so topic work can ask "papers in cs.LG" through an index.
CREATE TABLE paper_categories (
  paper_id TEXT NOT NULL REFERENCES papers (id) ON DELETE CASCADE,
  category TEXT NOT NULL,
  PRIMARY KEY (category, paper_id)
) WITHOUT ROWID;
CREATE INDEX paper_categories_paper ON paper_categories (paper_id);
`;

const CREATE_HARVEST_STATE = `
CREATE TABLE harvest_checkpoints (
  key        TEXT PRIMARY KEY NOT NULL,  -- e.g. "oai:cs:arXiv"
  value      TEXT NOT NULL,              -- JSON chosen by the harvester
  updated_at TEXT NOT NULL
);

CREATE TABLE ingest_log (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  kind        TEXT NOT NULL CHECK (kind IN ('import', 'harvest', 'fetch')),
  source      TEXT NOT NULL,
  started_at  TEXT NOT NULL,
  finished_at TEXT NOT NULL,
  duration_ms INTEGER NOT NULL,
  inserted    INTEGER NOT NULL DEFAULT 0,
  updated     INTEGER NOT NULL DEFAULT 0,
  unchanged   INTEGER NOT NULL DEFAULT 0,
  skipped     INTEGER NOT NULL DEFAULT 0,
  errors      TEXT NOT NULL DEFAULT '[]',  -- JSON: IngestErrorNote[]
  status      TEXT NOT NULL CHECK (status IN ('ok', 'failed'))
);
CREATE INDEX ingest_log_kind_finished ON ingest_log (kind, finished_at);
`;

// Tags are stored per topic as its own definition gives them; broader topics are added when read. A paper
// whose row changes is marked stale and re-tagged; a topic whose definition hash changes is re-tagged alone.
const CREATE_TAGS = `
ALTER TABLE papers ADD COLUMN tags_stale INTEGER NOT NULL DEFAULT 1;
CREATE INDEX papers_tags_stale ON papers (id) WHERE tags_stale = 1;

CREATE TABLE paper_tags (
  topic    TEXT NOT NULL,
  paper_id TEXT NOT NULL REFERENCES papers (id) ON DELETE CASCADE,
  score    REAL NOT NULL,
  evidence TEXT NOT NULL,  -- JSON: TagEvidence[]
  PRIMARY KEY (topic, paper_id)
) WITHOUT ROWID;
CREATE INDEX paper_tags_paper ON paper_tags (paper_id);

CREATE TABLE topic_state (
  topic           TEXT PRIMARY KEY NOT NULL,
  definition_hash TEXT NOT NULL,
  tagged_at       TEXT NOT NULL
);
`;

// Group sync (server/src/sync). A group is reached only through invites; the server keeps the SHA-256 of
// each invite secret, never the secret. Revoked invites stay so a refused client can be told "revoked".
// The document of a group is its log of Yjs updates: appended before they are applied, merged into one
// row by compaction. Same file as the papers: one backup and one migration history. The hot path is one
// short INSERT on the server's own connection; only another process's write (a CLI import, in batches
// of short transactions) can make it wait, at most the busy timeout.
const CREATE_GROUP_SYNC = `
CREATE TABLE groups (
  id         TEXT PRIMARY KEY NOT NULL,
  name       TEXT NOT NULL,
  created_at TEXT NOT NULL
);

CREATE TABLE group_invites (
  id         TEXT PRIMARY KEY NOT NULL,
  group_id   TEXT NOT NULL REFERENCES groups (id) ON DELETE CASCADE,
  role       TEXT NOT NULL CHECK (role IN ('read-write', 'read-only')),
  token_hash BLOB NOT NULL UNIQUE,  -- SHA-256 of the secret in the invite link
  created_at TEXT NOT NULL,
  revoked_at TEXT
);
CREATE INDEX group_invites_group ON group_invites (group_id);

CREATE TABLE group_updates (
  id       INTEGER PRIMARY KEY,
  group_id TEXT NOT NULL REFERENCES groups (id) ON DELETE CASCADE,
  data     BLOB NOT NULL  -- one Yjs update (v1 encoding)
);
CREATE INDEX group_updates_group ON group_updates (group_id, id);
`;

// An import is logged when it starts, so one killed outright still leaves its row: 'running' with the pid
// of its process, until it ends or a later start finds that process gone and marks it 'interrupted'.
// SQLite cannot change a CHECK constraint in place, so the table is rebuilt; finished_at and duration_ms
// stay NULL for a run that never finished.
const INGEST_LOG_RUNNING = `
CREATE TABLE ingest_log_v2 (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  kind        TEXT NOT NULL CHECK (kind IN ('import', 'harvest', 'fetch')),
  source      TEXT NOT NULL,
  started_at  TEXT NOT NULL,
  finished_at TEXT,
  duration_ms INTEGER,
  inserted    INTEGER NOT NULL DEFAULT 0,
  updated     INTEGER NOT NULL DEFAULT 0,
  unchanged   INTEGER NOT NULL DEFAULT 0,
  skipped     INTEGER NOT NULL DEFAULT 0,
  errors      TEXT NOT NULL DEFAULT '[]',  -- JSON: IngestErrorNote[]
  status      TEXT NOT NULL CHECK (status IN ('ok', 'failed', 'running', 'interrupted')),
  pid         INTEGER,  -- the process of a 'running' row
  run_token   TEXT      -- tells that process from a later one given the same pid
);
INSERT INTO ingest_log_v2 (id, kind, source, started_at, finished_at, duration_ms, inserted, updated,
  unchanged, skipped, errors, status)
SELECT id, kind, source, started_at, finished_at, duration_ms, inserted, updated, unchanged, skipped, errors,
  status FROM ingest_log;
DROP TABLE ingest_log;
ALTER TABLE ingest_log_v2 RENAME TO ingest_log;
CREATE INDEX ingest_log_kind_finished ON ingest_log (kind, finished_at);
CREATE INDEX ingest_log_running ON ingest_log (id) WHERE status = 'running';
`;

// Momentum from counts, not scans. A topic's papers are its own tags plus every narrower topic's, each paper
// once: topic_closure holds the hierarchy the tags are counted with (each topic with itself and every
// broader topic, written by the re-tag from the taxonomy, which the store does not otherwise hold),
// paper_topics the closure of each paper's tags (one row per topic and paper, with the paper's listing
// date for "latest papers of a topic"), topic_day_counts and day_counts the listed papers per topic per
// listing day and over all papers. Triggers keep the derived tables exact in the transaction of every write
// that can change them: tags written or removed, the hierarchy changed, a listing date set, corrected or
// cleared. A paper without a listing date (known only from a replacement) never counts. Trigger inserts are
// upserts, not OR IGNORE: an outer INSERT OR REPLACE would turn an inner OR IGNORE into a replace that skips
// the delete triggers. Only day_counts can be built here: the topic counts fill in when the first re-tag
// records the taxonomy's hierarchy.
const TOPIC_COUNTS = `
CREATE TABLE topic_closure (
  topic   TEXT NOT NULL,  -- a topic tags can name
  broader TEXT NOT NULL,  -- that topic itself or one of its ancestors
  PRIMARY KEY (topic, broader)
) WITHOUT ROWID;

CREATE TABLE paper_topics (
  paper_id     TEXT NOT NULL,
  topic        TEXT NOT NULL,
  listing_date TEXT,  -- papers.listing_date, copied so a topic's latest papers are one index range
  PRIMARY KEY (paper_id, topic)
) WITHOUT ROWID;
CREATE INDEX paper_topics_latest ON paper_topics (topic, listing_date, paper_id);

CREATE TABLE topic_day_counts (
  topic        TEXT NOT NULL,
  listing_date TEXT NOT NULL,
  n            INTEGER NOT NULL,
  PRIMARY KEY (topic, listing_date)
) WITHOUT ROWID;

CREATE TABLE day_counts (
  listing_date TEXT PRIMARY KEY NOT NULL,
  n            INTEGER NOT NULL
) WITHOUT ROWID;

INSERT INTO day_counts (listing_date, n)
SELECT listing_date, COUNT(*) FROM papers WHERE listing_date IS NOT NULL GROUP BY listing_date;

-- All papers per listing day.
CREATE TRIGGER papers_count_insert AFTER INSERT ON papers WHEN NEW.listing_date IS NOT NULL BEGIN
  INSERT INTO day_counts (listing_date, n) VALUES (NEW.listing_date, 1)
  ON CONFLICT (listing_date) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER papers_count_redate AFTER UPDATE OF listing_date ON papers
WHEN OLD.listing_date IS NOT NEW.listing_date BEGIN
  UPDATE day_counts SET n = n - 1 WHERE listing_date = OLD.listing_date;
  DELETE FROM day_counts WHERE listing_date = OLD.listing_date AND n = 0;
  INSERT INTO day_counts (listing_date, n) SELECT NEW.listing_date, 1 WHERE NEW.listing_date IS NOT NULL
  ON CONFLICT (listing_date) DO UPDATE SET n = n + 1;
  UPDATE paper_topics SET listing_date = NEW.listing_date WHERE paper_id = NEW.id;
END;

CREATE TRIGGER papers_count_delete AFTER DELETE ON papers BEGIN
  UPDATE day_counts SET n = n - 1 WHERE listing_date = OLD.listing_date;
  DELETE FROM day_counts WHERE listing_date = OLD.listing_date AND n = 0;
  DELETE FROM paper_topics WHERE paper_id = OLD.id;
END;

-- The closure of each paper's tags. A row goes when no tag of the paper implies its topic any more.
CREATE TRIGGER paper_tags_closure_insert AFTER INSERT ON paper_tags BEGIN
  INSERT INTO paper_topics (topic, paper_id, listing_date)
  SELECT c.broader, NEW.paper_id, (SELECT listing_date FROM papers WHERE id = NEW.paper_id)
  FROM topic_closure c WHERE c.topic = NEW.topic
  ON CONFLICT DO NOTHING;
END;

CREATE TRIGGER paper_tags_closure_delete AFTER DELETE ON paper_tags BEGIN
  DELETE FROM paper_topics
  WHERE paper_id = OLD.paper_id
    AND topic IN (SELECT broader FROM topic_closure WHERE topic = OLD.topic)
    AND NOT EXISTS (
      SELECT 1 FROM paper_tags t JOIN topic_closure c ON c.topic = t.topic
      WHERE t.paper_id = OLD.paper_id AND c.broader = paper_topics.topic);
END;

CREATE TRIGGER paper_tags_closure_update AFTER UPDATE OF topic, paper_id ON paper_tags BEGIN
  DELETE FROM paper_topics
  WHERE paper_id = OLD.paper_id
    AND topic IN (SELECT broader FROM topic_closure WHERE topic = OLD.topic)
    AND NOT EXISTS (
      SELECT 1 FROM paper_tags t JOIN topic_closure c ON c.topic = t.topic
      WHERE t.paper_id = OLD.paper_id AND c.broader = paper_topics.topic);
  INSERT INTO paper_topics (topic, paper_id, listing_date)
  SELECT c.broader, NEW.paper_id, (SELECT listing_date FROM papers WHERE id = NEW.paper_id)
  FROM topic_closure c WHERE c.topic = NEW.topic
  ON CONFLICT DO NOTHING;
END;

CREATE TRIGGER topic_closure_insert AFTER INSERT ON topic_closure BEGIN
  INSERT INTO paper_topics (topic, paper_id, listing_date)
  SELECT NEW.broader, t.paper_id, p.listing_date
  FROM paper_tags t JOIN papers p ON p.id = t.paper_id WHERE t.topic = NEW.topic
  ON CONFLICT DO NOTHING;
END;

CREATE TRIGGER topic_closure_delete AFTER DELETE ON topic_closure BEGIN
  DELETE FROM paper_topics
  WHERE topic = OLD.broader
    AND paper_id IN (SELECT paper_id FROM paper_tags WHERE topic = OLD.topic)
    AND NOT EXISTS (
      SELECT 1 FROM paper_tags t JOIN topic_closure c ON c.topic = t.topic
      WHERE t.paper_id = paper_topics.paper_id AND c.broader = paper_topics.topic);
END;

-- Listed papers per topic per listing day, from the closure rows.
CREATE TRIGGER paper_topics_count_insert AFTER INSERT ON paper_topics WHEN NEW.listing_date IS NOT NULL BEGIN
  INSERT INTO topic_day_counts (topic, listing_date, n) VALUES (NEW.topic, NEW.listing_date, 1)
  ON CONFLICT (topic, listing_date) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER paper_topics_count_delete AFTER DELETE ON paper_topics WHEN OLD.listing_date IS NOT NULL BEGIN
  UPDATE topic_day_counts SET n = n - 1 WHERE topic = OLD.topic AND listing_date = OLD.listing_date;
  DELETE FROM topic_day_counts WHERE topic = OLD.topic AND listing_date = OLD.listing_date AND n = 0;
END;

CREATE TRIGGER paper_topics_count_update AFTER UPDATE OF topic, listing_date ON paper_topics
WHEN OLD.topic IS NOT NEW.topic OR OLD.listing_date IS NOT NEW.listing_date BEGIN
  UPDATE topic_day_counts SET n = n - 1 WHERE topic = OLD.topic AND listing_date = OLD.listing_date;
  DELETE FROM topic_day_counts WHERE topic = OLD.topic AND listing_date = OLD.listing_date AND n = 0;
  INSERT INTO topic_day_counts (topic, listing_date, n)
  SELECT NEW.topic, NEW.listing_date, 1 WHERE NEW.listing_date IS NOT NULL
  ON CONFLICT (topic, listing_date) DO UPDATE SET n = n + 1;
END;
`;

// Who made an invite, so the join page can say "Ana invited you": the display name the maker gave, like
// members' names for people to read, never for access. NULL for invites made before this and by clients
// that give none; the join page then names nobody.
const INVITE_INVITER = `ALTER TABLE group_invites ADD COLUMN invited_by TEXT;`;

export const MIGRATIONS: readonly Migration[] = [
  { name: 'create-papers', sql: CREATE_PAPERS },
  { name: 'create-harvest-state', sql: CREATE_HARVEST_STATE },
  { name: 'create-tags', sql: CREATE_TAGS },
  { name: 'create-group-sync', sql: CREATE_GROUP_SYNC },
  { name: 'ingest-log-running', sql: INGEST_LOG_RUNNING },
  { name: 'topic-counts', sql: TOPIC_COUNTS },
  { name: 'search-index', sql: CREATE_SEARCH_INDEX },
  { name: 'calendar-feeds', sql: CREATE_CALENDAR_FEEDS },
  { name: 'invite-inviter', sql: INVITE_INVITER },
  { name: 'search-index-merging', sql: SEARCH_INDEX_MERGING },
  { name: 'papers-to-tag', sql: CREATE_PAPERS_TO_TAG },
  { name: 'search-doc-bits', sql: CREATE_SEARCH_DOC_BITS },
  { name: 'search-term-counts', sql: CREATE_SEARCH_TERM_COUNTS },
  { name: 'search-titles', sql: CREATE_TITLES_INDEX },
  { name: 'derived-in-bulk', sql: DERIVED_IN_BULK },
];

export interface MigrationResult {
  from: number;
  to: number;
  applied: string[];
}

export function schemaVersion(db: Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/**
 * Brings the schema up to date. Each step and its version bump commit together, so a crash mid-way leaves
 * the database at the last complete step and the next open carries on from there.
 */
export function migrate(db: Database, migrations: readonly Migration[] = MIGRATIONS): MigrationResult {
  // The search index's writes call these (paper batches, and the step that fills it); every writing
  // connection migrates first.
  registerSearchFunctions(db);
  const from = schemaVersion(db);
  if (from > migrations.length) {
    throw new QuireError(
      'store-error',
      `The database ${db.name} has schema version ${from}, newer than this Quire knows (${migrations.length}); upgrade Quire or use another database.`,
    );
  }
  const applied: string[] = [];
  for (let version = from; version < migrations.length; version++) {
    const step = migrations[version];
    if (!step) break;
    const apply = db.transaction(() => {
      db.exec(step.sql);
      // user_version lives in the file header and is covered by the transaction; it cannot be a bound parameter.
      db.pragma(`user_version = ${version + 1}`);
    });
    try {
      apply.immediate();
    } catch (err) {
      throw new QuireError(
        'store-error',
        `Schema migration ${version + 1} (${step.name}) failed on ${db.name}: ${errorMessage(err)}`,
        { cause: err },
      );
    }
    applied.push(step.name);
  }
  return { from, to: schemaVersion(db), applied };
}
