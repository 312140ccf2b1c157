import { insertInviteValues, type InviteEntity, type InviteRow, type InviteStore } from '../invite-store.ts';
import type { PgPool } from './pg-pool.ts';

export const INSERT_INVITE = `
  INSERT INTO group_invites (id, group_id, role, token_hash, created_at, invited_by)
  VALUES ($1, $2, $3, $4, $5, $6)`;
const INVITE_COLUMNS = `
  id, group_id AS "groupId", role, created_at AS "createdAt", revoked_at AS "revokedAt",
  invited_by AS "invitedBy"`;
const SELECT_INVITE_BY_HASH = `SELECT ${INVITE_COLUMNS} FROM group_invites WHERE token_hash = $1`;
const SELECT_INVITES = `
  SELECT ${INVITE_COLUMNS} FROM group_invites WHERE group_id = $1 ORDER BY created_at, id`;
const SELECT_INVITE = `SELECT ${INVITE_COLUMNS} FROM group_invites WHERE group_id = $1 AND id = $2`;
// One statement, so the answer is the row as this revoke left it even with another node revoking at once:
// the updated row, else the row as it stands (revoked earlier), else nothing.
const REVOKE_INVITE = `
  WITH revoked AS (
    UPDATE group_invites SET revoked_at = $3
    WHERE group_id = $1 AND id = $2 AND revoked_at IS NULL
    RETURNING ${INVITE_COLUMNS})
  SELECT * FROM revoked
  UNION ALL
  SELECT ${INVITE_COLUMNS} FROM group_invites
  WHERE group_id = $1 AND id = $2 AND NOT EXISTS (SELECT 1 FROM revoked)`;

/** The invite capabilities of groups on PostgreSQL, found by the hash of their secret. */
export class PgInviteStore implements InviteStore {
  constructor(private readonly pool: PgPool) {}

  async add(groupId: string, invite: InviteRow): Promise<void> {
    await this.pool.query(INSERT_INVITE, insertInviteValues(groupId, invite));
  }

  async byHash(tokenHash: Buffer): Promise<InviteEntity | null> {
    const { rows } = await this.pool.query<InviteEntity>(SELECT_INVITE_BY_HASH, [tokenHash]);
    return rows[0] ?? null;
  }

  async get(groupId: string, inviteId: string): Promise<InviteEntity | null> {
    const { rows } = await this.pool.query<InviteEntity>(SELECT_INVITE, [groupId, inviteId]);
    return rows[0] ?? null;
  }

  async list(groupId: string): Promise<InviteEntity[]> {
    const { rows } = await this.pool.query<InviteEntity>(SELECT_INVITES, [groupId]);
    return rows;
  }

  async revoke(groupId: string, inviteId: string, at: string): Promise<InviteEntity | null> {
    const { rows } = await this.pool.query<InviteEntity>(REVOKE_INVITE, [groupId, inviteId, at]);
    return rows[0] ?? null;
  }
}
