import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { Context } from 'hono';

const gzipAsync = promisify(gzip);

/** Bodies from this size up are sent gzipped to a client that takes gzip (as compress() does in app.ts). */
export const GZIP_FROM_BYTES = 1024;

interface Prepared {
  json: Uint8Array<ArrayBuffer>;
  /** Made on the first request that takes gzip, in the thread pool, then kept. */
  gzipped: Promise<Uint8Array<ArrayBuffer>> | null;
}

const utf8 = new TextEncoder();

/** zlib's output as the plain byte view a response body takes (zlib never hands out shared memory). */
function bytesOf(buffer: Buffer): Uint8Array<ArrayBuffer> {
  return new Uint8Array(buffer.buffer as ArrayBuffer, buffer.byteOffset, buffer.byteLength);
}

/**
 * JSON answers that a service hands out again and again as the same object (the topic service's cached topic
 * list and topics) are turned into bytes once: the topic list is hundreds of KB, and serialising and
 * compressing it on every page load held the event loop ~20–35 ms while the page's scripts waited behind it.
 * Keyed by the object itself, so a new answer (new papers, a new day) is prepared afresh and the old bytes go
 * with the old object.
 */
export class PreparedJson {
  readonly #prepared = new WeakMap<object, Prepared>();

  respond(c: Context, value: object): Promise<Response> | Response {
    let prepared = this.#prepared.get(value);
    if (!prepared) {
      prepared = { json: utf8.encode(JSON.stringify(value)), gzipped: null };
      this.#prepared.set(value, prepared);
    }
    const { json } = prepared;
    const headers = { 'content-type': 'application/json; charset=utf-8', vary: 'Accept-Encoding' };
    if (json.byteLength < GZIP_FROM_BYTES || !takesGzip(c.req.header('accept-encoding'))) {
      return c.body(json, 200, { ...headers, 'content-length': String(json.byteLength) });
    }
    const gzipping = (prepared.gzipped ??= gzipAsync(json).then(bytesOf, (err: unknown) => {
      // Not kept: the next request tries again.
      if (prepared) prepared.gzipped = null;
      throw err;
    }));
    return gzipping.then((bytes) =>
      c.body(bytes, 200, {
        ...headers,
        'content-encoding': 'gzip',
        'content-length': String(bytes.byteLength),
      }),
    );
  }
}

/** Whether an Accept-Encoding header takes gzip: named (or `*`) with a q above 0. */
export function takesGzip(header: string | undefined): boolean {
  if (!header) return false;
  let star = false;
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    if (name === 'gzip') return weight > 0;
    if (name === '*' && weight > 0) star = true;
  }
  return star;
}
