/// <reference types="@sveltejs/kit" />
/**
 * The offline app shell. At install it caches the built app (every JS and CSS file, lazy ones included, so
 * offline search can load its index code) and the single-page fallback; pages then load from the network
 * when there is one and from this cache when not. API answers are never cached here: the data the app keeps
 * for offline use lives in IndexedDB (lib/offline), where the app decides what to keep and how old it is.
 */
import { base, build, files, version } from '$service-worker';

const sw = self as unknown as ServiceWorkerGlobalScope;

const CACHE_PREFIX = 'quire-shell-';
const CACHE = `${CACHE_PREFIX}${version}`;
/** adapter-static's `fallback` (svelte.config.js): the page that boots the app on any route. */
const SHELL = `${base}/index.html`;
/** Hashed build files and static files: the same URL always means the same bytes, so cache first. */
const ASSETS = new Set([...build, ...files]);

sw.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      await cache.addAll([...ASSETS, SHELL]);
      // The shell is self-contained per version, so the new one may take over at once: a page still open
      // on the old version keeps its already-loaded code, and the next navigation boots the new one.
      await sw.skipWaiting();
    })(),
  );
});

sw.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const key of await caches.keys()) {
        if (key.startsWith(CACHE_PREFIX) && key !== CACHE) await caches.delete(key);
      }
      // Control the page that installed this worker too, so its first visit already works offline.
      await sw.clients.claim();
    })(),
  );
});

async function fromCache(request: Request | string): Promise<Response | undefined> {
  return (await caches.open(CACHE)).match(request);
}

/** Navigations: the network's page when it answers (a new deployment shows at once), else the shell. */
async function navigate(request: Request): Promise<Response> {
  try {
    return await fetch(request);
  } catch {
    const shell = await fromCache(SHELL);
    if (shell) return shell;
    return new Response('Quire is offline and its app shell is not cached yet. Reconnect and reload.', {
      status: 503,
      headers: { 'content-type': 'text/plain; charset=utf-8' },
    });
  }
}

async function asset(request: Request): Promise<Response> {
  return (await fromCache(request)) ?? fetch(request);
}

sw.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== sw.location.origin) return;
  // The API goes to the network untouched; the app falls back on IndexedDB itself.
  if (url.pathname.startsWith(`${base}/api/`)) return;
  if (request.mode === 'navigate') event.respondWith(navigate(request));
  else if (ASSETS.has(url.pathname)) event.respondWith(asset(request));
});
