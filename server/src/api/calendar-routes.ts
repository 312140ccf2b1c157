/**
 * Calendar feeds, mounted at /api: a member makes a private feed address for the group
 * (POST /groups/<id>/calendar-feeds, any live invite of the group as the bearer token: a feed reads what a
 * read-only member reads); read-write members list and revoke them; a calendar app fetches
 * GET /calendar/<secret>.ics with no other credential. The feed is built from the group's document as
 * the update log holds it (every update is in the log before any peer sees it), read through core.
 */
import type { CalendarFeedDto, CalendarFeedsDto, CreatedCalendarFeedDto } from '@quire/core';
import { Hono, type Context } from 'hono';
import * as Y from 'yjs';
import { QuireError } from '../errors.ts';
import type { CalendarFeedEntity, CalendarFeedStore } from '../store/calendar-feeds.ts';
import type { UpdateLog } from '../store/update-log-store.ts';
import type { GroupService } from '../sync/group-service.ts';
import { hashInviteToken, isWellFormedToken, newId, newInviteToken } from '../sync/invite-token.ts';
import { meetingsCalendar } from './calendar-ics.ts';
import { sameSiteJson } from './request-guards.ts';

export interface CalendarRoutesOptions {
  groups: GroupService;
  updates: UpdateLog;
  feeds: CalendarFeedStore;
  /** The clock that decides which meetings are listed and whether voting has closed; tests pass one. */
  now?: () => Date;
}

const FEED_FILE = /^([A-Za-z0-9_-]{43})\.ics$/;

export function calendarRoutes(options: CalendarRoutesOptions): Hono {
  const { groups, feeds } = options;
  const now = options.now ?? (() => new Date());
  const app = new Hono();
  app.use('/groups/*', sameSiteJson());

  app.post('/groups/:id/calendar-feeds', async (c) => {
    const { groupId, inviteId } = await requireMember(c, groups, false);
    const token = newInviteToken();
    const row = { id: newId(9), inviteId, tokenHash: hashInviteToken(token), createdAt: now().toISOString() };
    await feeds.add(groupId, row);
    const created: CreatedCalendarFeedDto = {
      id: row.id,
      createdAt: row.createdAt,
      revokedAt: null,
      path: `/api/calendar/${token}.ics`,
    };
    return c.json(created, 201);
  });

  app.get('/groups/:id/calendar-feeds', async (c) => {
    const { groupId } = await requireMember(c, groups, true);
    const answer: CalendarFeedsDto = { feeds: (await feeds.list(groupId)).map(feedDto) };
    return c.json(answer);
  });

  app.delete('/groups/:id/calendar-feeds/:feedId', async (c) => {
    const { groupId } = await requireMember(c, groups, true);
    const feedId = c.req.param('feedId');
    const revoked = await feeds.revoke(groupId, feedId, now().toISOString());
    if (!revoked) {
      throw new QuireError(
        'not-found',
        `Group ${groupId} has no calendar link ${feedId}; GET /api/groups/${groupId}/calendar-feeds lists them.`,
      );
    }
    return c.json({ feed: feedDto(revoked) });
  });

  app.get('/calendar/:file', async (c) => {
    const secret = FEED_FILE.exec(c.req.param('file'))?.[1];
    const feed = secret && isWellFormedToken(secret) ? await feeds.byHash(hashInviteToken(secret)) : null;
    const group = feed ? await groups.group(feed.groupId) : null;
    if (!feed || !group) {
      throw new QuireError(
        'not-found',
        'This calendar link does not exist on this server; ask a member of the group for the current one.',
      );
    }
    const invite = await groups.invite(feed.groupId, feed.inviteId);
    if (feed.revokedAt !== null || !invite || invite.revokedAt !== null) {
      throw new QuireError(
        'unauthorized',
        'This calendar link was revoked (or the invite it was made with was); make a new one in the group’s Meeting tab.',
      );
    }
    const doc = await groupDoc(options.updates, group.id);
    try {
      const body = meetingsCalendar(doc, {
        groupId: group.id,
        groupName: group.name,
        origin: new URL(c.req.url).origin,
        now: now(),
      });
      return c.body(body, 200, {
        'Content-Type': 'text/calendar; charset=utf-8',
        'Content-Disposition': 'inline; filename="meetings.ics"',
        // The address is the credential: keep it out of shared caches.
        'Cache-Control': 'private, max-age=300',
      });
    } finally {
      doc.destroy();
    }
  });

  return app;
}

/** The group's document from its update log; a row Yjs cannot apply is skipped, as the sync server does. */
async function groupDoc(updates: UpdateLog, groupId: string): Promise<Y.Doc> {
  const doc = new Y.Doc();
  for (const row of await updates.load(groupId)) {
    try {
      Y.applyUpdate(doc, row.data);
    } catch {
      // The sync server logs such a row when it loads the group; the feed shows what the others hold.
    }
  }
  return doc;
}

/** The group and invite of a request whose bearer token is a live invite of the group (read-write if asked). */
async function requireMember(
  c: Context,
  groups: GroupService,
  writer: boolean,
): Promise<{ groupId: string; inviteId: string }> {
  const groupId = c.req.param('id') ?? '';
  const token = /^Bearer\s+(\S+)$/i.exec(c.req.header('Authorization') ?? '')?.[1];
  const how = `send ${writer ? 'a read-write' : 'an'} invite token of group ${groupId} as "Authorization: Bearer <token>"`;
  if (!token) throw new QuireError('unauthorized', `Calendar links need an invite token: ${how}.`);
  const access = await groups.authorize(groupId, token);
  if (!access.ok) {
    if (access.refusal === 'unknown-group') {
      throw new QuireError('not-found', `No group ${groupId} on this server; check the invite link.`);
    }
    const why =
      access.refusal === 'revoked' ? 'This invite was revoked' : `This token does not open group ${groupId}`;
    throw new QuireError('unauthorized', `${why}; ${how}.`);
  }
  if (writer && access.invite.role !== 'read-write') {
    throw new QuireError('forbidden', `A read-only invite cannot manage the group's calendar links; ${how}.`);
  }
  return { groupId, inviteId: access.invite.id };
}

function feedDto(feed: CalendarFeedEntity): CalendarFeedDto {
  return { id: feed.id, createdAt: feed.createdAt, revokedAt: feed.revokedAt };
}
