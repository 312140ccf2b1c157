/**
 * Invite links: `<origin>/join#<groupId>.<token>`. Both parts are base64url, which has no ".", so the
 * first "." separates them. The secret sits in the fragment, which browsers never send to a server.
 */

export interface InviteParts {
  groupId: string;
  token: string;
}

const PART = /^[A-Za-z0-9_-]+$/;

/**
 * The group and token of an invite, from a fragment ("#g.t"), a path ("/join#g.t") or a whole pasted link;
 * null when it does not have that shape (a link cut short when copied, most often).
 */
export function parseInvite(text: string): InviteParts | null {
  const trimmed = text.trim();
  const hash = trimmed.indexOf('#');
  const fragment = hash === -1 ? trimmed : trimmed.slice(hash + 1);
  const dot = fragment.indexOf('.');
  if (dot === -1) return null;
  const groupId = fragment.slice(0, dot);
  const token = fragment.slice(dot + 1);
  return PART.test(groupId) && PART.test(token) ? { groupId, token } : null;
}

/** The full link to share, from the path the server answers (`/join#…`). */
export function inviteUrl(origin: string, linkPath: string): string {
  return new URL(linkPath, origin).href;
}
