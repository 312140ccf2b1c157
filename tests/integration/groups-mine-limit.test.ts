import { afterAll, beforeAll, expect, it } from 'vitest';
import type { CreatedGroupDto, MyGroupsDto } from '@quire/core';
import { createApp } from '@quire/server/api/app';
import { groupServiceOver } from '@quire/server/sync/group-service';
import { openTopics } from '@quire/server/topics/open-topics';
import { describeOnEngines } from '../src/harness/engines.ts';
import { tempStoreOn, type TempGroupStore } from '../src/harness/temp-store.ts';

describeOnEngines('POST /api/groups/mine is limited per address, like the invite preview', (engine) => {
  let t: TempGroupStore;
  let app: ReturnType<typeof createApp>;
  let group: CreatedGroupDto;

  beforeAll(async () => {
    t = await tempStoreOn(engine);
    app = createApp({
      store: t.store,
      harvestState: () => null,
      topics: (await openTopics(t.store)).topics,
      // A small burst and a clock that stands still, so no token refills mid-test.
      groups: { groups: groupServiceOver(t.store), mineLimit: { perHour: 60, burst: 3, now: () => 0 } },
    });
    const made = await app.request('/api/groups', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Journal Club' }),
    });
    group = (await made.json()) as CreatedGroupDto;
  });
  afterAll(() => t.dispose());

  const mine = (tokens: string[]): Promise<Response> =>
    Promise.resolve(
      app.request('/api/groups/mine', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ tokens }),
      }),
    );

  it('answers within the burst, then 429 with a message that says the limit and what to do', async () => {
    const held = group.invites.map((i) => i.token);
    for (let i = 0; i < 3; i++) {
      const res = await mine(held);
      expect(res.status).toBe(200);
      expect(((await res.json()) as MyGroupsDto).groups.map((g) => g.name)).toEqual(['Journal Club']);
    }
    const refused = await mine(held);
    expect(refused.status).toBe(429);
    const answer = (await refused.json()) as { error: string; message: string };
    expect(answer).toEqual({
      error: 'rate-limited',
      message: 'Too many group look-ups from this address (60 an hour, 3 at once); try again later.',
    });
    // Group creation keeps its own allowance.
    const other = await app.request('/api/groups', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Another' }),
    });
    expect(other.status).toBe(201);
  });
});
