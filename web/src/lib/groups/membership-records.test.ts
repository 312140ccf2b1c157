import { describe, expect, it } from 'vitest';
import type { MyGroupsDto } from './group-api-types.ts';
import { applyMine, parseMemberships, strongerRole, type Membership } from './membership-records.ts';

const m = (id: string, extra: Partial<Membership> = {}): Membership => ({
  id,
  name: `Group ${id}`,
  token: `token-${id}`,
  role: 'read-write',
  memberId: `member-${id}`,
  displayName: 'Ada',
  colour: '#4363d8',
  addedAt: '2026-03-16T10:00:00.000Z',
  ...extra,
});

describe('parseMemberships', () => {
  it('keeps well-formed entries once each and drops the rest', () => {
    const raw = JSON.stringify([
      m('a'),
      { ...m('b'), role: 'owner' },
      m('a', { name: 'dup' }),
      'junk',
      m('c'),
    ]);
    expect(parseMemberships(raw).map((x) => x.id)).toEqual(['a', 'c']);
    expect(parseMemberships('not json')).toEqual([]);
    expect(parseMemberships(null)).toEqual([]);
  });
});

describe('applyMine', () => {
  const group = (id: string, role: 'read-write' | 'read-only', tokenIndex: number) => ({
    id,
    name: `Renamed ${id}`,
    createdAt: '2026-03-01T00:00:00.000Z',
    role,
    inviteId: `inv-${id}`,
    tokenIndex,
  });

  it('updates names and roles and drops revoked or unknown groups with a note', () => {
    const asked = [m('a'), m('b'), m('c')];
    const answer: MyGroupsDto = {
      groups: [group('a', 'read-only', 0)],
      refused: [
        { tokenIndex: 1, reason: 'revoked' },
        { tokenIndex: 2, reason: 'unknown' },
      ],
    };
    const { kept, gone, notes } = applyMine(asked, asked, answer);
    expect(kept).toEqual([{ ...m('a'), name: 'Renamed a', role: 'read-only', inviteId: 'inv-a' }]);
    expect(gone).toEqual(['b', 'c']);
    expect(notes[0]).toContain('was revoked');
    expect(notes[1]).toContain('not on this server');
  });

  it('keeps a group joined again (or newly) while the request was out', () => {
    const asked = [m('a')];
    const held = [m('a', { token: 'new-token' }), m('z')];
    const answer: MyGroupsDto = { groups: [], refused: [{ tokenIndex: 0, reason: 'revoked' }] };
    expect(applyMine(asked, held, answer)).toEqual({ kept: held, gone: [], notes: [] });
  });
});

describe('strongerRole', () => {
  it('never downgrades', () => {
    expect(strongerRole('read-only', 'read-write')).toBe('read-write');
    expect(strongerRole('read-only', 'read-only')).toBe('read-only');
  });
});
