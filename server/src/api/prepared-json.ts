import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { Context } from 'hono';
import { parseAccept } from 'hono/utils/accept';

const gzipAsync = promisify(gzip);

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
  readonly #gzipFrom: number;

  /** `gzipFrom`: bodies from this size up go gzipped to a client that takes gzip (compress()'s threshold). */
  constructor(gzipFrom: number) {
    this.#gzipFrom = gzipFrom;
  }

  #preparedOf(value: object): Prepared {
    let prepared = this.#prepared.get(value);
    if (!prepared) {
      prepared = { json: utf8.encode(JSON.stringify(value)), gzipped: null };
      this.#prepared.set(value, prepared);
    }
    return prepared;
  }

  respond(c: Context, value: object): Promise<Response> | Response {
    const prepared = this.#preparedOf(value);
    const { json } = prepared;
    const headers = { 'content-type': 'application/json; charset=utf-8', vary: 'Accept-Encoding' };
    if (json.byteLength < this.#gzipFrom || !takesGzip(c.req.header('accept-encoding'))) {
      return c.body(json, 200, { ...headers, 'content-length': String(json.byteLength) });
    }
    const gzipping = (prepared.gzipped ??= gzipAsync(json).then(bytesOf, (err: unknown) => {
      // Not kept: the next request tries again.
      prepared.gzipped = null;
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

/** Whether an Accept-Encoding header takes gzip: named (or `*` when not named) with a q above 0. */
export function takesGzip(header: string | undefined): boolean {
  if (!header) return false;
  const accepts = parseAccept(header);
  const named = accepts.find((a) => a.type.toLowerCase() === 'gzip');
  return named ? named.q > 0 : accepts.some((a) => a.type === '*' && a.q > 0);
}
