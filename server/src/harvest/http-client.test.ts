import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PoliteHttpClient, parseRetryAfter, type WaitEvent } from './http-client.ts';

let server: Server;
let base = '';
let inFlight = 0;
let maxInFlight = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    setTimeout(() => {
      inFlight -= 1;
      res.end(`ok ${req.url}`);
    }, 20);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('parseRetryAfter', () => {
  it('reads delta-seconds and HTTP dates', () => {
    expect(parseRetryAfter('10', 0)).toBe(10_000);
    const now = Date.parse('2026-03-16T12:00:00Z');
    expect(parseRetryAfter('Mon, 16 Mar 2026 12:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Mon, 16 Mar 2026 11:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
  });
});

describe('PoliteHttpClient', () => {
  it('sends one request at a time and spaces their starts by the minimum interval', async () => {
    // A fake clock: sleeping advances it, so the spacing is checked without waiting real seconds.
    let clock = 1_000_000;
    const waits: WaitEvent[] = [];
    const client = new PoliteHttpClient({
      minIntervalMs: 3000,
      now: () => clock,
      sleep: (ms) => {
        clock += ms;
        return Promise.resolve();
      },
      onWait: (e) => waits.push(e),
    });
    maxInFlight = 0;
    const bodies = await Promise.all([1, 2, 3].map((i) => client.get(`${base}/${i}`).then((r) => r.body)));
    expect(bodies).toEqual(['ok /1', 'ok /2', 'ok /3']);
    expect(maxInFlight).toBe(1);
    // The first request goes at once; each later one waits for the rest of its 3 s slot.
    expect(waits.map((w) => w.reason)).toEqual(['rate-limit', 'rate-limit']);
    for (const w of waits) expect(w.ms).toBe(3000);
  });

  it('keeps serving the queue after a request fails', async () => {
    const client = new PoliteHttpClient({ minIntervalMs: 0, maxRetries: 0, timeoutMs: 2000 });
    await expect(client.get('http://127.0.0.1:9/')).rejects.toMatchObject({ code: 'source-unreachable' });
    expect((await client.get(`${base}/after`)).body).toBe('ok /after');
  });
});
