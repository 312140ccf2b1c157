import { gunzipSync } from 'node:zlib';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { PreparedJson, takesGzip } from './prepared-json.ts';

describe('takesGzip', () => {
  it('takes gzip when named, alone or among others, with any weight above 0', () => {
    expect(takesGzip('gzip')).toBe(true);
    expect(takesGzip('gzip, deflate, br')).toBe(true);
    expect(takesGzip('br;q=1.0, GZIP;q=0.5')).toBe(true);
    expect(takesGzip('*')).toBe(true);
  });

  it('refuses it when absent, weighted 0, or refused by name under a star', () => {
    expect(takesGzip(undefined)).toBe(false);
    expect(takesGzip('')).toBe(false);
    expect(takesGzip('identity')).toBe(false);
    expect(takesGzip('deflate, br')).toBe(false);
    expect(takesGzip('gzip;q=0')).toBe(false);
    expect(takesGzip('*, gzip;q=0')).toBe(false);
    expect(takesGzip('*;q=0')).toBe(false);
  });
});

describe('PreparedJson', () => {
  /** A route answering whatever object `current` holds, through one PreparedJson. */
  function appAnswering(current: { value: { n: number[] } }) {
    const prepared = new PreparedJson(1024);
    const app = new Hono();
    app.get('/x', (c) => prepared.respond(c, current.value));
    return app;
  }

  it('serialises an answer object once: a change made to it afterwards is not sent', async () => {
    const current = { value: { n: [1, 2, 3] } };
    const app = appAnswering(current);
    expect(await (await app.request('/x')).json()).toEqual({ n: [1, 2, 3] });
    // The services never change an answer they handed out; doing it here shows the bytes were kept.
    current.value.n.push(4);
    expect(await (await app.request('/x')).json()).toEqual({ n: [1, 2, 3] });
    current.value = { n: [5] };
    expect(await (await app.request('/x')).json()).toEqual({ n: [5] });
  });

  it('gzips a large answer once for clients that take gzip, and sends it plain to the others', async () => {
    const current = { value: { n: Array.from({ length: 2000 }, (_, i) => i) } };
    const app = appAnswering(current);
    const zipped = await app.request('/x', { headers: { 'accept-encoding': 'gzip' } });
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    const bytes = Buffer.from(await zipped.arrayBuffer());
    expect(zipped.headers.get('content-length')).toBe(String(bytes.byteLength));
    expect(JSON.parse(gunzipSync(bytes).toString('utf8'))).toEqual(current.value);
    const plain = await app.request('/x', { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.json()).toEqual(current.value);
  });
});
