/** What a route handler produces; the server applies faults to it before it goes on the wire. */
export interface Reply {
  status: number;
  /** Header name/value pairs in order; a name may repeat, as in nock's rawHeaders. */
  headers: Array<[string, string]>;
  body: string | Buffer;
}

/** The mutable server state handlers read. */
export interface ReplayContext {
  readonly url: string;
  readonly oaiUrl: string;
  /** The simulated "today", YYYY-MM-DD. */
  readonly day: string;
  /** The simulated clock for responseDate and Atom `updated`. */
  nowMs(): number;
  readonly oaiPageSize: number;
  /** Resumption tokens from an older generation are expired. */
  readonly tokenGeneration: number;
}

export function textReply(status: number, contentType: string, body: string): Reply {
  return { status, headers: [['Content-Type', contentType]], body };
}

export const XML_TYPE = 'text/xml; charset=utf-8';
export const ATOM_TYPE = 'application/atom+xml; charset=utf-8';
export const RSS_TYPE = 'application/rss+xml; charset=utf-8';
