import type { InvitePreviewDto } from '@quire/core';
import { Hono } from 'hono';
import { QuireError } from '../errors.ts';
import type { GroupService } from '../sync/group-service.ts';
import { perAddressLimit, sameSiteJson, type RateLimitOptions } from './request-guards.ts';

export interface InvitePreviewRoutesOptions {
  groups: GroupService;
  /** Previews allowed per client address; DEFAULT_PREVIEW_LIMIT when left out. */
  limit?: RateLimitOptions;
}

/**
 * Generous for people opening links (each join page asks once, and a test run joins many times from one
 * address); the secrets have 256 bits, so the limit bounds work, not guessing.
 */
export const DEFAULT_PREVIEW_LIMIT: RateLimitOptions = { perHour: 1200, burst: 120 };

/**
 * What an invite opens, for the join page before the person gives their name: the group's name, the
 * invite's role and who made it (when they gave their name), nothing else. Mounted at /api/invites. The secret travels in a POST body, never in a URL
 * (URLs land in server and proxy logs). A secret this server never issued, one of another group and a
 * group that does not exist all get the same 404 after the same two look-ups, so the answer says nothing
 * about which part was wrong; a revoked invite is told apart (401) because only its holder can ask.
 */
export function invitePreviewRoutes(options: InvitePreviewRoutesOptions): Hono {
  const { groups } = options;
  const app = new Hono();
  app.use('*', sameSiteJson());

  app.post(
    '/preview',
    perAddressLimit('invite checks', options.limit ?? DEFAULT_PREVIEW_LIMIT),
    async (c) => {
      const { groupId, token } = await previewRequest(c.req.raw);
      // Both look-ups always run, whichever would fail, so an unknown group and an unknown secret take the
      // same path.
      const [group, invite] = await Promise.all([groups.group(groupId), groups.inviteByToken(token)]);
      if (!group || !invite || invite.groupId !== group.id) {
        throw new QuireError(
          'not-found',
          'This invite does not open a group on this server: the link may be cut short or meant for another server.',
        );
      }
      if (invite.revokedAt !== null) {
        throw new QuireError('unauthorized', `This invite was revoked on ${invite.revokedAt}.`);
      }
      const preview: InvitePreviewDto = { groupName: group.name, role: invite.role };
      if (invite.invitedBy !== null) preview.invitedBy = invite.invitedBy;
      return c.json(preview);
    },
  );

  return app;
}

async function previewRequest(request: Request): Promise<{ groupId: string; token: string }> {
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    body = undefined;
  }
  const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const { groupId, token } = fields;
  if (typeof groupId !== 'string' || typeof token !== 'string' || groupId === '' || token === '') {
    throw new QuireError(
      'bad-input',
      'Send the invite link\'s two parts as {"groupId": "…", "token": "…"} (the link is /join#<groupId>.<token>).',
    );
  }
  return { groupId, token };
}
