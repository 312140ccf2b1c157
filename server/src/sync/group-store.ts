import type { Database, Statement } from 'better-sqlite3';
import type { InviteRole } from '@quire/core';
import { hashInviteToken, isWellFormedToken, newId, newInviteToken } from './invite-token.ts';

export type { InviteRole };
export const INVITE_ROLES: readonly InviteRole[] = ['read-write', 'read-only'];

export interface GroupEntity {
  id: string;
  name: string;
  createdAt: string;
}

export interface InviteEntity {
  id: string;
  groupId: string;
  role: InviteRole;
  createdAt: string;
  revokedAt: string | null;
}

/** An invite as created: the only time its secret exists outside the link. */
export interface NewInviteEntity extends InviteEntity {
  token: string;
}

export type AccessRefusal = 'unauthorized' | 'unknown-group' | 'revoked';

export type GroupAccess =
  { ok: true; group: GroupEntity; invite: InviteEntity } | { ok: false; refusal: AccessRefusal };

const INSERT_GROUP = `INSERT INTO groups (id, name, created_at) VALUES (?, ?, ?)`;
const SELECT_GROUP = `SELECT id, name, created_at AS createdAt FROM groups WHERE id = ?`;
const INSERT_INVITE = `
  INSERT INTO group_invites (id, group_id, role, token_hash, created_at) VALUES (?, ?, ?, ?, ?)`;
const INVITE_COLUMNS = `id, group_id AS groupId, role, created_at AS createdAt, revoked_at AS revokedAt`;
const SELECT_INVITE_BY_HASH = `SELECT ${INVITE_COLUMNS} FROM group_invites WHERE token_hash = ?`;
const SELECT_INVITE = `SELECT ${INVITE_COLUMNS} FROM group_invites WHERE group_id = ? AND id = ?`;
const SELECT_INVITES = `SELECT ${INVITE_COLUMNS} FROM group_invites WHERE group_id = ? ORDER BY created_at, id`;
const REVOKE_INVITE = `
  UPDATE group_invites SET revoked_at = ? WHERE group_id = ? AND id = ? AND revoked_at IS NULL`;

export interface GroupStoreOptions {
  /** The clock stamped on writes; tests pass a fixed one. */
  now?: () => Date;
}

/** Groups and their invite capabilities. Secrets are generated here and only their hashes are kept. */
export class GroupStore {
  private readonly now: () => Date;
  private readonly insertGroup: Statement<[string, string, string]>;
  private readonly selectGroup: Statement<[string], GroupEntity>;
  private readonly insertInvite: Statement<[string, string, InviteRole, Buffer, string]>;
  private readonly selectInviteByHash: Statement<[Buffer], InviteEntity>;
  private readonly selectInvite: Statement<[string, string], InviteEntity>;
  private readonly selectInvites: Statement<[string], InviteEntity>;
  private readonly revoke: Statement<[string, string, string]>;

  constructor(
    private readonly db: Database,
    options: GroupStoreOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
    this.insertGroup = db.prepare(INSERT_GROUP);
    this.selectGroup = db.prepare(SELECT_GROUP);
    this.insertInvite = db.prepare(INSERT_INVITE);
    this.selectInviteByHash = db.prepare(SELECT_INVITE_BY_HASH);
    this.selectInvite = db.prepare(SELECT_INVITE);
    this.selectInvites = db.prepare(SELECT_INVITES);
    this.revoke = db.prepare(REVOKE_INVITE);
  }

  /** A new group with one read-write and one read-only invite, written together. */
  createGroup(name: string): { group: GroupEntity; invites: NewInviteEntity[] } {
    return this.db.transaction(() => {
      const group: GroupEntity = { id: newId(), name, createdAt: this.now().toISOString() };
      this.insertGroup.run(group.id, group.name, group.createdAt);
      const invites = INVITE_ROLES.map((role) => this.createInvite(group.id, role));
      return { group, invites };
    })();
  }

  group(id: string): GroupEntity | null {
    return this.selectGroup.get(id) ?? null;
  }

  createInvite(groupId: string, role: InviteRole): NewInviteEntity {
    const token = newInviteToken();
    const invite: InviteEntity = {
      id: newId(9),
      groupId,
      role,
      createdAt: this.now().toISOString(),
      revokedAt: null,
    };
    this.insertInvite.run(invite.id, groupId, role, hashInviteToken(token), invite.createdAt);
    return { ...invite, token };
  }

  invites(groupId: string): InviteEntity[] {
    return this.selectInvites.all(groupId);
  }

  invite(groupId: string, inviteId: string): InviteEntity | null {
    return this.selectInvite.get(groupId, inviteId) ?? null;
  }

  /** Marks the invite revoked; revoking twice keeps the first time. Null when the group has no such invite. */
  revokeInvite(groupId: string, inviteId: string): InviteEntity | null {
    this.revoke.run(this.now().toISOString(), groupId, inviteId);
    return this.invite(groupId, inviteId);
  }

  /** The invite a secret belongs to, revoked or not; null for a secret this server never issued. */
  inviteByToken(token: unknown): InviteEntity | null {
    if (!isWellFormedToken(token)) return null;
    return this.selectInviteByHash.get(hashInviteToken(token)) ?? null;
  }

  /**
   * Whether `token` opens `groupId`. The role comes from the stored invite alone: nothing a client
   * says about itself takes part in the decision.
   */
  authorize(groupId: string, token: unknown): GroupAccess {
    if (!isWellFormedToken(token)) return { ok: false, refusal: 'unauthorized' };
    const group = this.group(groupId);
    if (!group) return { ok: false, refusal: 'unknown-group' };
    const invite = this.inviteByToken(token);
    if (!invite || invite.groupId !== groupId) return { ok: false, refusal: 'unauthorized' };
    if (invite.revokedAt !== null) return { ok: false, refusal: 'revoked' };
    return { ok: true, group, invite };
  }
}
