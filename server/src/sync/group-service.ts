import type { InviteRole } from '@quire/core';
import type { GroupEntity, GroupStore } from '../store/group-store.ts';
import type { InviteEntity, InviteRow, InviteStore } from '../store/invite-store.ts';
import { hashInviteToken, isWellFormedToken, newId, newInviteToken } from './invite-token.ts';

export type { GroupEntity, InviteEntity, InviteRole };
export const INVITE_ROLES: readonly InviteRole[] = ['read-write', 'read-only'];

/** An invite as created: the only time its secret exists outside the link. */
export interface NewInviteEntity extends InviteEntity {
  token: string;
}

export type AccessRefusal = 'unauthorized' | 'unknown-group' | 'revoked';

export type GroupAccess =
  { ok: true; group: GroupEntity; invite: InviteEntity } | { ok: false; refusal: AccessRefusal };

export interface GroupServiceOptions {
  /** The clock stamped on writes; tests pass a fixed one. */
  now?: () => Date;
}

/** Groups and their invite capabilities. Secrets are generated here and only their hashes are stored. */
export class GroupService {
  readonly #now: () => Date;

  constructor(
    private readonly groups: GroupStore,
    private readonly invitesStore: InviteStore,
    options: GroupServiceOptions = {},
  ) {
    this.#now = options.now ?? (() => new Date());
  }

  /**
   * A new group with one read-write and one read-only invite, written together. `invitedBy` is the name
   * its maker gives themselves in the group, recorded on both invites for the join page.
   */
  async createGroup(
    name: string,
    invitedBy: string | null = null,
  ): Promise<{ group: GroupEntity; invites: NewInviteEntity[] }> {
    const group: GroupEntity = { id: newId(), name, createdAt: this.#now().toISOString() };
    const made = INVITE_ROLES.map((role) => this.#newInvite(role, invitedBy));
    await this.groups.create(
      group,
      made.map((m) => m.row),
    );
    return { group, invites: made.map((m) => this.#created(group.id, m.row, m.token)) };
  }

  group(id: string): Promise<GroupEntity | null> {
    return this.groups.get(id);
  }

  /** `invitedBy`: the maker's name in the group, for the join page (null when they gave none). */
  async createInvite(
    groupId: string,
    role: InviteRole,
    invitedBy: string | null = null,
  ): Promise<NewInviteEntity> {
    const { row, token } = this.#newInvite(role, invitedBy);
    await this.invitesStore.add(groupId, row);
    return this.#created(groupId, row, token);
  }

  invites(groupId: string): Promise<InviteEntity[]> {
    return this.invitesStore.list(groupId);
  }

  invite(groupId: string, inviteId: string): Promise<InviteEntity | null> {
    return this.invitesStore.get(groupId, inviteId);
  }

  /** Marks the invite revoked; revoking twice keeps the first time. Null when the group has no such invite. */
  revokeInvite(groupId: string, inviteId: string): Promise<InviteEntity | null> {
    return this.invitesStore.revoke(groupId, inviteId, this.#now().toISOString());
  }

  /** The invite a secret belongs to, revoked or not; null for a secret this server never issued. */
  async inviteByToken(token: unknown): Promise<InviteEntity | null> {
    if (!isWellFormedToken(token)) return null;
    return this.invitesStore.byHash(hashInviteToken(token));
  }

  /**
   * Whether `token` opens `groupId`. The role comes from the stored invite alone: nothing a client
   * says about itself takes part in the decision.
   */
  async authorize(groupId: string, token: unknown): Promise<GroupAccess> {
    if (!isWellFormedToken(token)) return { ok: false, refusal: 'unauthorized' };
    const group = await this.group(groupId);
    if (!group) return { ok: false, refusal: 'unknown-group' };
    const invite = await this.inviteByToken(token);
    if (!invite || invite.groupId !== groupId) return { ok: false, refusal: 'unauthorized' };
    if (invite.revokedAt !== null) return { ok: false, refusal: 'revoked' };
    return { ok: true, group, invite };
  }

  #newInvite(role: InviteRole, invitedBy: string | null): { row: InviteRow; token: string } {
    const token = newInviteToken();
    const row: InviteRow = {
      id: newId(9),
      role,
      tokenHash: hashInviteToken(token),
      createdAt: this.#now().toISOString(),
      invitedBy,
    };
    return { row, token };
  }

  #created(groupId: string, row: InviteRow, token: string): NewInviteEntity {
    const { id, role, createdAt, invitedBy } = row;
    return { id, groupId, role, createdAt, revokedAt: null, invitedBy, token };
  }
}

/** The group service over a store's groups and invites. */
export function groupServiceOver(
  store: { groups: GroupStore; invites: InviteStore },
  options: GroupServiceOptions = {},
): GroupService {
  return new GroupService(store.groups, store.invites, options);
}
