import { describe, expect, it } from 'vitest';
import { ROOT } from './group-doc.ts';
import {
  defaultMemberColour,
  getMember,
  joinGroup,
  listMembers,
  memberName,
  removeMember,
  updateMember,
} from './members.ts';
import { at, codeOf, newDoc, pair, sync } from './test-helpers.ts';

describe('members', () => {
  it('joins with a name, colour and join time; joining again keeps the first join time', () => {
    const doc = newDoc();
    joinGroup(doc, { id: 'ada', name: '  Ada   Lovelace ', colour: '#4363D8' }, at('2026-03-10T09:00:00Z'));
    joinGroup(doc, { id: 'ada', name: 'Ada L.', colour: '#e6194b' }, at('2026-03-12T09:00:00Z'));
    expect(getMember(doc, 'ada')).toEqual({
      id: 'ada',
      name: 'Ada L.',
      colour: '#e6194b',
      joinedAt: '2026-03-10T09:00:00.000Z',
    });
  });

  it('lists members in join order and names unknown ids by their id', () => {
    const doc = newDoc();
    joinGroup(doc, { id: 'bob', name: 'Bob', colour: '#3cb44b' }, at('2026-03-11T09:00:00Z'));
    joinGroup(doc, { id: 'ada', name: 'Ada', colour: '#4363d8' }, at('2026-03-10T09:00:00Z'));
    expect(listMembers(doc).map((m) => m.id)).toEqual(['ada', 'bob']);
    expect(memberName(doc, 'bob')).toBe('Bob');
    expect(memberName(doc, 'carol')).toBe('carol');
  });

  it('updates and removes a member', () => {
    const doc = newDoc();
    joinGroup(doc, { id: 'ada', name: 'Ada', colour: '#4363d8' }, at('2026-03-10T09:00:00Z'));
    expect(updateMember(doc, 'ada', { colour: '#911eb4' }).colour).toBe('#911eb4');
    expect(getMember(doc, 'ada')?.name).toBe('Ada');
    expect(removeMember(doc, 'ada')).toBe(true);
    expect(removeMember(doc, 'ada')).toBe(false);
    expect(listMembers(doc)).toEqual([]);
    expect(codeOf(() => updateMember(doc, 'ada', { name: 'X' }))).toBe('invalid-input');
  });

  it('rejects empty names, bad colours, bad ids and bad times', () => {
    const doc = newDoc();
    const now = at('2026-03-10T09:00:00Z');
    expect(codeOf(() => joinGroup(doc, { id: 'ada', name: '   ', colour: '#4363d8' }, now))).toBe(
      'invalid-input',
    );
    expect(codeOf(() => joinGroup(doc, { id: 'ada', name: 'Ada', colour: 'blue' }, now))).toBe(
      'invalid-input',
    );
    expect(codeOf(() => joinGroup(doc, { id: 'a|b', name: 'Ada', colour: '#4363d8' }, now))).toBe(
      'invalid-input',
    );
    expect(codeOf(() => joinGroup(doc, { id: '', name: 'Ada', colour: '#4363d8' }, now))).toBe(
      'invalid-input',
    );
    expect(codeOf(() => joinGroup(doc, { id: 'ada', name: 'Ada', colour: '#4363d8' }, at('nonsense')))).toBe(
      'invalid-input',
    );
    expect(listMembers(doc)).toEqual([]);
  });

  it('merges members who joined on different devices offline', () => {
    const [a, b] = pair();
    joinGroup(a, { id: 'ada', name: 'Ada', colour: '#4363d8' }, at('2026-03-10T09:00:00Z'));
    joinGroup(b, { id: 'bob', name: 'Bob', colour: '#3cb44b' }, at('2026-03-10T10:00:00Z'));
    sync(a, b);
    expect(listMembers(a).map((m) => m.name)).toEqual(['Ada', 'Bob']);
    expect(listMembers(b)).toEqual(listMembers(a));
  });

  it('skips entries a peer wrote malformed', () => {
    const doc = newDoc();
    const members = doc.getMap(ROOT.members);
    members.set('x', 'not a member');
    members.set('y', { name: '', colour: '#4363d8', joinedAt: '2026-03-10T09:00:00Z' });
    members.set('z', { name: 'Zed', colour: 'red', joinedAt: '2026-03-10T09:00:00Z' });
    members.set('w', { name: 'Wu', colour: '#4363d8', joinedAt: 'yesterday' });
    members.set('ok', { name: 'Ok', colour: '#4363d8', joinedAt: '2026-03-10T09:00:00Z' });
    expect(listMembers(doc).map((m) => m.id)).toEqual(['ok']);
  });

  it('derives a stable palette colour from an id', () => {
    expect(defaultMemberColour('ada')).toMatch(/^#[0-9a-f]{6}$/);
    expect(defaultMemberColour('ada')).toBe(defaultMemberColour('ada'));
  });
});
