import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import type { MiddlewareHandler } from 'hono';
import { withPreloads } from './page-preloads.ts';
import { pagePolicy } from './security-headers.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** Immutable build files kept in memory once read: the whole build is a few MB; this bounds a stray one. */
const KEPT_IMMUTABLE_BYTES = 32 * 1024 * 1024;

function decodedPath(pathname: string): string | null {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return null;
  }
}

/**
 * Serves the built single-page app. Unknown paths that are not API calls get index.html so client-side
 * routes survive a reload; SvelteKit's hashed assets under _app/immutable are cached for a year.
 */
export function serveWebApp(rootDir: string): MiddlewareHandler {
  const root = resolve(rootDir);
  const indexPolicy = cachedIndexPolicy(join(root, 'index.html'));
  // A hashed file never changes, and a page load asks for ~50 of them while its data is being worked out on
  // the same event loop: each is read from disk once.
  const kept = new Map<string, Buffer<ArrayBuffer>>();
  let keptBytes = 0;
  const readImmutable = async (path: string): Promise<Buffer<ArrayBuffer>> => {
    const hit = kept.get(path);
    if (hit) return hit;
    const read = await readFile(path);
    // Two requests may have read it at once: counted once.
    if (!kept.has(path) && keptBytes + read.byteLength <= KEPT_IMMUTABLE_BYTES) {
      kept.set(path, read);
      keptBytes += read.byteLength;
    }
    return read;
  };
  return async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next();
    const path = decodedPath(new URL(c.req.url).pathname);
    if (path === null) {
      // A broken %-escape names no file: a plain 400, not a crash logged per request.
      return c.text('This address has a broken %-escape (such as %E0%A4%A); check the link.', 400);
    }
    if (path.startsWith('/api/')) return next();
    const candidate = normalize(join(root, path));
    // A path that climbs out of the build folder is answered like any unknown route.
    const inside = candidate === root || candidate.startsWith(root + sep);
    const file = inside ? await existingFile(candidate) : null;
    const target = file ?? (await existingFile(join(root, 'index.html')));
    if (!target) {
      return c.text('The web app is not built. Run `npm start` (or `pnpm build`) and reload.', 503);
    }
    const immutable = target.includes(`${sep}_app${sep}immutable${sep}`);
    const read = immutable ? await readImmutable(target) : await readFile(target);
    // The app's page standing in for a client-side route names that route's data, to be fetched at once.
    const body = file ? read : Buffer.from(withPreloads(read.toString('utf8'), path));
    const html = extname(target) === '.html';
    return c.body(body, 200, {
      'content-type': TYPES[extname(target)] ?? 'application/octet-stream',
      'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
      // Every file gets the page policy: the service worker's fetches run under its script's policy, and an
      // SVG opened on its own is a document.
      'content-security-policy': html ? pagePolicy(body.toString('utf8')) : await indexPolicy(),
    });
  };
}

/** The page policy of index.html, read again only when a rebuild changed the file. */
function cachedIndexPolicy(indexPath: string): () => Promise<string> {
  let cached: { mtimeMs: number; policy: string } | null = null;
  return async () => {
    try {
      const { mtimeMs } = await stat(indexPath);
      if (cached?.mtimeMs !== mtimeMs) {
        cached = { mtimeMs, policy: pagePolicy(await readFile(indexPath, 'utf8')) };
      }
      return cached.policy;
    } catch {
      return pagePolicy('');
    }
  };
}

async function existingFile(path: string): Promise<string | null> {
  try {
    const info = await stat(path);
    if (info.isFile()) return path;
    if (info.isDirectory()) return existingFile(join(path, 'index.html'));
    return null;
  } catch {
    return null;
  }
}
