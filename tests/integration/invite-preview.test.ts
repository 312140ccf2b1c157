import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApp } from '@quire/server/api/app';
import { invitePreviewRoutes } from '@quire/server/api/invite-preview-routes';
import { QuireError } from '@quire/server/errors';
import type { CreatedGroupDto, InvitePreviewDto } from '@quire/core';
import { groupServiceOver } from '@quire/server/sync/group-service';
import { openTopics } from '@quire/server/topics/open-topics';
import { describeOnEngines } from '../src/harness/engines.ts';
import { tempStoreOn, type TempGroupStore } from '../src/harness/temp-store.ts';

// The join page's preview of an invite, in-process with app.request() over a real store (its group side on
// SQLite, then on PostgreSQL).
let t: TempGroupStore;
let app: ReturnType<typeof createApp>;

async function appOver(store: TempGroupStore['store']): Promise<ReturnType<typeof createApp>> {
  const { topics } = await openTopics(store);
  return createApp({
    store,
    harvestState: () => null,
    topics,
    groups: { groups: groupServiceOver(store) },
  });
}

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

async function send(
  on: ReturnType<typeof createApp>,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = { 'content-type': 'application/json' },
): Promise<Answer> {
  const res = await on.request(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const preview = (groupId: string, token: string): Promise<Answer> =>
  send(app, 'POST', '/api/invites/preview', { groupId, token });

async function create(name: string, memberName?: string): Promise<CreatedGroupDto> {
  const answer = await send(app, 'POST', '/api/groups', { name, memberName });
  expect(answer.status).toBe(201);
  return answer.body as unknown as CreatedGroupDto;
}

const token = (g: CreatedGroupDto, role: string): string =>
  g.invites.find((i) => i.role === role)?.token ?? '';

describeOnEngines('POST /api/invites/preview', (engine) => {
  beforeAll(async () => {
    t = await tempStoreOn(engine);
    app = await appOver(t.store);
  });
  afterAll(() => t.dispose());

  it("answers the group's name and the invite's role, and nothing else", async () => {
    const group = await create('Agents RL Reading Group');
    const rw = await preview(group.id, token(group, 'read-write'));
    expect(rw).toEqual({ status: 200, body: { groupName: 'Agents RL Reading Group', role: 'read-write' } });
    const ro = await preview(group.id, token(group, 'read-only'));
    expect(ro.body satisfies Record<string, unknown>).toEqual({
      groupName: 'Agents RL Reading Group',
      role: 'read-only',
    } satisfies InvitePreviewDto);
  });

  it('says who invited: the name the group’s maker gave, and the name of whoever made a later invite', async () => {
    const group = await create('Ana’s group', '  Ana  ');
    for (const role of ['read-write', 'read-only'] as const) {
      expect((await preview(group.id, token(group, role))).body).toEqual({
        groupName: 'Ana’s group',
        role,
        invitedBy: 'Ana',
      } satisfies InvitePreviewDto);
    }
    const auth = {
      'content-type': 'application/json',
      authorization: `Bearer ${token(group, 'read-write')}`,
    };
    const made = await send(
      app,
      'POST',
      `/api/groups/${group.id}/invites`,
      { role: 'read-only', memberName: 'Ben' },
      auth,
    );
    expect(made.status).toBe(201);
    expect((await preview(group.id, String(made.body.token))).body.invitedBy).toBe('Ben');
    // A client that gives no name (the CLI, an older page) makes an invite that stays quiet about it.
    const quiet = await send(app, 'POST', `/api/groups/${group.id}/invites`, { role: 'read-write' }, auth);
    expect((await preview(group.id, String(quiet.body.token))).body).toEqual({
      groupName: 'Ana’s group',
      role: 'read-write',
    });
  });

  it('refuses a name that is empty, too long or not text, saying which field', async () => {
    for (const memberName of ['   ', 'x'.repeat(81), 42]) {
      const answer = await send(app, 'POST', '/api/groups', { name: 'Named', memberName });
      expect(answer.status).toBe(400);
      expect(answer.body.message).toMatch(/"memberName"/);
    }
    const group = await create('Named');
    const answer = await send(
      app,
      'POST',
      `/api/groups/${group.id}/invites`,
      { role: 'read-only', memberName: '' },
      { 'content-type': 'application/json', authorization: `Bearer ${token(group, 'read-write')}` },
    );
    expect(answer.status).toBe(400);
    expect(answer.body.message).toMatch(/"memberName"/);
  });

  it('gives one 404 for an unknown secret, a secret of another group, an unknown group and a malformed secret', async () => {
    const a = await create('Group A');
    const b = await create('Group B');
    const unknownSecret = await preview(a.id, 'A'.repeat(43));
    const otherGroups = await preview(a.id, token(b, 'read-write'));
    const unknownGroup = await preview('no-such-group', token(a, 'read-write'));
    const malformed = await preview(a.id, 'short');
    for (const answer of [unknownSecret, otherGroups, unknownGroup, malformed]) {
      expect(answer.status).toBe(404);
      expect(answer).toEqual(unknownSecret);
    }
    expect(unknownSecret.body.error).toBe('not-found');
    // Nothing about either group leaks into the refusal.
    const text = JSON.stringify([unknownSecret, otherGroups, unknownGroup]);
    for (const leaked of ['Group A', 'Group B', a.id, b.id]) expect(text).not.toContain(leaked);
  });

  it('refuses a revoked invite with 401, and a live invite of the same group still previews', async () => {
    const group = await create('Revoked club');
    const rw = token(group, 'read-write');
    const ro = group.invites.find((i) => i.role === 'read-only');
    const revoked = await send(app, 'DELETE', `/api/groups/${group.id}/invites/${ro?.id ?? ''}`, undefined, {
      authorization: `Bearer ${rw}`,
    });
    expect(revoked.status).toBe(200);
    const answer = await preview(group.id, ro?.token ?? '');
    expect(answer.status).toBe(401);
    expect(answer.body.error).toBe('unauthorized');
    expect(answer.body.message).toMatch(/revoked/);
    expect((await preview(group.id, rw)).status).toBe(200);
  });

  it('takes the secret only in a JSON body: no GET with it in the URL, no form post', async () => {
    const group = await create('Body only');
    const rw = token(group, 'read-write');
    const asGet = await app.request(`/api/invites/preview?groupId=${group.id}&token=${rw}`);
    expect(asGet.status).toBe(404);
    const asForm = await send(
      app,
      'POST',
      '/api/invites/preview',
      { groupId: group.id, token: rw },
      {
        'content-type': 'text/plain',
      },
    );
    expect(asForm.status).toBe(415);
    const missing = await send(app, 'POST', '/api/invites/preview', { groupId: group.id });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toMatch(/"token"/);
  });

  it('limits previews per address like the other invite checks (refused past the burst, on a fixed clock)', async () => {
    // The routes alone, with a small burst and a clock that stands still, so no token refills mid-test.
    const own = invitePreviewRoutes({
      groups: groupServiceOver(t.store),
      limit: { perHour: 60, burst: 3, now: () => 0 },
    });
    own.onError((err, c) => c.json({ error: err instanceof QuireError ? err.code : 'internal' }, 400));
    const codes: unknown[] = [];
    for (let i = 0; i < 4; i++) {
      codes.push((await send(own, 'POST', '/preview', { groupId: 'g', token: 't' })).body.error);
    }
    expect(codes).toEqual(['not-found', 'not-found', 'not-found', 'rate-limited']);
  });
});
