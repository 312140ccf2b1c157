import type { MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';

/**
 * Framing is refused by the header alone: a policy in a <meta> tag cannot carry frame-ancestors, and the
 * built pages only have the tag.
 */
const NO_FRAMING = "frame-ancestors 'none'";

/**
 * nosniff, no-referrer, no framing and a Content-Security-Policy on every answer. A handler that set its own
 * policy keeps it (the web app sends its page's); JSON, plain-text errors and the rest get one under which
 * nothing in them may run or load.
 */
export function securityHeaders(): MiddlewareHandler {
  return secureHeaders({
    contentSecurityPolicy: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
    xFrameOptions: 'DENY',
    // A local server over plain HTTP: HSTS there is ignored, and behind an HTTPS proxy it is the proxy's call
    // (includeSubDomains would bind every other site of that domain).
    strictTransportSecurity: false,
    overwrite: false,
  });
}

const META_POLICY = /<meta\s+http-equiv="content-security-policy"\s+content="([^"]*)"/i;

/**
 * The header policy for the web app: the one SvelteKit's kit.csp wrote into the page (hashes of its inline
 * scripts included), plus frame-ancestors. Read from the built page so the two can never disagree.
 */
export function pagePolicy(html: string): string {
  const match = META_POLICY.exec(html);
  // A build without kit.csp: still no framing, and nothing more restrictive the page was not built for.
  if (!match?.[1]) return NO_FRAMING;
  return `${unescapeAttribute(match[1])}; ${NO_FRAMING}`;
}

function unescapeAttribute(value: string): string {
  return value
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)))
    .replace(/&#x([0-9a-f]+);/gi, (_, code: string) => String.fromCharCode(parseInt(code, 16)))
    .replaceAll('&quot;', '"')
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');
}
