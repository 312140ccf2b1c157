import { redactedUrl } from '../errors.ts';
import type { Store } from './open-store.ts';
import { openPgGroupStores } from './pg/open-pg-stores.ts';
import type { SharedUpdateLog } from './pg/pg-update-log.ts';

/** A node's store with its group side on PostgreSQL, and what closing that side takes. */
export interface GroupsOnPostgres {
  store: Store;
  /** The update log as nodes sharing it use it (catch-up, heads, compaction one node at a time). */
  sharedUpdates: SharedUpdateLog;
  /** The database, password left out, for the start-up line. */
  where: string;
  close(): Promise<void>;
}

/**
 * Interim (issue 13): groups, invites, calendar feeds and the update log on the PostgreSQL at `url`,
 * shared by every node, while papers, tags, topic counts and search stay in this node's SQLite file until
 * their PostgreSQL engine exists. Closing the returned store closes the SQLite file; `close` ends the pool.
 */
export async function withGroupsOnPostgres(store: Store, url: string): Promise<GroupsOnPostgres> {
  const pg = await openPgGroupStores(url);
  return {
    store: {
      ...store,
      groups: pg.groups,
      invites: pg.invites,
      groupUpdates: pg.groupUpdates,
      calendarFeeds: pg.calendarFeeds,
    },
    sharedUpdates: pg.sharedUpdates,
    where: redactedUrl(url),
    close: () => pg.close(),
  };
}
