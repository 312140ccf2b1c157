/**
 * The group's calendar feeds on the server: create one (any member), list and revoke them (a read-write
 * member). The feed itself is fetched by the member's calendar app, not by this app.
 */
import type { CalendarFeedDto, CreatedCalendarFeedDto } from '@quire/core';
import { ApiError } from '../api/api-error.ts';
import type { Fetch } from '../api/client.ts';

async function call<T>(
  fetchFn: Fetch,
  method: string,
  path: string,
  token: string,
  doing: string,
): Promise<T> {
  let res: Response;
  try {
    res = await fetchFn(path, {
      method,
      headers: {
        accept: 'application/json',
        authorization: `Bearer ${token}`,
        ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
      },
      body: method === 'POST' ? '{}' : null,
    });
  } catch {
    throw new ApiError(
      'unreachable',
      0,
      'unreachable',
      `Could not ${doing}: the Quire server cannot be reached.`,
    );
  }
  const answer = (await res.json().catch(() => null)) as { error?: unknown; message?: unknown } | null;
  if (res.ok && answer !== null) return answer as T;
  if (answer && typeof answer.error === 'string' && typeof answer.message === 'string') {
    throw new ApiError('server', res.status, answer.error, `Could not ${doing}: ${answer.message}`);
  }
  throw new ApiError(
    'bad-response',
    res.status,
    `http-${res.status}`,
    `Could not ${doing}: HTTP ${res.status}.`,
  );
}

const feedsPath = (groupId: string): string => `/api/groups/${encodeURIComponent(groupId)}/calendar-feeds`;

export function createCalendarFeed(
  fetchFn: Fetch,
  groupId: string,
  token: string,
): Promise<CreatedCalendarFeedDto> {
  return call(fetchFn, 'POST', feedsPath(groupId), token, 'create the calendar link');
}

export async function listCalendarFeeds(
  fetchFn: Fetch,
  groupId: string,
  token: string,
): Promise<CalendarFeedDto[]> {
  const answer = await call<{ feeds: CalendarFeedDto[] }>(
    fetchFn,
    'GET',
    feedsPath(groupId),
    token,
    'list the calendar links',
  );
  return answer.feeds;
}

export async function revokeCalendarFeed(
  fetchFn: Fetch,
  groupId: string,
  token: string,
  feedId: string,
): Promise<CalendarFeedDto> {
  const answer = await call<{ feed: CalendarFeedDto }>(
    fetchFn,
    'DELETE',
    `${feedsPath(groupId)}/${encodeURIComponent(feedId)}`,
    token,
    'revoke the calendar link',
  );
  return answer.feed;
}
