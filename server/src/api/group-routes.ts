import { Hono, type Context } from 'hono';
import { QuireError } from '../errors.ts';
import type {
  CreatedGroupDto,
  CreatedInviteDto,
  InviteDto,
  MyGroupDto,
  MyGroupsDto,
  RefusedTokenDto,
  RevokedInviteDto,
} from '@quire/core';
import {
  INVITE_ROLES,
  type GroupEntity,
  type GroupService,
  type InviteEntity,
  type InviteRole,
  type NewInviteEntity,
} from '../sync/group-service.ts';
import { inviteLinkPath } from '../sync/invite-token.ts';
import { DEFAULT_PREVIEW_LIMIT } from './invite-preview-routes.ts';
import { perAddressLimit, sameSiteJson, type RateLimitOptions } from './request-guards.ts';

export interface GroupRoutesOptions {
  groups: GroupService;
  /** Closes the live sync connections of a revoked invite; returns how many it closed. */
  onInviteRevoked?: (invite: InviteEntity) => number;
  /** Group creations allowed per client address; DEFAULT_CREATE_LIMIT when left out. */
  createLimit?: RateLimitOptions;
  /** Look-ups of held tokens (POST /mine) per client address; the invite preview's limit when left out. */
  mineLimit?: RateLimitOptions;
}

const MAX_NAME_LENGTH = 120;
/** As core's member names (group/members.ts). */
const MAX_MEMBER_NAME_LENGTH = 80;
/** Enough for a lab starting its groups (and the sync benchmark's 20); not for a script making thousands. */
export const DEFAULT_CREATE_LIMIT: RateLimitOptions = { perHour: 120, burst: 30 };
/** More tokens than a person plausibly holds; bounds the work of one request. */
const MAX_TOKENS = 200;

/**
 * Groups and invites, mounted at /api/groups. The group documents themselves never pass through here:
 * they are synced over /yjs/<groupId>. Managing invites takes a read-write invite token of the group as
 * a bearer token; the role is the stored invite's, whatever the request claims.
 */
export function groupRoutes(options: GroupRoutesOptions): Hono {
  const { groups } = options;
  const app = new Hono();
  app.use('*', sameSiteJson());

  app.post('/', perAddressLimit('new groups', options.createLimit ?? DEFAULT_CREATE_LIMIT), async (c) => {
    const body = await jsonBody(c);
    const name = typeof body.name === 'string' ? body.name.trim() : '';
    if (name.length === 0 || name.length > MAX_NAME_LENGTH) {
      throw new QuireError(
        'bad-input',
        `Send the group's name as {"name": "…"}, 1 to ${MAX_NAME_LENGTH} characters.`,
      );
    }
    const { group, invites } = await groups.createGroup(name, memberName(body));
    const created: CreatedGroupDto = { ...groupDto(group), invites: invites.map(createdInviteDto) };
    return c.json(created, 201);
  });

  // It tells a group's name and one's role for a token, as the invite preview does: limited the same way
  // (its own bucket, so a device refreshing its groups does not use up the join page's).
  app.post(
    '/mine',
    perAddressLimit('group look-ups', options.mineLimit ?? DEFAULT_PREVIEW_LIMIT),
    async (c) => {
      const { tokens } = await jsonBody(c);
      if (!Array.isArray(tokens) || tokens.length > MAX_TOKENS) {
        throw new QuireError(
          'bad-input',
          `Send the invite tokens you hold as {"tokens": ["…"]}, at most ${MAX_TOKENS}.`,
        );
      }
      const best = new Map<string, MyGroupDto>();
      const refused: RefusedTokenDto[] = [];
      for (const [tokenIndex, token] of (tokens as unknown[]).entries()) {
        const invite = await groups.inviteByToken(token);
        const group = invite && (await groups.group(invite.groupId));
        if (!invite || !group) refused.push({ tokenIndex, reason: 'unknown' });
        else if (invite.revokedAt !== null) refused.push({ tokenIndex, reason: 'revoked' });
        else if (
          !best.has(group.id) ||
          (invite.role === 'read-write' && best.get(group.id)?.role !== 'read-write')
        ) {
          best.set(group.id, { ...groupDto(group), role: invite.role, inviteId: invite.id, tokenIndex });
        }
      }
      const mine: MyGroupsDto = { groups: [...best.values()], refused };
      return c.json(mine);
    },
  );

  app.post('/:id/invites', async (c) => {
    const groupId = await requireWriter(c, groups);
    const body = await jsonBody(c);
    const { role } = body;
    if (!INVITE_ROLES.includes(role as InviteRole)) {
      throw new QuireError(
        'bad-input',
        `Send the new invite's role as {"role": "read-write"} or {"role": "read-only"}.`,
      );
    }
    const made = await groups.createInvite(groupId, role as InviteRole, memberName(body));
    return c.json(createdInviteDto(made), 201);
  });

  app.get('/:id/invites', async (c) => {
    const groupId = await requireWriter(c, groups);
    return c.json({ invites: (await groups.invites(groupId)).map(inviteDto) });
  });

  app.delete('/:id/invites/:inviteId', async (c) => {
    const groupId = await requireWriter(c, groups);
    const inviteId = c.req.param('inviteId');
    const revoked = await groups.revokeInvite(groupId, inviteId);
    if (!revoked) {
      throw new QuireError(
        'not-found',
        `Group ${groupId} has no invite ${inviteId}; GET /api/groups/${groupId}/invites lists them.`,
      );
    }
    const closedConnections = options.onInviteRevoked?.(revoked) ?? 0;
    const answer: RevokedInviteDto = { invite: inviteDto(revoked), closedConnections };
    return c.json(answer);
  });

  return app;
}

