import { redactedUrl } from '../../errors.ts';
import type { CalendarFeedStore } from '../calendar-feeds.ts';
import type { GroupStore } from '../group-store.ts';
import type { InviteStore } from '../invite-store.ts';
import type { OwnTagStore, Stores } from '../stores.ts';
import type { UpdateLog } from '../update-log-store.ts';
import { PgCalendarFeedStore } from './pg-calendar-feeds.ts';
import { PgGroupStore } from './pg-group-store.ts';
import { PgHarvestState } from './pg-harvest-state.ts';
import { pgHarvestWrites } from './pg-harvest-writes.ts';
import { PgInviteStore } from './pg-invite-store.ts';
import { openMigratedPool } from './pg-migrations.ts';
import { openPgPool } from './pg-pool.ts';
import { PgPaperStore } from './pg-paper-store.ts';
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
  const pool = await openMigratedPool(url);
  try {
    const papers = new PgPaperStore(pool, options);
    const state = new PgHarvestState(pool, options);
    await state.markInterruptedIngests();
    const updates = new PgUpdateLog(pool);
    return {
      papers,
      harvest: pgHarvestWrites(pool, papers, state),
      ingests: { recentIngests: (n, kind) => state.recentIngests(n, kind) },
      tags: new PgTagStore(pool),
      topicCounts: new PgTopicCountsStore(pool),
      source: { engine: 'postgres', databaseUrl: url },
      groups: new PgGroupStore(pool),
      invites: new PgInviteStore(pool),
      groupUpdates: updates,
      sharedUpdates: updates,
      calendarFeeds: new PgCalendarFeedStore(pool),
      where: `PostgreSQL at ${redactedUrl(url)}`,
      close: () => pool.end(),
    };
  } catch (err) {
    await pool.end().catch(() => {});
    throw err;
  }
}

/** The tag thread's tag store: a pool of its own (the server has migrated the schema before starting it). */
export async function openPgTagStore(url: string): Promise<OwnTagStore> {
  const pool = await openPgPool(url);
  return { tags: new PgTagStore(pool), close: () => pool.end() };
}
