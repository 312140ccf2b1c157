import { QuireError, errorMessage } from '../../errors.ts';
import type { Migration, MigrationResult } from '../migrations.ts';
import { CREATE_HARVEST_STATE } from './pg-harvest-state.ts';
import { CREATE_PAPERS } from './pg-paper-queries.ts';
import {
  COVERING_CATEGORY_LOOKUP,
  CREATE_CATEGORY_LOOKUPS,
  CREATE_SEARCH_INDEX,
  CREATE_SEARCH_TOTALS,
  SEARCH_TITLE_VECTOR,
  SEARCH_WORDS_PER_COLUMN,
} from './pg-search-schema.ts';
import { CREATE_SEARCH_POSITIONS } from './pg-search-positions.ts';
import { CREATE_SEARCH_POSTINGS, EMPTY_SEARCH_WITH_PAPERS } from './pg-search-postings.ts';
import { CREATE_TAGS_AND_COUNTS, TAGS_WITHOUT_PAPER_KEY } from './pg-tag-schema.ts';
import { inTransaction, openPgPool, type PgClient, type PgPool } from './pg-pool.ts';

/*
 * The PostgreSQL schema's history, versioned like SQLite's: a step's position in this array is its version,
 * recorded in schema_migrations in the step's own transaction. Append new steps; never edit shipped ones.
 * Several nodes may start at once: each step runs under one advisory lock, and re-reads the version under
 * it, so exactly one node applies it.
 */

// Dates are kept as the ISO strings the services write (text, as in SQLite), so both engines hand back
// byte-identical values. update_seq numbers a group's update rows: it is bumped under the group row's lock
// by every append, so a group's rows commit in the order of their numbers (a reader that has row n has
// every row before it: what catching up from PostgreSQL after missed messages will rely on).
const CREATE_GROUP_SYNC = `
CREATE TABLE groups (
  id         text PRIMARY KEY,
  name       text NOT NULL,
  created_at text NOT NULL,
  update_seq bigint NOT NULL DEFAULT 0
);

CREATE TABLE group_invites (
  id         text PRIMARY KEY,
  group_id   text NOT NULL REFERENCES groups (id) ON DELETE CASCADE,
  role       text NOT NULL CHECK (role IN ('read-write', 'read-only')),
  token_hash bytea NOT NULL UNIQUE,  -- SHA-256 of the secret in the invite link
  created_at text NOT NULL,
  revoked_at text
);
CREATE INDEX group_invites_group ON group_invites (group_id);

CREATE TABLE group_updates (
  group_id text NOT NULL REFERENCES groups (id) ON DELETE CASCADE,
  seq      bigint NOT NULL,
  data     bytea NOT NULL,  -- one Yjs update (v1 encoding)
  PRIMARY KEY (group_id, seq)
);
`;

const CREATE_CALENDAR_FEEDS = `
CREATE TABLE calendar_feeds (
  id         text PRIMARY KEY,
  group_id   text NOT NULL REFERENCES groups (id) ON DELETE CASCADE,
  invite_id  text NOT NULL,          -- the invite the feed was made with
  token_hash bytea NOT NULL UNIQUE,  -- SHA-256 of the secret in the feed's address
  created_at text NOT NULL,
  revoked_at text
);
CREATE INDEX calendar_feeds_group ON calendar_feeds (group_id);
`;

// The inviter's display name, as on SQLite (migrations.ts): NULL for older invites and nameless makers.
const INVITE_INVITER = `ALTER TABLE group_invites ADD COLUMN invited_by text;`;

// `quire migrate` (cli/command-migrate.ts) records here where its copy from a SQLite file stands, in the
// same transaction as each batch it writes, so a copy killed part way continues after the last committed
// batch and never writes a row twice. One run per database: it is refused unless the database is empty.
const MIGRATE_PROGRESS = `
CREATE TABLE migrate_runs (
  id          integer PRIMARY KEY CHECK (id = 1),
  source      text NOT NULL,  -- the SQLite file copied, as given to --from (absolute)
  started_at  text NOT NULL,
  finished_at text
);
CREATE TABLE migrate_progress (
  table_name text PRIMARY KEY,
  last_key   text NOT NULL,    -- the source row id the next batch continues after
  copied     bigint NOT NULL,
  done       boolean NOT NULL DEFAULT false
);
`;

