import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { serveWebApp } from './static-files.ts';

const dir = mkdtempSync(join(tmpdir(), 'quire-web-'));
writeFileSync(
  join(dir, 'index.html'),
  '<!doctype html><head><title>app</title>\n<link href="/_app/start.js" rel="modulepreload"></head>',
);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const app = new Hono();
app.use('*', serveWebApp(dir));
app.onError((err, c) => {
  console.error(err);
  return c.text('internal', 500);
});

describe('serveWebApp', () => {
  it('answers a broken %-escape with 400 and logs nothing', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const res = await app.request('/%E0%A4%A');
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('broken %-escape');
    expect(logged).not.toHaveBeenCalled();
    logged.mockRestore();
  });

  it('still serves the app for client-side routes, escaped or not', async () => {
    for (const path of [
      '/topics/rl-for-llm-agents',
      '/papers/2605.00001',
      '/search?q=caf%C3%A9',
      '/caf%C3%A9',
    ]) {
      const res = await app.request(path);
      expect(res.status, path).toBe(200);
      expect(await res.text()).toContain('<title>app</title>');
    }
  });

  it("names a topic page's data in the page, ahead of the modules, and nothing for other routes", async () => {
    const html = await (await app.request('/topics/rl-for-llm-agents')).text();
    const topic = html.indexOf(
      '<link href="/api/topics/rl-for-llm-agents" rel="preload" as="fetch" crossorigin>',
    );
    const list = html.indexOf('<link href="/api/topics" rel="preload" as="fetch" crossorigin>');
    const modules = html.indexOf('rel="modulepreload"');
    expect(topic).toBeGreaterThan(0);
    expect(list).toBeGreaterThan(topic);
    expect(modules).toBeGreaterThan(list);
    for (const path of ['/', '/papers/2605.00001', '/topics/a%22b', '/topics/rl/more', '/_app/start.js']) {
      expect(await (await app.request(path)).text(), path).not.toContain('as="fetch"');
    }
  });
});
