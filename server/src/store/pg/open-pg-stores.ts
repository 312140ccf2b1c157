import { QuireError, redactedUrl } from '../../errors.ts';
import type { CalendarFeedStore } from '../calendar-feeds.ts';
import type { GroupStore } from '../group-store.ts';
import type { InviteStore } from '../invite-store.ts';
import type { OwnTagStore, Stores } from '../stores.ts';
import type { UpdateLog } from '../update-log-store.ts';
import { PgCalendarFeedStore } from './pg-calendar-feeds.ts';
import { PgGroupStore } from './pg-group-store.ts';
import { PgInviteStore } from './pg-invite-store.ts';
import { openMigratedPool } from './pg-migrations.ts';
import { openPgIngestStores } from './pg-ingest-stores.ts';
import { openPgPool } from './pg-pool.ts';
import { PgTagStore } from './pg-tag-store.ts';
import { PgTopicCountsStore } from './pg-topic-counts-store.ts';
import { PgUpdateLog, type SharedUpdateLog } from './pg-update-log.ts';

/**
 * The group side on PostgreSQL: groups, invites, calendar feeds and the update log, under the same
 * interfaces as their SQLite siblings in open-store.ts's Store (tests read what a server stored with it).
 */
export interface PgGroupStores {
  groups: GroupStore;
  invites: InviteStore;
  groupUpdates: UpdateLog;
  calendarFeeds: CalendarFeedStore;
  close(): Promise<void>;
}

/** The group stores as one node of several uses them. */
export interface PgNodeStores extends PgGroupStores {
  /** The same update log, with what nodes sharing it need (catch-up, heads, compaction that can skip). */
  sharedUpdates: SharedUpdateLog;
}

/** Connects to `url` (postgres://…), migrates its schema, and answers the group stores over one pool. */
export async function openPgGroupStores(url: string): Promise<PgNodeStores> {
  const pool = await openMigratedPool(url);
  const updates = new PgUpdateLog(pool);
  return {
    groups: new PgGroupStore(pool),
    invites: new PgInviteStore(pool),
    groupUpdates: updates,
    sharedUpdates: updates,
    calendarFeeds: new PgCalendarFeedStore(pool),
    close: () => pool.end(),
  };
}

/** Everything a server keeps, on PostgreSQL, with the update log as nodes sharing it use it. */
export interface PgStores extends Stores {
  sharedUpdates: SharedUpdateLog;
}

/**
 * Connects to `url` (postgres://…), migrates its schema, marks this host's runs whose process died mid-way
 * as interrupted (as openStore does on SQLite), and answers every store over one pool.
 */
export async function openPgStores(url: string, options: { now?: () => Date } = {}): Promise<PgStores> {
  // The paper side is what quire import and harvest write through: one opener, one set of stores.
  const ingest = await openPgIngestStores(url, options);
  const { pool, state } = ingest;
  const updates = new PgUpdateLog(pool);
  return {
    papers: ingest.papers,
    harvest: ingest.harvests,
    ingests: { recentIngests: (n, kind) => state.recentIngests(n, kind) },
    tags: ingest.tags,
    topicCounts: new PgTopicCountsStore(pool),
    source: { engine: 'postgres', databaseUrl: url },
    groups: new PgGroupStore(pool),
    invites: new PgInviteStore(pool),
    groupUpdates: updates,
    sharedUpdates: updates,
    calendarFeeds: new PgCalendarFeedStore(pool),
    where: `PostgreSQL at ${redactedUrl(url)}`,
    close: () => ingest.close(),
  };
}

// Nodes sharing a database tag it one at a time. A session lock on a connection closed after the run, so
// a node that dies while tagging gives it up with its connection.
const TRY_TAGGING_LOCK = `SELECT pg_try_advisory_lock(hashtextextended('quire:tagging', 0)) AS locked`;
/** How often a tag run waiting for another node's tries the lock again (and looks at its stop flag). */
const TAGGING_LOCK_RETRY_MS = 500;

/** The tag thread's tag store: a pool of its own (the server has migrated the schema before starting it). */
export async function openPgTagStore(url: string): Promise<OwnTagStore> {
  const pool = await openPgPool(url);
  return {
    tags: new PgTagStore(pool),
    async alone(run, shouldStop) {
      const client = await pool.connect();
      try {
        // Tried rather than waited for, so a server shutting down is not held until the other node is done.
        while (!(await client.query<{ locked: boolean }>(TRY_TAGGING_LOCK)).rows[0]?.locked) {
          if (shouldStop()) {
            throw new QuireError(
              'unavailable',
              'Tagging stopped while another node was tagging this database.',
            );
          }
          await new Promise((resolve) => setTimeout(resolve, TAGGING_LOCK_RETRY_MS));
        }
        return await run();
      } finally {
        // Closed, not returned to the pool: the lock ends with its session.
        client.release(true);
      }
    },
    close: () => pool.end(),
  };
}
