import { request } from 'node:http';
import { resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '@quire/server/config';
import { importPaths } from '@quire/server/ingest/import-dumps';
import { startServer, type RunningServer } from '@quire/server/server';
import { openStore } from '@quire/server/store/open-store';
import { listingsDir } from '../src/paths.ts';
import { tempStore, type TempStore } from '../src/harness/temp-store.ts';

// Over a real socket: the compression runs on @hono/node-server, whose body streaming must carry it.
let t: TempStore;
let server: RunningServer;

beforeAll(async () => {
  t = tempStore();
  await importPaths(t.store, [resolve(listingsDir, '2026-03-16.jsonl.br')]);
  t.store.close();
  server = await startServer({ ...DEFAULT_CONFIG, dbPath: t.dbPath, port: 0, harvest: false });
  await server.ready;
});
afterAll(async () => {
  await server.close();
  t.dispose();
});

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** GET with exactly these headers, the body as it came over the wire (fetch would decode it). */
function get(path: string, headers: Record<string, string>): Promise<RawAnswer> {
  return new Promise((done, fail) => {
    const req = request(`${server.url}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        done({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end();
  });
}

describe('compressed JSON answers', () => {
  it('GET /api/topics with Accept-Encoding: gzip answers gzip that decodes to the same JSON', async () => {
    const plain = await get('/api/topics', {});
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(10_000);

    const zipped = await get('/api/topics', { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(zipped.status).toBe(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers['content-type']).toMatch(/^application\/json/);
    expect(zipped.headers.vary).toMatch(/Accept-Encoding/i);
    expect(zipped.body.length).toBeLessThan(plain.body.length / 4);
    expect(JSON.parse(gunzipSync(zipped.body).toString('utf8'))).toEqual(
      JSON.parse(plain.body.toString('utf8')),
    );
  });

  it('leaves small answers alone: a ping, an error', async () => {
    const ping = await get('/api/ping', { 'Accept-Encoding': 'gzip' });
    expect(ping.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(ping.body.toString('utf8'))).toEqual({ ok: true });
    expect(ping.headers['content-length']).toBe(String(ping.body.length));

    const missing = await get('/api/topics/no-such-topic', { 'Accept-Encoding': 'gzip' });
    expect(missing.status).toBe(404);
    expect(missing.headers['content-encoding']).toBeUndefined();
    expect((JSON.parse(missing.body.toString('utf8')) as { error: string }).error).toBe('not-found');
  });

  it('answers anew once new papers are stored beside the server', async () => {
    const first = await get('/api/topics/reinforcement-learning', { 'Accept-Encoding': 'gzip' });
    expect(first.headers['content-encoding']).toBe('gzip');
    const before = JSON.parse(gunzipSync(first.body).toString('utf8')) as { asOf: string };

    // Another connection commits the next week's papers, as `quire import` beside the server does.
    const cli = openStore(t.dbPath);
    await importPaths(cli, [resolve(listingsDir, '2026-03-23.jsonl.br')]);
    cli.close();

    const after = await get('/api/topics/reinforcement-learning', { 'Accept-Encoding': 'gzip' });
    const plain = await get('/api/topics/reinforcement-learning', {
      'Accept-Encoding': 'gzip;q=0, identity',
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    const decoded = JSON.parse(gunzipSync(after.body).toString('utf8')) as { asOf: string };
    // The topic is now counted up to the new week's last listing day.
    expect(decoded.asOf > before.asOf).toBe(true);
    expect(decoded).toEqual(JSON.parse(plain.body.toString('utf8')));
  });
});
