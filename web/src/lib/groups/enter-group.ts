/**
 * Becoming a member on this browser, after creating a group or opening an invite: keep the membership,
 * make the group active, wait for its device copy and add the member to the document.
 */
import { defaultMemberColour } from '@quire/core/group';
import { activeGroup } from './active-group.svelte.ts';
import type { InviteRole } from './group-api-types.ts';
import type { GroupSession } from './group-session.svelte.ts';
import { randomId, strongerRole, type Membership } from './membership-records.ts';
import { memberships } from './memberships.svelte.ts';

export interface Entry {
  id: string;
  name: string;
  token: string;
  role: InviteRole;
  inviteId: string;
  displayName: string;
}

export async function enterGroup(entry: Entry): Promise<GroupSession> {
  const held = memberships.get(entry.id);
  // Opening a weaker invite of a group joined already keeps the stronger token.
  const keepHeld = held?.role === 'read-write' && entry.role === 'read-only';
  const memberId = held?.memberId ?? randomId();
  const membership: Membership = {
    id: entry.id,
    name: entry.name,
    token: keepHeld ? held.token : entry.token,
    role: held ? strongerRole(held.role, entry.role) : entry.role,
    memberId,
    displayName: entry.displayName,
    colour: held?.colour ?? defaultMemberColour(memberId),
    addedAt: held?.addedAt ?? new Date().toISOString(),
    inviteId: keepHeld ? held.inviteId : entry.inviteId,
  };
  memberships.put(membership);
  memberships.lastDisplayName = entry.displayName;
  const session = await activeGroup.activate(entry.id);
  if (!session) throw new Error('The group could not be opened on this browser; reload and try again.');
  await session.ready;
  // A read-only invite cannot write the member list; presence still shows the name.
  if (membership.role === 'read-write') {
    const refused = session.join();
    if (refused) throw new Error(refused);
  }
  return session;
}
