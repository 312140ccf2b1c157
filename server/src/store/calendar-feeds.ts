import type { Database, Statement } from 'better-sqlite3';
import { settled } from './settled.ts';

/**
 * A group's calendar feeds: read capabilities of their own, kept like invites (only the SHA-256 of the
 * secret in the feed's address is stored), each revocable. A feed remembers the invite it was made with,
 * so revoking that invite stops the feed too.
 */
export const CREATE_CALENDAR_FEEDS = `
CREATE TABLE calendar_feeds (
  id         TEXT PRIMARY KEY NOT NULL,
  group_id   TEXT NOT NULL REFERENCES groups (id) ON DELETE CASCADE,
  invite_id  TEXT NOT NULL,          -- the invite the feed was made with
  token_hash BLOB NOT NULL UNIQUE,   -- SHA-256 of the secret in the feed's address
  created_at TEXT NOT NULL,
  revoked_at TEXT
);
CREATE INDEX calendar_feeds_group ON calendar_feeds (group_id);
`;

export interface CalendarFeedEntity {
  id: string;
  groupId: string;
  inviteId: string;
  createdAt: string;
  revokedAt: string | null;
}

export interface CalendarFeedRow {
  id: string;
  inviteId: string;
  tokenHash: Buffer;
  createdAt: string;
}

const INSERT_FEED = `
  INSERT INTO calendar_feeds (id, group_id, invite_id, token_hash, created_at) VALUES (?, ?, ?, ?, ?)`;
const FEED_COLUMNS = `id, group_id AS groupId, invite_id AS inviteId, created_at AS createdAt, revoked_at AS revokedAt`;
const SELECT_FEED_BY_HASH = `SELECT ${FEED_COLUMNS} FROM calendar_feeds WHERE token_hash = ?`;
const SELECT_FEED = `SELECT ${FEED_COLUMNS} FROM calendar_feeds WHERE group_id = ? AND id = ?`;
const SELECT_FEEDS = `SELECT ${FEED_COLUMNS} FROM calendar_feeds WHERE group_id = ? ORDER BY created_at, id`;
const REVOKE_FEED = `
  UPDATE calendar_feeds SET revoked_at = ? WHERE group_id = ? AND id = ? AND revoked_at IS NULL`;

/** Asynchronous like the other group stores, so a network engine could stand in for SQLite. */
export interface CalendarFeedStore {
  add(groupId: string, feed: CalendarFeedRow): Promise<void>;
  byHash(tokenHash: Buffer): Promise<CalendarFeedEntity | null>;
  list(groupId: string): Promise<CalendarFeedEntity[]>;
  /** Stamps `at` on the feed unless it is revoked already; the feed as it is then, or null if none. */
  revoke(groupId: string, feedId: string, at: string): Promise<CalendarFeedEntity | null>;
}

export class SqliteCalendarFeedStore implements CalendarFeedStore {
  readonly #insert: Statement<[string, string, string, Buffer, string]>;
  readonly #byHash: Statement<[Buffer], CalendarFeedEntity>;
  readonly #get: Statement<[string, string], CalendarFeedEntity>;
  readonly #list: Statement<[string], CalendarFeedEntity>;
  readonly #revoke: Statement<[string, string, string]>;

  constructor(db: Database) {
    this.#insert = db.prepare(INSERT_FEED);
    this.#byHash = db.prepare(SELECT_FEED_BY_HASH);
    this.#get = db.prepare(SELECT_FEED);
    this.#list = db.prepare(SELECT_FEEDS);
    this.#revoke = db.prepare(REVOKE_FEED);
  }

  add(groupId: string, feed: CalendarFeedRow): Promise<void> {
    return settled(() => {
      this.#insert.run(feed.id, groupId, feed.inviteId, feed.tokenHash, feed.createdAt);
    });
  }

  byHash(tokenHash: Buffer): Promise<CalendarFeedEntity | null> {
    return settled(() => this.#byHash.get(tokenHash) ?? null);
  }

  list(groupId: string): Promise<CalendarFeedEntity[]> {
    return settled(() => this.#list.all(groupId));
  }

  revoke(groupId: string, feedId: string, at: string): Promise<CalendarFeedEntity | null> {
    return settled(() => {
      this.#revoke.run(at, groupId, feedId);
      return this.#get.get(groupId, feedId) ?? null;
    });
  }
}