/** The group id of the request when its bearer token is a live read-write invite of that group. */
async function requireWriter(c: Context, groups: GroupService): Promise<string> {
  const groupId = c.req.param('id') ?? '';
  const header = c.req.header('Authorization') ?? '';
  const token = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
  const how = `send a read-write invite token of group ${groupId} as "Authorization: Bearer <token>"`;
  if (!token) throw new QuireError('unauthorized', `This needs an invite token: ${how}.`);
  const access = await groups.authorize(groupId, token);
  if (!access.ok) {
    if (access.refusal === 'unknown-group') {
      throw new QuireError('not-found', `No group ${groupId} on this server; check the invite link.`);
    }
    if (access.refusal === 'revoked') {
      throw new QuireError('unauthorized', `This invite was revoked; ${how}.`);
    }
    throw new QuireError('unauthorized', `This token does not open group ${groupId}; ${how}.`);
  }
  if (access.invite.role !== 'read-write') {
    throw new QuireError('forbidden', `A read-only invite cannot manage invites; ${how}.`);
  }
  return groupId;
}

/**
 * The name the requester has in the group (`memberName`), recorded on the invites they make so the join page
 * can say who invited; null when left out. It is for people to read, like members' names in the group
 * document: any read-write member may write those too, so nothing is decided by it.
 */
function memberName(body: Record<string, unknown>): string | null {
  const given = body.memberName;
  if (given === undefined || given === null) return null;
  const name = typeof given === 'string' ? given.trim() : '';
  if (name.length === 0 || name.length > MAX_MEMBER_NAME_LENGTH) {
    throw new QuireError(
      'bad-input',
      `Send your name in the group as {"memberName": "…"}, 1 to ${MAX_MEMBER_NAME_LENGTH} characters, or leave it out.`,
    );
  }
  return name;
}

async function jsonBody(c: Context): Promise<Record<string, unknown>> {
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    body = undefined;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new QuireError('bad-input', 'Send a JSON object as the request body.');
  }
  return body as Record<string, unknown>;
}

function groupDto(group: GroupEntity): { id: string; name: string; createdAt: string } {
  return { id: group.id, name: group.name, createdAt: group.createdAt };
}

function createdInviteDto(invite: NewInviteEntity): CreatedInviteDto {
  return {
    id: invite.id,
    role: invite.role,
    token: invite.token,
    link: inviteLinkPath(invite.groupId, invite.token),
    createdAt: invite.createdAt,
  };
}

function inviteDto(invite: InviteEntity): InviteDto {
  return { id: invite.id, role: invite.role, createdAt: invite.createdAt, revokedAt: invite.revokedAt };
}
