import type { CalendarFeedStore } from '../calendar-feeds.ts';
import type { GroupStore } from '../group-store.ts';
import type { InviteStore } from '../invite-store.ts';
import type { UpdateLog } from '../update-log-store.ts';
import { PgCalendarFeedStore } from './pg-calendar-feeds.ts';
import { PgGroupStore } from './pg-group-store.ts';
import { PgInviteStore } from './pg-invite-store.ts';
import { openMigratedPool } from './pg-migrations.ts';
import { PgUpdateLog, type SharedUpdateLog } from './pg-update-log.ts';

/**
 * The part of the store PostgreSQL holds so far (issue 13, first slice): groups, invites, calendar feeds
 * and the update log, under the same interfaces as their SQLite siblings in open-store.ts's Store. Papers,
 * tags, topic counts and search have no PostgreSQL engine yet.
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
