import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { describeOnEngines } from '../src/harness/engines.ts';
import { spawnServer } from '../src/harness/spawn-server.ts';
import { createGroup, syncPeer, tokenOf } from '../src/harness/sync-harness.ts';
import { waitFor } from '../src/harness/wait-for.ts';

const dir = mkdtempSync(join(tmpdir(), 'quire-sync-kill-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describeOnEngines('group sync durability', (engine) => {
  it('keeps every edit a peer received when the server is killed with SIGKILL mid-burst', async () => {
    const dbPath = join(dir, `quire-${engine.name}.db`);
    // A burst far above what people type: lift the rate limits so it is the kill that interrupts it.
    const env = {
      QUIRE_SYNC_RATE: '1000000',
      QUIRE_SYNC_BURST: '1000000',
      QUIRE_SYNC_INVITE_RATE: '1000000',
      QUIRE_SYNC_INVITE_BURST: '1000000',
      QUIRE_SYNC_ADDRESS_RATE: '1000000',
      QUIRE_SYNC_ADDRESS_BURST: '1000000',
      ...(engine.databaseUrl ? { QUIRE_DATABASE_URL: engine.databaseUrl } : {}),
    };
    const first = await spawnServer(dbPath, env);
    const group = await createGroup(first.url);
    const token = tokenOf(group, 'read-write');
    const ann = syncPeer(first.url, group.id, token);
    const bob = syncPeer(first.url, group.id, token);
    await waitFor('both clients to sync', () =>
      ann.provider.synced && bob.provider.synced ? true : undefined,
    );
    const seen = () => bob.doc.getArray<string>('edits').toArray();

    // Ann edits as fast as her socket takes it, one update per message, until the server dies.
    let burst = true;
    let sent = 0;
    const typing = (async () => {
      while (burst && sent < 100_000) {
        ann.doc.getArray<string>('edits').push([`edit ${sent++}`]);
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    await waitFor('bob to observe part of the burst', () => (seen().length >= 200 ? true : undefined));
    await first.kill9();
    burst = false;
    await typing;
    // The server is gone: what bob holds now is everything any peer can have received from it.
    const observed = seen();
    bob.destroy();
    ann.destroy();
    expect(sent).toBeGreaterThan(observed.length); // the kill landed mid-burst
    expect(ann.closes.every((c) => c.code === 1006)).toBe(true); // cut by the kill, not refused

    const second = await spawnServer(dbPath, env);
    const fresh = syncPeer(second.url, group.id, token);
    await waitFor('a fresh client to sync', () => (fresh.provider.synced ? true : undefined));
    const recovered = new Set(fresh.doc.getArray<string>('edits').toArray());
    expect(observed.filter((e) => !recovered.has(e))).toEqual([]);
    expect(recovered.size).toBeGreaterThanOrEqual(observed.length);
  });
});
