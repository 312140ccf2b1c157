import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '@quire/server/api/app';
import { openTopics } from '@quire/server/topics/open-topics';
import { tempStore, type TempStore } from '../src/harness/temp-store.ts';
import { sqliteStores } from '@quire/server/store/stores';

// The page policy as SvelteKit's kit.csp writes it into the built index.html (attribute-escaped, as there).
const PAGE_POLICY =
  "default-src 'self'; script-src 'self' 'sha256-abc+/='; style-src 'self'; connect-src 'self'";
const INDEX_HTML = `<!doctype html><html><head>
<meta http-equiv="content-security-policy" content="${PAGE_POLICY.replaceAll("'", '&#39;')}">
</head><body><div class="app-root"></div></body></html>`;

let t: TempStore;
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  t = tempStore();
  const webDir = join(t.dir, 'build');
  mkdirSync(join(webDir, '_app'), { recursive: true });
  writeFileSync(join(webDir, 'index.html'), INDEX_HTML);
  writeFileSync(join(webDir, 'service-worker.js'), 'self.addEventListener("fetch", () => {});');
  app = createApp({
    store: sqliteStores(t.store),
    harvestState: () => null,
    topics: (await openTopics(t.store)).topics,
    webDir,
  });
});
afterAll(() => t.dispose());

function expectCommonHeaders(res: Response): void {
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  expect(res.headers.get('x-frame-options')).toBe('DENY');
}

describe('security headers', () => {
  it('an API answer, and an API error, forbid everything a browser could do with them', async () => {
    for (const path of ['/api/ping', '/api/no-such-endpoint']) {
      const res = await app.request(path);
      expectCommonHeaders(res);
      expect(res.headers.get('content-security-policy'), path).toBe(
        "default-src 'none'; frame-ancestors 'none'",
      );
    }
  });

  it("the web app's index and its client routes carry the page's own policy, plus frame-ancestors", async () => {
    for (const path of ['/', '/topics/rl-for-llm-agents', '/groups']) {
      const res = await app.request(path);
      expect(res.status, path).toBe(200);
      expectCommonHeaders(res);
      expect(res.headers.get('content-security-policy'), path).toBe(`${PAGE_POLICY}; frame-ancestors 'none'`);
    }
  });

  it('the service worker script runs under the page policy, so its fetches to this server are allowed', async () => {
    const res = await app.request('/service-worker.js');
    expect(res.status).toBe(200);
    expectCommonHeaders(res);
    expect(res.headers.get('content-security-policy')).toBe(`${PAGE_POLICY}; frame-ancestors 'none'`);
  });

  it('a broken %-escape answered 400 still carries the headers', async () => {
    const res = await app.request('/%E0%A4%A');
    expect(res.status).toBe(400);
    expectCommonHeaders(res);
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });
});
