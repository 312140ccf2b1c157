import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import adapter from '@sveltejs/adapter-static';
import { vitePreprocess } from '@sveltejs/vite-plugin-svelte';

/**
 * Hashes of the inline scripts in src/app.html (the theme script). kit.csp hashes only the scripts SvelteKit
 * writes itself; these are computed from the template at each build, so editing the script cannot leave a
 * stale hash behind.
 */
function templateScriptHashes() {
  const template = readFileSync(new URL('./src/app.html', import.meta.url), 'utf8');
  return [...template.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(
    ([, body]) =>
      /** @type {`sha256-${string}`} */ (`sha256-${createHash('sha256').update(body).digest('base64')}`),
  );
}

/** @type {import('@sveltejs/kit').Config} */
const config = {
  preprocess: vitePreprocess(),
  kit: {
    // The server serves build/ and falls back to index.html for client-side routes.
    adapter: adapter({ pages: 'build', assets: 'build', fallback: 'index.html' }),
    // The app registers its worker itself once the first page has rendered (src/lib/offline/shell-worker.ts):
    // registered at the window's load, its install's fetches of the whole build delayed the route's files.
    serviceWorker: { register: false },
    // Written into the built pages as a <meta> tag; the server sends the same policy as a header, adding
    // frame-ancestors, which a <meta> policy cannot hold (server/src/api/security-headers.ts).
    csp: {
      mode: 'hash',
      directives: {
        'default-src': ['self'],
        'script-src': ['self', ...templateScriptHashes()],
        'style-src': ['self'],
        // Style attributes only: SvelteKit's route announcer (and app.html's wrapper) carry one. An attribute
        // cannot load anything (img-src and font-src stay 'self'), and no page text becomes markup.
        'style-src-attr': ['unsafe-inline'],
        // The favicon is a data: URL (app.html); charts and icons are inline SVG.
        'img-src': ['self', 'data:'],
        'font-src': ['self'],
        // The API, and the group sync websocket on the same origin ('self' covers ws: and wss: there).
        'connect-src': ['self'],
        'worker-src': ['self'],
        'manifest-src': ['self'],
        'object-src': ['none'],
        'base-uri': ['self'],
        'form-action': ['self'],
      },
    },
  },
};

export default config;
