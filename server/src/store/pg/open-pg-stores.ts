import type { CalendarFeedStore } from '../calendar-feeds.ts';
import type { GroupStore } from '../group-store.ts';
import type { InviteStore } from '../invite-store.ts';
import type { UpdateLog } from '../update-log-store.ts';
import { PgCalendarFeedStore } from './pg-calendar-feeds.ts';
import { PgGroupStore } from './pg-group-store.ts';
import { PgInviteStore } from './pg-invite-store.ts';
import { migratePg } from './pg-migrations.ts';
import { openPgPool } from './pg-pool.ts';
import { PgUpdateLog } from './pg-update-log.ts';

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

/** Connects to `url` (postgres://…), migrates its schema, and answers the group stores over one pool. */
export async function openPgGroupStores(url: string): Promise<PgGroupStores> {
  const pool = await openPgPool(url);
  try {
    await migratePg(pool);
  } catch (err) {
    await pool.end().catch(() => {});
    throw err;
  }
  return {
    groups: new PgGroupStore(pool),
    invites: new PgInviteStore(pool),
    groupUpdates: new PgUpdateLog(pool),
    calendarFeeds: new PgCalendarFeedStore(pool),
    close: () => pool.end(),
  };
}
