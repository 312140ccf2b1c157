import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { serveWebApp } from './static-files.ts';

const dir = mkdtempSync(join(tmpdir(), 'quire-web-'));
writeFileSync(join(dir, 'index.html'), '<!doctype html><title>app</title>');
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
});
