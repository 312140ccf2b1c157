/**
 * The groups this browser has joined and which one is active. Light on purpose (no Yjs): the header, the
 * Save and Follow buttons read it on every page, and only an active group loads the sync code.
 */
import type { Fetch } from '../api/client.ts';
import { readStored, writeStored } from '../managers/local-store.ts';
import { myGroups } from './group-api.ts';
import { applyMine, parseMemberships, type Membership } from './membership-records.ts';

export type { Membership } from './membership-records.ts';

const MEMBERSHIPS_KEY = 'quire.groups';
const ACTIVE_KEY = 'quire.active-group';
const NAME_KEY = 'quire.display-name';

export class GroupMemberships {
  #list = $state.raw<Membership[]>([]);
  #activeId = $state<string | null>(null);
  /** Sentences about groups dropped by the last refresh ("… was revoked"), shown once on /groups. */
  dropped = $state<string[]>([]);

  constructor() {
    this.#list = parseMemberships(readStored(MEMBERSHIPS_KEY));
    this.#activeId = readStored(ACTIVE_KEY);
    if (typeof window !== 'undefined') {
      // Join or switch in one tab, see it in the others.
      window.addEventListener('storage', (event) => {
        if (event.key === MEMBERSHIPS_KEY) this.#list = parseMemberships(event.newValue);
        if (event.key === ACTIVE_KEY) this.#activeId = event.newValue;
      });
    }
  }

  get list(): readonly Membership[] {
    return this.#list;
  }

  get(id: string): Membership | null {
    return this.#list.find((m) => m.id === id) ?? null;
  }

  /** The group Save and Follow act on; null when they keep to this browser. */
  get active(): Membership | null {
    return this.#activeId === null ? null : this.get(this.#activeId);
  }

  setActive(id: string | null): void {
    if (id !== null && !this.get(id)) return;
    this.#activeId = id;
    writeStored(ACTIVE_KEY, id);
  }

  /** Adds or replaces the membership of `m.id`. */
  put(m: Membership): void {
    this.#write(this.get(m.id) ? this.#list.map((x) => (x.id === m.id ? m : x)) : [...this.#list, m]);
  }

  update(id: string, changes: Partial<Omit<Membership, 'id'>>): void {
    const current = this.get(id);
    if (current) this.put({ ...current, ...changes });
  }

  remove(id: string): void {
    this.#write(this.#list.filter((m) => m.id !== id));
    if (this.#activeId === id) this.setActive(null);
  }

  /** The name last typed when joining, offered again for the next group. */
  get lastDisplayName(): string {
    return readStored(NAME_KEY) ?? '';
  }

  set lastDisplayName(name: string) {
    writeStored(NAME_KEY, name);
  }

  /**
   * Asks the server which tokens still open their group: names and roles are brought up to date, and
   * groups whose invite was revoked (or that the server no longer has) are dropped with a note. Throws
   * the ApiError when the server cannot be asked; the list is then left as it was. Returns the ids of the
   * groups dropped, whose copies on this device the caller may delete.
   */
  async refresh(fetchFn: Fetch): Promise<string[]> {
    const held = this.#list;
    if (held.length === 0) return [];
    const answer = await myGroups(
      fetchFn,
      held.map((m) => m.token),
    );
    // Read the list again: a join may have finished while the request was out.
    const { kept, gone, notes } = applyMine(held, this.#list, answer);
    this.#write(kept);
    if (this.#activeId !== null && !this.get(this.#activeId)) this.setActive(null);
    this.dropped = notes;
    return gone;
  }

  #write(list: Membership[]): void {
    this.#list = list;
    writeStored(MEMBERSHIPS_KEY, JSON.stringify(list));
  }
}

export const memberships = new GroupMemberships();
