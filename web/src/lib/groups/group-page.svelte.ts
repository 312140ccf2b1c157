/**
 * What every page of one group does on opening: make the group the active one, open its session (kept by
 * group-sessions.ts), and tell the other members what this member is looking at while the page shows.
 */
import { untrack } from 'svelte';
import type { GroupSession } from './group-session.svelte.ts';
import { groupSessions } from './group-sessions.ts';
import type { Membership } from './membership-records.ts';
import { memberships } from './memberships.svelte.ts';
import type { Looking } from './presence.ts';

/**
 * Call while a page initialises. `membership` and `looking` are read in effects, so the session follows the
 * address and the presence follows the page's state; `current` is null until the group is known here.
 */
export function openGroupPage(
  membership: () => Membership | null,
  looking: () => Looking,
): { readonly current: GroupSession | null } {
  let session = $state.raw<GroupSession | null>(null);

  $effect(() => {
    const m = membership();
    if (!m) return;
    // Not tracked: the header's switcher may change the active group without moving this page.
    untrack(() => {
      memberships.setActive(m.id);
      session = groupSessions.open(m);
    });
  });

  $effect(() => {
    const s = session;
    const now = looking();
    s?.setLooking(now);
    return () => s?.setLooking({ view: 'browsing', paperId: null, label: '' });
  });

  return {
    get current() {
      return session;
    },
  };
}
