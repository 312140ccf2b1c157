import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../store/open-store.ts';

let store: Store;
beforeEach(() => {
  store = openStore(':memory:');
});
afterEach(() => store.close());

describe('GroupStore.authorize', () => {
  it('takes the role from the stored invite and names each refusal', () => {
    const { group, invites } = store.groups.createGroup('G');
    const other = store.groups.createGroup('H');
    const [rw, ro] = invites;
    if (!rw || !ro) throw new Error('createGroup made no invites');
    expect(store.groups.authorize(group.id, rw.token)).toMatchObject({
      ok: true,
      invite: { role: 'read-write' },
    });
    expect(store.groups.authorize(group.id, ro.token)).toMatchObject({
      ok: true,
      invite: { role: 'read-only' },
    });
    expect(store.groups.authorize(group.id, null)).toEqual({ ok: false, refusal: 'unauthorized' });
    expect(store.groups.authorize(group.id, `${rw.token}x`)).toEqual({ ok: false, refusal: 'unauthorized' });
    expect(store.groups.authorize(group.id, other.invites[0]?.token)).toEqual({
      ok: false,
      refusal: 'unauthorized',
    });
    expect(store.groups.authorize('nope', rw.token)).toEqual({ ok: false, refusal: 'unknown-group' });
    store.groups.revokeInvite(group.id, ro.id);
    expect(store.groups.authorize(group.id, ro.token)).toEqual({ ok: false, refusal: 'revoked' });
  });
});
