/**
 * What an invite link opens, asked of the server before the person joins (POST /api/invites/preview): the
 * group's name and the invite's role. The secret goes in the body, never in a URL that could be logged.
 */
import type { InvitePreviewDto } from '@quire/core';
import type { Fetch } from '../api/client.ts';
import type { InviteParts } from './invite-link.ts';

export type InvitePreview =
  | { kind: 'ok'; preview: InvitePreviewDto }
  /** The server has no such invite (or no such group): the link is cut short, mistyped or for elsewhere. */
  | { kind: 'unknown' }
  | { kind: 'revoked' }
  /** The server could not be asked or answered oddly; joining may still work later. */
  | { kind: 'unavailable'; offline: boolean };

export async function previewInvite(fetchFn: Fetch, invite: InviteParts): Promise<InvitePreview> {
  let res: Response;
  try {
    res = await fetchFn('/api/invites/preview', {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify({ groupId: invite.groupId, token: invite.token }),
    });
  } catch {
    return { kind: 'unavailable', offline: true };
  }
  if (res.status === 404) return { kind: 'unknown' };
  if (res.status === 401) return { kind: 'revoked' };
  if (!res.ok) return { kind: 'unavailable', offline: false };
  try {
    const answer = (await res.json()) as Partial<InvitePreviewDto>;
    if (
      typeof answer.groupName === 'string' &&
      (answer.role === 'read-write' || answer.role === 'read-only')
    ) {
      return { kind: 'ok', preview: answer as InvitePreviewDto };
    }
  } catch {
    // Judged below: not the answer of a Quire server.
  }
  return { kind: 'unavailable', offline: false };
}
