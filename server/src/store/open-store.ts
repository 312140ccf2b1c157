import type { Database } from 'better-sqlite3';
import { SqliteCalendarFeedStore, type CalendarFeedStore } from './calendar-feeds.ts';
import { SqliteGroupStore, type GroupStore } from './group-store.ts';
import { HarvestState } from './harvest-state.ts';
import { SqliteInviteStore, type InviteStore } from './invite-store.ts';
import { openDatabase } from './open-database.ts';
import { PaperStore } from './paper-store.ts';
import { SqliteTagStore, type TagStore } from './tag-store.ts';
import { SqliteTopicCountsStore, type TopicCountsStore } from './topic-counts-store.ts';
import { SqliteUpdateLog, type UpdateLog } from './update-log-store.ts';

export interface Store {
  db: Database;
  papers: PaperStore;
  state: HarvestState;
  /** Reading groups (sync/group-service.ts is what the server asks). */
  groups: GroupStore;
  /** The invite capabilities of groups, by the hash of their secret. */
  invites: InviteStore;
  /** Each group's document as a log of Yjs updates. */
  groupUpdates: UpdateLog;
  /** The groups' calendar feeds (read capabilities of their own, stored hashed). */
  calendarFeeds: CalendarFeedStore;
  /** Stored tags, their definition hashes, stale papers and the hierarchy the counts follow. */
  tags: TagStore;
  /** Listed papers per topic per day and per day: what momentum reads. */
  topicCounts: TopicCountsStore;
  /** One write transaction over papers and state together; see `PaperStore.transaction`. */
  transaction<T>(fn: () => T): T;
  close(): void;
}

export interface StoreOptions {
  /** The clock stamped on writes; tests pass a fixed one. */
  now?: () => Date;
}

/**
 * Opens the database at `path` (`:memory:` allowed) with the paper store and harvest state over it, and
 * marks runs whose process died mid-way as interrupted.
 */
export function openStore(path: string, options: StoreOptions = {}): Store {
  const store = storeOver(openDatabase(path), options);
  // Every start of the server or a CLI command comes through here, before any run of its own begins.
  store.state.markInterruptedIngests();
  return store;
}

export function storeOver(db: Database, options: StoreOptions = {}): Store {
  const papers = new PaperStore(db, options);
  const state = new HarvestState(db, options);
  return {
    db,
    papers,
    state,
    groups: new SqliteGroupStore(db),
    invites: new SqliteInviteStore(db),
    groupUpdates: new SqliteUpdateLog(db),
    calendarFeeds: new SqliteCalendarFeedStore(db),
    tags: new SqliteTagStore(db),
    topicCounts: new SqliteTopicCountsStore(db),
    transaction: (fn) => papers.transaction(fn),
    close: () => db.close(),
  };
}
