/** What an invite lets its holder do; the server decides by the stored invite, never by the client. */
export type InviteRole = 'read-write' | 'read-only';

/* Request and response shapes of /api/groups, shared by the server and the web app. */

/** An invite as created: `token` and `link` are returned this once and never again. */
export interface CreatedInviteDto {
  id: string;
  role: InviteRole;
  token: string;
  /** `/join#<groupId>.<token>`: the secret rides in the fragment, which browsers never send. */
  link: string;
  createdAt: string;
}

/** POST /api/groups */
export interface CreatedGroupDto {
  id: string;
  name: string;
  createdAt: string;
  /** One read-write and one read-only invite. */
  invites: CreatedInviteDto[];
}

/** GET /api/groups/:id/invites lists these: no secrets, revoked ones included. */
export interface InviteDto {
  id: string;
  role: InviteRole;
  createdAt: string;
  revokedAt: string | null;
}

/** A group a token of POST /api/groups/mine opens; the strongest role wins when several open it. */
export interface MyGroupDto {
  id: string;
  name: string;
  createdAt: string;
  role: InviteRole;
  inviteId: string;
  /** Index of the token (in the request) that gives `role`. */
  tokenIndex: number;
}

/** A token of POST /api/groups/mine that opens nothing; the browser can forget it. */
export interface RefusedTokenDto {
  tokenIndex: number;
  reason: 'unknown' | 'revoked';
}

export interface MyGroupsDto {
  groups: MyGroupDto[];
  refused: RefusedTokenDto[];
}

/** DELETE /api/groups/:id/invites/:inviteId */
export interface RevokedInviteDto {
  invite: InviteDto;
  /** Live sync connections that used the invite and were closed (code 4410). */
  closedConnections: number;
}

/**
 * POST /api/invites/preview {groupId, token}: what the join page shows before the person types their name.
 * `invitedBy` is the name its maker gave (`memberName` when creating it); absent for invites that record none.
 */
export interface InvitePreviewDto {
  groupName: string;
  role: InviteRole;
  invitedBy?: string;
}
