import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context, MiddlewareHandler } from 'hono';
import { QuireError } from '../errors.ts';
import { TokenBucket, type SharedLimit } from '../sync/token-bucket.ts';

/**
 * Guards for the API's state-changing requests. A page on another site can send a plain form or a
 * `text/plain` POST to a local server without a CORS preflight; requiring JSON forces the preflight, and
 * checking Origin refuses what a browser says comes from elsewhere.
 */

const CHANGES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** State-changing requests must carry JSON and, when a browser sends them, come from this server's pages. */
export function sameSiteJson(): MiddlewareHandler {
  return async (c, next) => {
    if (!CHANGES.has(c.req.method)) return next();
    const origin = c.req.header('origin');
    if (origin !== undefined && origin !== new URL(c.req.url).origin) {
      throw new QuireError(
        'forbidden',
        `Requests from ${origin} cannot change groups on this server; use Quire's own pages.`,
      );
    }
    const type = (c.req.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
    if (c.req.method !== 'DELETE' && type !== 'application/json') {
      throw new QuireError(
        'unsupported-media-type',
        `Send the body as JSON with Content-Type: application/json (got ${type ? `"${type}"` : 'none'}).`,
      );
    }
    return next();
  };
}

export interface RateLimitOptions {
  perHour: number;
  burst: number;
  now?: () => number;
  /** Where every node counts (Redis, with several nodes): without it, or while it is away, this node's buckets. */
  shared?: SharedLimit;
}

/** Most addresses a limiter remembers; the oldest are forgotten first (a full bucket again). */
const MAX_ADDRESSES = 10_000;

/** A token bucket per client address, for an expensive or abusable request such as creating a group. */
export function perAddressLimit(what: string, options: RateLimitOptions): MiddlewareHandler {
  const buckets = new Map<string, TokenBucket>();
  return async (c, next) => {
    const address = clientAddress(c);
    let bucket = buckets.get(address);
    if (!bucket) {
      if (buckets.size >= MAX_ADDRESSES) buckets.delete(buckets.keys().next().value ?? '');
      bucket = new TokenBucket(options.perHour / 3600, options.burst, options.now);
      buckets.set(address, bucket);
    }
    const allowed = options.shared
      ? await options.shared.take(`http:${what}:${address}`, options.perHour / 3600, options.burst, bucket)
      : bucket.take();
    if (!allowed) {
      throw new QuireError(
        'rate-limited',
        `Too many ${what} from this address (${options.perHour} an hour, ${options.burst} at once); try again later.`,
      );
    }
    return next();
  };
}

function clientAddress(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    // In-process requests (tests' app.request) have no socket.
    return 'unknown';
  }
}