export const PG_MIGRATIONS: readonly Migration[] = [
  { name: 'create-group-sync', sql: CREATE_GROUP_SYNC },
  { name: 'calendar-feeds', sql: CREATE_CALENDAR_FEEDS },
  { name: 'invite-inviter', sql: INVITE_INVITER },
  { name: 'migrate-progress', sql: MIGRATE_PROGRESS },
  { name: 'papers', sql: CREATE_PAPERS },
  { name: 'tags-and-counts', sql: CREATE_TAGS_AND_COUNTS },
  { name: 'harvest-state', sql: CREATE_HARVEST_STATE },
  { name: 'search-index', sql: CREATE_SEARCH_INDEX },
  { name: 'category-lookups', sql: CREATE_CATEGORY_LOOKUPS },
  // One step: the totals and the per-column word counts are kept by the same three triggers.
  { name: 'search-totals', sql: CREATE_SEARCH_TOTALS + SEARCH_WORDS_PER_COLUMN },
  { name: 'search-title-vector', sql: SEARCH_TITLE_VECTOR },
  { name: 'search-postings', sql: CREATE_SEARCH_POSTINGS },
  { name: 'search-emptied-with-papers', sql: EMPTY_SEARCH_WITH_PAPERS },
  { name: 'search-positions', sql: CREATE_SEARCH_POSITIONS },
  { name: 'tags-without-paper-key', sql: TAGS_WITHOUT_PAPER_KEY },
  { name: 'covering-category-lookup', sql: COVERING_CATEGORY_LOOKUP },
];

const CREATE_SCHEMA_MIGRATIONS = `
CREATE TABLE IF NOT EXISTS schema_migrations (
  version    integer PRIMARY KEY,
  name       text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now()
)`;
// One key for the whole schema: migrations are rare and short, so nodes simply take turns.
const LOCK_MIGRATIONS = `SELECT pg_advisory_xact_lock(hashtextextended('quire:schema-migrations', 0))`;
const SELECT_VERSION = `SELECT coalesce(max(version), 0)::integer AS version FROM schema_migrations`;
const INSERT_VERSION = `INSERT INTO schema_migrations (version, name) VALUES ($1, $2)`;

const READ_COMMITTED = 'SET TRANSACTION ISOLATION LEVEL READ COMMITTED';

async function versionUnderLock(client: PgClient): Promise<number> {
  await client.query(LOCK_MIGRATIONS);
  await client.query(CREATE_SCHEMA_MIGRATIONS);
  const { rows } = await client.query<{ version: number }>(SELECT_VERSION);
  return rows[0]?.version ?? 0;
}

export async function pgSchemaVersion(pool: PgPool): Promise<number> {
  return inTransaction(pool, versionUnderLock);
}

/** Brings the schema up to date, one transaction per step (a crash leaves the last complete step). */
export async function migratePg(
  pool: PgPool,
  migrations: readonly Migration[] = PG_MIGRATIONS,
): Promise<MigrationResult> {
  const from = await pgSchemaVersion(pool);
  if (from > migrations.length) {
    throw new QuireError(
      'store-error',
      `The PostgreSQL database has schema version ${from}, newer than this Quire knows (${migrations.length}); upgrade Quire or use another database.`,
    );
  }
  const applied: string[] = [];
  for (let version = from + 1; version <= migrations.length; version++) {
    const step = migrations[version - 1];
    if (!step) break;
    try {
      const ran = await inTransaction(pool, async (client) => {
        // A step that locks a table and then fills from it must see what writers committed while it
        // waited for the lock: under a database default of REPEATABLE READ the first read below would fix
        // the snapshot before the wait, and a paper written meanwhile would be missed by the fill.
        await client.query(READ_COMMITTED);
        // Another node may have applied it while this one waited for the lock.
        if ((await versionUnderLock(client)) >= version) return false;
        await client.query(step.sql);
        await client.query(INSERT_VERSION, [version, step.name]);
        return true;
      });
      if (ran) applied.push(step.name);
    } catch (err) {
      throw new QuireError(
        'store-error',
        `PostgreSQL schema migration ${version} (${step.name}) failed: ${errorMessage(err)}`,
        { cause: err },
      );
    }
  }
  return { from, to: await pgSchemaVersion(pool), applied };
}

/** A pool over `url` with the schema brought up to date; nothing is left open when either step fails. */
export async function openMigratedPool(url: string): Promise<PgPool> {
  const pool = await openPgPool(url);
  try {
    await migratePg(pool);
  } catch (err) {
    await pool.end().catch(() => {});
    throw err;
  }
  return pool;
}
