import type { CalendarFeedStore } from './calendar-feeds.ts';
import type { GroupStore } from './group-store.ts';
import type { IngestKind, IngestRecord } from './harvest-state.ts';
import { sqliteHarvestWrites, type HarvestWrites } from './harvest-writes.ts';
import type { InviteStore } from './invite-store.ts';
import { openDatabase } from './open-database.ts';
import { openStore, type Store, type StoreOptions } from './open-store.ts';
import { sqlitePapers, type PaperRepository } from './paper-repository.ts';
import { settled } from './settled.ts';
import { SqliteTagStore, type TagStore } from './tag-store.ts';
import type { TopicCountsStore } from './topic-counts-store.ts';
import type { UpdateLog } from './update-log-store.ts';
import type { SharedUpdateLog } from './pg/pg-update-log.ts';

/**
 * Where a worker thread (search, tagging) opens a connection of its own to the papers: the SQLite file,
 * or the PostgreSQL database (issue 13).
 */
export type StoreSource = { engine: 'sqlite'; dbPath: string } | { engine: 'postgres'; databaseUrl: string };

/** The ingest log as the status API reads it. */
export interface IngestLogReader {
  /** The `n` latest entries, newest first (of one kind if given). */
  recentIngests(n: number, kind?: IngestKind): Promise<IngestRecord[]>;
}

/** The papers and what is derived from them, the same on either engine: what the server serves. */
export interface PaperSide {
  papers: PaperRepository;
  /** A harvested page with its checkpoint, an on-demand fetch, and the ingest log's entries of both. */
  harvest: HarvestWrites;
  ingests: IngestLogReader;
  /** Stored tags, their definition hashes, stale papers and the hierarchy the counts follow. */
  tags: TagStore;
  /** Listed papers per topic per day and per day: what momentum reads. */
  topicCounts: TopicCountsStore;
  /** Where the search and tag threads open their own connection. */
  source: StoreSource;
}

/** Reading groups: the groups, their invites and calendar feeds, and each group's update log. */
export interface GroupSide {
  groups: GroupStore;
  invites: InviteStore;
  groupUpdates: UpdateLog;
  calendarFeeds: CalendarFeedStore;
}

/** Everything a server keeps, on one engine, behind interfaces that answer with promises. */
export interface Stores extends PaperSide, GroupSide {
  /** Where it is, for start-up lines: "SQLite at data/quire.db", "PostgreSQL at postgres://…" (no password). */
  where: string;
  close(): Promise<void>;
}

/** An open SQLite store behind the engine-neutral interfaces; closing them closes it. */
export function sqliteStores(store: Store): Stores {
  const dbPath = store.db.name;
  return {
    papers: sqlitePapers(store.papers),
    harvest: sqliteHarvestWrites(store),
    ingests: { recentIngests: (n, kind) => settled(() => store.state.recentIngests(n, kind)) },
    tags: store.tags,
    topicCounts: store.topicCounts,
    source: { engine: 'sqlite', dbPath },
    groups: store.groups,
    invites: store.invites,
    groupUpdates: store.groupUpdates,
    calendarFeeds: store.calendarFeeds,
    where: `SQLite at ${dbPath}`,
    close: () => settled(() => store.close()),
  };
}

/** Opens (and migrates) the SQLite file at `dbPath` as Stores; see openStore. */
export function openSqliteStores(dbPath: string, options: StoreOptions = {}): Stores {
  return sqliteStores(openStore(dbPath, options));
}

/** A server's stores, and on PostgreSQL the update log as nodes sharing it use it (null on SQLite). */
export interface ServerStores {
  store: Stores;
  sharedUpdates: SharedUpdateLog | null;
}

/**
 * Everything a server keeps, at `source`: the SQLite file, or PostgreSQL (migrated; no SQLite file is
 * opened then).
 */
export async function openStoresAt(source: StoreSource): Promise<ServerStores> {
  if (source.engine === 'sqlite') return { store: openSqliteStores(source.dbPath), sharedUpdates: null };
  // Loaded only where the server runs on PostgreSQL.
  const { openPgStores } = await import('./pg/open-pg-stores.ts');
  const store = await openPgStores(source.databaseUrl);
  return { store, sharedUpdates: store.sharedUpdates };
}

/** A tag store over a connection of its own, and how to close that connection. */
export interface OwnTagStore {
  tags: TagStore;
  /**
   * Runs `run` (a re-tag) when no other node tags the same store: on PostgreSQL, nodes sharing a database
   * take turns, so one that starts while another tags finds the papers tagged instead of tagging them
   * again; waiting ends (rejects) when `shouldStop` says so. SQLite has one node: it runs at once.
   */
  alone<T>(run: () => Promise<T>, shouldStop: () => boolean): Promise<T>;
  close(): Promise<void>;
}

/**
 * The tag thread's tag store: a read-write connection of its own to the SQLite file (its writes wait on
 * the file's lock like any writer's), or a pool of its own to PostgreSQL.
 */
export async function openTagStoreAt(source: StoreSource): Promise<OwnTagStore> {
  if (source.engine === 'sqlite') {
    const db = openDatabase(source.dbPath);
    return {
      tags: new SqliteTagStore(db),
      alone: (run) => run(),
      close: () => settled(() => void db.close()),
    };
  }
  // Loaded only where PostgreSQL is tagged.
  const { openPgTagStore } = await import('./pg/open-pg-stores.ts');
  return openPgTagStore(source.databaseUrl);
}
