/**
 * The group endpoints of the server (/api/groups). Only creating groups and managing invites go through
 * HTTP; the group's content is synced over the websocket and never passes through here.
 */
import { ApiError } from '../api/api-error.ts';
import type { Fetch } from '../api/client.ts';
import type {
  CreatedGroupDto,
  CreatedInviteDto,
  InviteDto,
  InviteRole,
  MyGroupsDto,
  RevokedInviteDto,
} from './group-api-types.ts';

interface Call {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  body?: unknown;
  /** A read-write invite token of the group, for managing its invites. */
  token?: string;
  /** What was being done, for the error sentence ("create the group"). */
  doing: string;
}

async function call<T>(fetchFn: Fetch, { method, path, body, token, doing }: Call): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  let res: Response;
  try {
    res = await fetchFn(path, {
      method,
      headers,
      body: body === undefined ? null : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(
      'unreachable',
      0,
      'unreachable',
      `Could not ${doing}: the Quire server cannot be reached. Check your connection and try again.`,
    );
  }
  let answer: unknown = null;
  try {
    answer = await res.json();
  } catch {
    // Judged by the status below.
  }
  if (res.ok && answer !== null) return answer as T;
  const server = answer as { error?: unknown; message?: unknown } | null;
  if (server && typeof server.error === 'string' && typeof server.message === 'string') {
    throw new ApiError('server', res.status, server.error, `Could not ${doing}: ${server.message}`);
  }
  throw new ApiError(
    'bad-response',
    res.status,
    `http-${res.status}`,
    `Could not ${doing}: the server answered HTTP ${res.status}. Is this a Quire server with groups enabled?`,
  );
}

/** `memberName`: the maker's name in the group, which its invites carry to the join page ("Ana invited you"). */
export function createGroup(fetchFn: Fetch, name: string, memberName?: string): Promise<CreatedGroupDto> {
  return call(fetchFn, {
    method: 'POST',
    path: '/api/groups',
    body: { name, memberName },
    doing: 'create the group',
  });
}

/** Which of these invite tokens still open a group, and which were revoked or never existed. */
export function myGroups(fetchFn: Fetch, tokens: readonly string[]): Promise<MyGroupsDto> {
  return call(fetchFn, {
    method: 'POST',
    path: '/api/groups/mine',
    body: { tokens },
    doing: 'check your invites',
  });
}

function invitesPath(groupId: string): string {
  return `/api/groups/${encodeURIComponent(groupId)}/invites`;
}

export async function listInvites(fetchFn: Fetch, groupId: string, token: string): Promise<InviteDto[]> {
  const answer = await call<{ invites: InviteDto[] }>(fetchFn, {
    method: 'GET',
    path: invitesPath(groupId),
    token,
    doing: 'list the invites',
  });
  return answer.invites;
}

export function createInvite(
  fetchFn: Fetch,
  groupId: string,
  token: string,
  role: InviteRole,
  memberName?: string,
): Promise<CreatedInviteDto> {
  return call(fetchFn, {
    method: 'POST',
    path: invitesPath(groupId),
    body: { role, memberName },
    token,
    doing: 'create the invite',
  });
}

export function revokeInvite(
  fetchFn: Fetch,
  groupId: string,
  token: string,
  inviteId: string,
): Promise<RevokedInviteDto> {
  return call(fetchFn, {
    method: 'DELETE',
    path: `${invitesPath(groupId)}/${encodeURIComponent(inviteId)}`,
    token,
    doing: 'revoke the invite',
  });
}
