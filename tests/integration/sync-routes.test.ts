import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeOnEngines } from '../src/harness/engines.ts';
import { createApp } from '@quire/server/api/app';
import type {
  CreatedGroupDto,
  CreatedInviteDto,
  InviteDto,
  MyGroupsDto,
  RevokedInviteDto,
} from '@quire/core';
import { groupServiceOver, type InviteEntity } from '@quire/server/sync/group-service';
import { openTopics } from '@quire/server/topics/open-topics';
import { tempStoreOn, type TempGroupStore } from '../src/harness/temp-store.ts';

// Route tests in-process with app.request(): no socket needed to check what the API answers. Each runs
// with the group side on SQLite, then on PostgreSQL.
let t: TempGroupStore;
let app: ReturnType<typeof createApp>;
const revoked: InviteEntity[] = [];

function send(method: string, path: string, body?: unknown, token?: string): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  return Promise.resolve(
    app.request(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }),
  );
}

async function create(name: string): Promise<CreatedGroupDto> {
  const res = await send('POST', '/api/groups', { name });
  expect(res.status).toBe(201);
  return (await res.json()) as CreatedGroupDto;
}

const token = (g: CreatedGroupDto, role: string) => g.invites.find((i) => i.role === role)?.token ?? '';

describeOnEngines('group routes', (engine) => {
  beforeAll(async () => {
    t = await tempStoreOn(engine);
    app = createApp({
      store: t.store,
      harvestState: () => null,
      topics: (await openTopics(t.store)).topics,
      groups: {
        groups: groupServiceOver(t.store),
        onInviteRevoked: (invite) => {
          revoked.push(invite);
          return 0;
        },
      },
    });
  });
  afterAll(() => t.dispose());

  interface StoredInvite {
    id: string;
    token_hash: { data: number[] };
  }
  const storedInvites = async (): Promise<StoredInvite[]> =>
    JSON.parse(await engine.storedTable(t.dbPath, 'group_invites')) as StoredInvite[];
  const storedGroups = async (): Promise<number> =>
    (JSON.parse(await engine.storedTable(t.dbPath, 'groups')) as unknown[]).length;

  describe('POST /api/groups', () => {
    it('creates a group with a read-write and a read-only invite whose secrets are stored only hashed', async () => {
      const group = await create('  Diffusion reading group  ');
      expect(group.name).toBe('Diffusion reading group');
      expect(group.invites.map((i) => i.role).sort()).toEqual(['read-only', 'read-write']);
      for (const invite of group.invites) {
        expect(invite.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
        expect(invite.link).toBe(`/join#${group.id}.${invite.token}`);
        const row = (await storedInvites()).find((r) => r.id === invite.id);
        expect(Buffer.from(row?.token_hash.data ?? [])).toEqual(
          createHash('sha256').update(invite.token).digest(),
        );
      }
      const dump = JSON.stringify(await storedInvites());
      for (const invite of group.invites) expect(dump).not.toContain(invite.token);
    });

    it('refuses a body over the limit with 413, saying the limit, and creates nothing', async () => {
      const before = await storedGroups();
      const res = await app.request('/api/groups', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Big', padding: 'x'.repeat(200 * 1024) }),
      });
      expect(res.status).toBe(413);
      const answer = (await res.json()) as { error: string; message: string };
      expect(answer.error).toBe('too-large');
      expect(answer.message).toContain('64 KiB');
      expect(await storedGroups()).toBe(before);
    });

    it('refuses a body not sent as JSON (415) and a request from another site (403), creating nothing', async () => {
      const before = await storedGroups();
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', undefined]) {
        const res = await app.request('/api/groups', {
          method: 'POST',
          headers: type ? { 'content-type': type } : {},
          body: JSON.stringify({ name: 'Sneaky' }),
        });
        expect(res.status, String(type)).toBe(415);
        expect(((await res.json()) as { message: string }).message).toContain('application/json');
      }
      const cross = await app.request('http://localhost/api/groups', {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
        body: JSON.stringify({ name: 'Sneaky' }),
      });
      expect(cross.status).toBe(403);
      expect(((await cross.json()) as { message: string }).message).toContain('https://evil.example');
      const own = await app.request('http://localhost/api/groups', {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'http://localhost' },
        body: JSON.stringify({ name: 'Ours' }),
      });
      expect(own.status).toBe(201);
      expect(await storedGroups()).toBe(before + 1);
    });

    it('limits group creation per client address, with a 429 that says the limit', async () => {
      const limited = createApp({
        store: t.store,
        harvestState: () => null,
        topics: (await openTopics(t.store)).topics,
        groups: { groups: groupServiceOver(t.store), createLimit: { perHour: 60, burst: 3, now: () => 0 } },
      });
      const post = () =>
        limited.request('/api/groups', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'Many' }),
        });
      for (let i = 0; i < 3; i++) expect((await post()).status).toBe(201);
      const refused = await post();
      expect(refused.status).toBe(429);
      const answer = (await refused.json()) as { error: string; message: string };
      expect(answer.error).toBe('rate-limited');
      expect(answer.message).toContain('60 an hour');
    });

    it('refuses a missing or overlong name and a body that is not JSON', async () => {
      for (const body of [{}, { name: '   ' }, { name: 'x'.repeat(121) }, { name: 3 }]) {
        const res = await send('POST', '/api/groups', body);
        expect(res.status).toBe(400);
        const answer = (await res.json()) as { error: string; message: string };
        expect(answer.error).toBe('bad-input');
        expect(answer.message).toContain('name');
      }
      const res = await app.request('/api/groups', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{not json',
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: 'bad-input' });
    });
  });

  describe('POST /api/groups/mine', () => {
    it('lists the groups the tokens open with the strongest role, and which tokens open nothing', async () => {
      const a = await create('A');
      const b = await create('B');
      const c = await create('C');
      const cInvite = c.invites.find((i) => i.role === 'read-write');
      await send('DELETE', `/api/groups/${c.id}/invites/${cInvite?.id}`, undefined, token(c, 'read-write'));

      const tokens = [
        token(a, 'read-only'),
        token(a, 'read-write'),
        token(b, 'read-only'),
        'nonsense',
        'A'.repeat(43),
        token(c, 'read-write'),
      ];
      const res = await send('POST', '/api/groups/mine', { tokens });
      expect(res.status).toBe(200);
      const mine = (await res.json()) as MyGroupsDto;
      expect(mine.groups).toEqual([
        expect.objectContaining({ id: a.id, name: 'A', role: 'read-write', tokenIndex: 1 }),
        expect.objectContaining({ id: b.id, name: 'B', role: 'read-only', tokenIndex: 2 }),
      ]);
      expect(mine.refused).toEqual([
        { tokenIndex: 3, reason: 'unknown' },
        { tokenIndex: 4, reason: 'unknown' },
        { tokenIndex: 5, reason: 'revoked' },
      ]);
    });

    it('refuses a body without a token list', async () => {
      const res = await send('POST', '/api/groups/mine', { tokens: 'abc' });
      expect(res.status).toBe(400);
      const body = (await res.json()) as { error: string; message: string };
      expect(body.error).toBe('bad-input');
      expect(body.message).toContain('tokens');
    });
  });

  describe('invites of a group', () => {
    it('creates, lists and revokes invites with a read-write token', async () => {
      const group = await create('Invites');
      const rw = token(group, 'read-write');
      const res = await send('POST', `/api/groups/${group.id}/invites`, { role: 'read-only' }, rw);
      expect(res.status).toBe(201);
      const invite = (await res.json()) as CreatedInviteDto;
      expect(invite).toMatchObject({ role: 'read-only', link: `/join#${group.id}.${invite.token}` });

      const listed = (await (await send('GET', `/api/groups/${group.id}/invites`, undefined, rw)).json()) as {
        invites: InviteDto[];
      };
      expect(listed.invites.map((i) => i.id).sort()).toEqual(
        [...group.invites.map((i) => i.id), invite.id].sort(),
      );
      expect(JSON.stringify(listed)).not.toMatch(/token/i);

      const gone = await send('DELETE', `/api/groups/${group.id}/invites/${invite.id}`, undefined, rw);
      expect(gone.status).toBe(200);
      const answer = (await gone.json()) as RevokedInviteDto;
      expect(answer.invite.revokedAt).not.toBeNull();
      expect(revoked.at(-1)?.id).toBe(invite.id);
      const again = await send('DELETE', `/api/groups/${group.id}/invites/${invite.id}`, undefined, rw);
      expect(((await again.json()) as RevokedInviteDto).invite.revokedAt).toBe(answer.invite.revokedAt);

      const missing = await send('DELETE', `/api/groups/${group.id}/invites/nope`, undefined, rw);
      expect(missing.status).toBe(404);
      expect(await missing.json()).toMatchObject({ error: 'not-found' });
    });

    it('answers 401, 403 or 404 without a usable read-write token, saying what to send', async () => {
      const group = await create('Guarded');
      const other = await create('Other');
      const path = `/api/groups/${group.id}/invites`;
      const cases: [string, Promise<Response>, number, string][] = [
        ['no token', send('GET', path), 401, 'unauthorized'],
        ['a wrong token', send('GET', path, undefined, 'A'.repeat(43)), 401, 'unauthorized'],
        [
          "another group's token",
          send('GET', path, undefined, token(other, 'read-write')),
          401,
          'unauthorized',
        ],
        [
          'a read-only token',
          send('POST', path, { role: 'read-write' }, token(group, 'read-only')),
          403,
          'forbidden',
        ],
        [
          'an unknown group',
          send('GET', '/api/groups/nope/invites', undefined, token(group, 'read-write')),
          404,
          'not-found',
        ],
        ['a bad role', send('POST', path, { role: 'admin' }, token(group, 'read-write')), 400, 'bad-input'],
      ];
      for (const [what, pending, status, error] of cases) {
        const res = await pending;
        expect(res.status, what).toBe(status);
        const body = (await res.json()) as { error: string; message: string };
        expect(body.error, what).toBe(error);
        expect(body.message.length, what).toBeGreaterThan(20);
      }

      const rwInvite = group.invites.find((i) => i.role === 'read-write');
      await send('DELETE', `${path}/${rwInvite?.id}`, undefined, token(group, 'read-write'));
      const after = await send('GET', path, undefined, token(group, 'read-write'));
      expect(after.status).toBe(401);
      const body = (await after.json()) as { error: string; message: string };
      expect(body.error).toBe('unauthorized');
      expect(body.message).toContain('revoked');
    });
  });
});
