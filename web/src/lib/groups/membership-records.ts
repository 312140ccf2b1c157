/**
 * What this browser keeps about the groups it joined (in localStorage): the invite token is the only key
 * to a group, so losing it means asking for a new invite. Pure parsing, so it is tested without a browser.
 */
import type { InviteRole, MyGroupsDto } from './group-api-types.ts';
import { parseStoredList } from '../managers/local-store.ts';

export interface Membership {
  /** The group id (the server's). */
  id: string;
  /** The group's name, as the server last said. */
  name: string;
  /** The invite secret this browser joined with. */
  token: string;
  role: InviteRole;
  /** This browser's member id in the group document: random, made once per group. */
  memberId: string;
  displayName: string;
  /** "#rrggbb". */
  colour: string;
  /** ISO time this browser joined. */
  addedAt: string;
  /** The server's id of the invite joined with, so the Invites tab can say which one is ours. */
  inviteId?: string;
}

function isMembership(value: unknown): value is Membership {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    ['id', 'name', 'token', 'memberId', 'displayName', 'colour', 'addedAt'].every(
      (key) => typeof v[key] === 'string' && v[key] !== '',
    ) &&
    (v.role === 'read-write' || v.role === 'read-only')
  );
}

/** The stored list, once per group, dropping anything malformed rather than failing every page. */
export function parseMemberships(raw: string | null): Membership[] {
  return parseStoredList(raw, isMembership);
}

/** A random id for a member or a comment: UUIDs need a secure context, which a LAN server over http is not. */
export function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** read-write outranks read-only: joining again with a stronger invite upgrades, never downgrades. */
export function strongerRole(a: InviteRole, b: InviteRole): InviteRole {
  return a === 'read-write' || b === 'read-write' ? 'read-write' : 'read-only';
}

export interface Refreshed {
  /** The memberships to keep, with names and roles as the server says now. */
  kept: Membership[];
  /** Ids of the groups whose token opens nothing any more. */
  gone: string[];
  /** A sentence for each group dropped. */
  notes: string[];
}

/**
 * Applies the server's answer to POST /api/groups/mine (asked with `asked`' tokens, in order) to the
 * memberships held now, which may have gained a group while the request was out.
 */
export function applyMine(
  asked: readonly Membership[],
  held: readonly Membership[],
  answer: MyGroupsDto,
): Refreshed {
  const gone: string[] = [];
  const notes: string[] = [];
  for (const refusal of answer.refused) {
    const m = asked[refusal.tokenIndex];
    if (!m || answer.groups.some((g) => g.id === m.id)) continue;
    // Joined again with a new invite meanwhile: the old token's refusal says nothing about the new one.
    if (held.find((h) => h.id === m.id)?.token !== m.token) continue;
    gone.push(m.id);
    notes.push(
      refusal.reason === 'revoked'
        ? `Your invite to “${m.name}” was revoked, so it was removed from this browser. Ask a member for a new invite link.`
        : `“${m.name}” is not on this server any more, so it was removed from this browser. Check the invite link with its members.`,
    );
  }
  const kept = held.flatMap((m) => {
    if (gone.includes(m.id)) return [];
    const g = answer.groups.find((x) => x.id === m.id);
    return [g ? { ...m, name: g.name, role: g.role, inviteId: g.inviteId } : m];
  });
  return { kept, gone, notes };
}
