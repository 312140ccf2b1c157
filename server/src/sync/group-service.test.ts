import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../store/open-store.ts';
import { groupServiceOver, type GroupService } from './group-service.ts';

let store: Store;
let groups: GroupService;
beforeEach(() => {
  store = openStore(':memory:');
  groups = groupServiceOver(store);
});
afterEach(() => store.close());

describe('GroupService.authorize', () => {
  it('takes the role from the stored invite and names each refusal', async () => {
    const { group, invites } = await groups.createGroup('G');
    const other = await groups.createGroup('H');
    const [rw, ro] = invites;
    if (!rw || !ro) throw new Error('createGroup made no invites');
    expect(await groups.authorize(group.id, rw.token)).toMatchObject({
      ok: true,
      invite: { role: 'read-write' },
    });
    expect(await groups.authorize(group.id, ro.token)).toMatchObject({
      ok: true,
      invite: { role: 'read-only' },
    });
    expect(await groups.authorize(group.id, null)).toEqual({ ok: false, refusal: 'unauthorized' });
    expect(await groups.authorize(group.id, `${rw.token}x`)).toEqual({ ok: false, refusal: 'unauthorized' });
    expect(await groups.authorize(group.id, other.invites[0]?.token)).toEqual({
      ok: false,
      refusal: 'unauthorized',
    });
    expect(await groups.authorize('nope', rw.token)).toEqual({ ok: false, refusal: 'unknown-group' });
    await groups.revokeInvite(group.id, ro.id);
    expect(await groups.authorize(group.id, ro.token)).toEqual({ ok: false, refusal: 'revoked' });
  });

  it('writes a group with its invites or not at all', async () => {
    const { group, invites } = await groups.createGroup('G');
    const taken = invites[0];
    if (!taken) throw new Error('createGroup made no invites');
    // A second group whose invite reuses a stored invite's id: the invite is refused, so the group is too.
    const second = { id: 'second-group', name: 'H', createdAt: group.createdAt };
    const row = { ...taken, tokenHash: Buffer.alloc(32) };
    await expect(store.groups.create(second, [row])).rejects.toThrow();
    expect(await groups.group(second.id)).toBeNull();
    expect(await groups.group(group.id)).toEqual(group);
  });
});
