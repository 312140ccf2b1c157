/**
 * The active group, as every page sees it: the Save and Follow buttons, the header's switcher. It loads
 * the group code (Yjs and the sync socket) with a dynamic import the first time a group is needed, so a
 * page without one ships none of it.
 */
import type { GroupSession } from './group-session.svelte.ts';
import { memberships, type Membership } from './memberships.svelte.ts';
import type { QueueablePaper } from './queue-paper.ts';

type SessionModule = typeof import('./group-sessions.ts');

let loading: Promise<SessionModule> | null = null;

/** The group code, loaded once. */
export function loadGroupCode(): Promise<SessionModule> {
  loading ??= import('./group-sessions.ts');
  return loading;
}

export class ActiveGroup {
  #session = $state.raw<GroupSession | null>(null);

  /** The active membership; null when Save and Follow keep to this browser. */
  get membership(): Membership | null {
    return memberships.active;
  }

  /** Whether Save and Follow act on the group: read-only members keep their own reading list. */
  get writable(): Membership | null {
    const m = this.membership;
    return m?.role === 'read-write' ? m : null;
  }

  /** The active group's session once its code has loaded (see `open`); null before that. */
  get session(): GroupSession | null {
    const s = this.#session;
    return s !== null && s.groupId === this.membership?.id ? s : null;
  }

  /** Opens the active group (loading the group code the first time); null without an active group. */
  async open(): Promise<GroupSession | null> {
    const m = this.membership;
    if (!m) return null;
    const { groupSessions } = await loadGroupCode();
    const session = groupSessions.open(m);
    // The active group may have changed while the code loaded.
    if (this.membership?.id === m.id) this.#session = session;
    return session;
  }

  /** Makes `groupId` the active group and opens it. */
  async activate(groupId: string): Promise<GroupSession | null> {
    memberships.setActive(groupId);
    return this.open();
  }

  isQueued(paperId: string): boolean {
    return this.session?.queueIds.includes(paperId) ?? false;
  }

  isFollowing(slug: string): boolean {
    return this.session?.followedSlugs.has(slug) ?? false;
  }

  /** Saves to the active group's queue; returns why not, or null when saved. */
  async savePaper(paper: QueueablePaper): Promise<string | null> {
    const session = await this.open();
    if (!session) return 'No group is active; choose one in the header first.';
    return session.savePaper(paper);
  }

  async toggleFollow(slug: string): Promise<string | null> {
    const session = await this.open();
    if (!session) return 'No group is active; choose one in the header first.';
    return session.toggleFollow(slug);
  }

  /** Leaves a group on this browser: closes it, deletes its copy here and forgets the invite. */
  async forget(groupId: string): Promise<void> {
    const { groupSessions } = await loadGroupCode();
    memberships.remove(groupId);
    await groupSessions.forget(groupId);
  }
}

export const activeGroup = new ActiveGroup();
