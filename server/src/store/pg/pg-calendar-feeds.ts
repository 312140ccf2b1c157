import type { CalendarFeedEntity, CalendarFeedRow, CalendarFeedStore } from '../calendar-feeds.ts';
import type { PgPool } from './pg-pool.ts';

const INSERT_FEED = `
  INSERT INTO calendar_feeds (id, group_id, invite_id, token_hash, created_at) VALUES ($1, $2, $3, $4, $5)`;
const FEED_COLUMNS = `
  id, group_id AS "groupId", invite_id AS "inviteId", created_at AS "createdAt", revoked_at AS "revokedAt"`;
const SELECT_FEED_BY_HASH = `SELECT ${FEED_COLUMNS} FROM calendar_feeds WHERE token_hash = $1`;
const SELECT_FEEDS = `
  SELECT ${FEED_COLUMNS} FROM calendar_feeds WHERE group_id = $1 ORDER BY created_at, id`;
// As for invites: one statement answers the feed as this revoke left it.
const REVOKE_FEED = `
  WITH revoked AS (
    UPDATE calendar_feeds SET revoked_at = $3
    WHERE group_id = $1 AND id = $2 AND revoked_at IS NULL
    RETURNING ${FEED_COLUMNS})
  SELECT * FROM revoked
  UNION ALL
  SELECT ${FEED_COLUMNS} FROM calendar_feeds
  WHERE group_id = $1 AND id = $2 AND NOT EXISTS (SELECT 1 FROM revoked)`;

/** A group's calendar feeds on PostgreSQL (only the hash of each feed's secret is kept). */
export class PgCalendarFeedStore implements CalendarFeedStore {
  constructor(private readonly pool: PgPool) {}

  async add(groupId: string, feed: CalendarFeedRow): Promise<void> {
    await this.pool.query(INSERT_FEED, [feed.id, groupId, feed.inviteId, feed.tokenHash, feed.createdAt]);
  }

  async byHash(tokenHash: Buffer): Promise<CalendarFeedEntity | null> {
    const { rows } = await this.pool.query<CalendarFeedEntity>(SELECT_FEED_BY_HASH, [tokenHash]);
    return rows[0] ?? null;
  }

  async list(groupId: string): Promise<CalendarFeedEntity[]> {
    const { rows } = await this.pool.query<CalendarFeedEntity>(SELECT_FEEDS, [groupId]);
    return rows;
  }

  async revoke(groupId: string, feedId: string, at: string): Promise<CalendarFeedEntity | null> {
    const { rows } = await this.pool.query<CalendarFeedEntity>(REVOKE_FEED, [groupId, feedId, at]);
    return rows[0] ?? null;
  }
}
