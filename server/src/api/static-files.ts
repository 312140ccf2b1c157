import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import type { MiddlewareHandler } from 'hono';

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
    const body = await readFile(target);
    const immutable = target.includes(`${sep}_app${sep}immutable${sep}`);
    return c.body(body, 200, {
      'content-type': TYPES[extname(target)] ?? 'application/octet-stream',
      'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    });
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
