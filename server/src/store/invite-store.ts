import type { InviteRole } from '@quire/core';
import type { Database, Statement } from 'better-sqlite3';
import { settled } from './settled.ts';

export type { InviteRole };

export interface InviteEntity {
  id: string;
  groupId: string;
  role: InviteRole;
  createdAt: string;
  revokedAt: string | null;
  /** The display name the invite's maker gave; null for older invites and makers who gave none. */
  invitedBy: string | null;
}

/** An invite as written: only the hash of its secret is kept. */
export interface InviteRow {
  id: string;
  role: InviteRole;
  tokenHash: Buffer;
  createdAt: string;
  invitedBy: string | null;
}

export const INSERT_INVITE = `
  INSERT INTO group_invites (id, group_id, role, token_hash, created_at, invited_by)
  VALUES (?, ?, ?, ?, ?, ?)`;
const INVITE_COLUMNS = `
  id, group_id AS groupId, role, created_at AS createdAt, revoked_at AS revokedAt, invited_by AS invitedBy`;
const SELECT_INVITE_BY_HASH = `SELECT ${INVITE_COLUMNS} FROM group_invites WHERE token_hash = ?`;
const SELECT_INVITE = `SELECT ${INVITE_COLUMNS} FROM group_invites WHERE group_id = ? AND id = ?`;
const SELECT_INVITES = `SELECT ${INVITE_COLUMNS} FROM group_invites WHERE group_id = ? ORDER BY created_at, id`;
const REVOKE_INVITE = `
  UPDATE group_invites SET revoked_at = ? WHERE group_id = ? AND id = ? AND revoked_at IS NULL`;

/** INSERT_INVITE's parameters, in order (both engines' statements take the same). */
export type InsertInviteValues = [string, string, InviteRole, Buffer, string, string | null];

export function insertInviteValues(groupId: string, invite: InviteRow): InsertInviteValues {
  return [invite.id, groupId, invite.role, invite.tokenHash, invite.createdAt, invite.invitedBy];
}

/** The invite capabilities of groups, found by the hash of their secret. */
export interface InviteStore {
  add(groupId: string, invite: InviteRow): Promise<void>;
  byHash(tokenHash: Buffer): Promise<InviteEntity | null>;
  get(groupId: string, inviteId: string): Promise<InviteEntity | null>;
  list(groupId: string): Promise<InviteEntity[]>;
  /** Stamps `at` on the invite unless it is revoked already; the invite as it is then, or null if none. */
  revoke(groupId: string, inviteId: string, at: string): Promise<InviteEntity | null>;
}

export class SqliteInviteStore implements InviteStore {
  readonly #insert: Statement<InsertInviteValues>;
  readonly #byHash: Statement<[Buffer], InviteEntity>;
  readonly #get: Statement<[string, string], InviteEntity>;
  readonly #list: Statement<[string], InviteEntity>;
  readonly #revoke: Statement<[string, string, string]>;

  constructor(db: Database) {
    this.#insert = db.prepare(INSERT_INVITE);
    this.#byHash = db.prepare(SELECT_INVITE_BY_HASH);
    this.#get = db.prepare(SELECT_INVITE);
    this.#list = db.prepare(SELECT_INVITES);
    this.#revoke = db.prepare(REVOKE_INVITE);
  }

  add(groupId: string, invite: InviteRow): Promise<void> {
    return settled(() => {
      this.#insert.run(...insertInviteValues(groupId, invite));
    });
  }

  byHash(tokenHash: Buffer): Promise<InviteEntity | null> {
    return settled(() => this.#byHash.get(tokenHash) ?? null);
  }

  get(groupId: string, inviteId: string): Promise<InviteEntity | null> {
    return settled(() => this.#get.get(groupId, inviteId) ?? null);
  }

  list(groupId: string): Promise<InviteEntity[]> {
    return settled(() => this.#list.all(groupId));
  }

  revoke(groupId: string, inviteId: string, at: string): Promise<InviteEntity | null> {
    return settled(() => {
      this.#revoke.run(at, groupId, inviteId);
      return this.#get.get(groupId, inviteId) ?? null;
    });
  }
}
