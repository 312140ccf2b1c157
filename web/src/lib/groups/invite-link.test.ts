import { describe, expect, it } from 'vitest';
import { inviteUrl, parseInvite } from './invite-link.ts';

const TOKEN = 'a'.repeat(20) + '_-' + 'B9'.repeat(10) + 'z';

describe('parseInvite', () => {
  it('reads a fragment, a path and a whole link alike', () => {
    const want = { groupId: 'grp_1-x', token: TOKEN };
    expect(parseInvite(`#grp_1-x.${TOKEN}`)).toEqual(want);
    expect(parseInvite(`/join#grp_1-x.${TOKEN}`)).toEqual(want);
    expect(parseInvite(`  https://quire.example/join#grp_1-x.${TOKEN}\n`)).toEqual(want);
  });

  it('refuses links cut short or holding other characters', () => {
    expect(parseInvite('')).toBeNull();
    expect(parseInvite('#grp')).toBeNull();
    expect(parseInvite('#grp.')).toBeNull();
    expect(parseInvite(`#.${TOKEN}`)).toBeNull();
    expect(parseInvite(`#grp.${TOKEN}.extra`)).toBeNull();
    expect(parseInvite(`#g<script>.${TOKEN}`)).toBeNull();
  });
});

describe('inviteUrl', () => {
  it('puts the server path on the origin', () => {
    expect(inviteUrl('http://127.0.0.1:8787', `/join#g.${TOKEN}`)).toBe(
      `http://127.0.0.1:8787/join#g.${TOKEN}`,
    );
  });
});
