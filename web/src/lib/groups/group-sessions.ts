/**
 * The registry of opened groups, and the entry point of the group code: active-group.svelte.ts loads this
 * module with a dynamic import, which brings Yjs, y-websocket and y-indexeddb along.
 */
import { clearDocument } from 'y-indexeddb';
import { writeStored } from '../managers/local-store.ts';
import { GroupSession, idbName, unsyncedKey } from './group-session.svelte.ts';
import type { Membership } from './membership-records.ts';

export { GroupSession } from './group-session.svelte.ts';

/** The sync endpoint of the server that served this page. */
function syncUrl(): string {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/yjs`;
}

/**
 * The groups opened during this visit, each opened once and kept syncing until the page closes (or the
 * group is left): switching back is instant and edits made in one keep flowing.
 */
export class GroupSessions {
  readonly #open = new Map<string, GroupSession>();

  open(m: Membership): GroupSession {
    const held = this.#open.get(m.id);
    // A new token (joined again with a stronger invite) needs a new socket.
    if (held && held.token === m.token) return held;
    held?.destroy();
    const session = new GroupSession(m, syncUrl(), () => new Date());
    this.#open.set(m.id, session);
    return session;
  }

  close(groupId: string): void {
    this.#open.get(groupId)?.destroy();
    this.#open.delete(groupId);
  }

  /** Closes the group and deletes its copy on this device. */
  async forget(groupId: string): Promise<void> {
    this.close(groupId);
    writeStored(unsyncedKey(groupId), null);
    await clearDocument(idbName(groupId));
  }
}

export const groupSessions = new GroupSessions();
