import { isDay } from './calendar.ts';
import { METADATA_PREFIXES, type MetadataPrefix } from './oai-records.ts';

export type ListVerb = 'ListRecords' | 'ListIdentifiers';

/** The selective-harvest arguments of a list request. */
export interface ListQuery {
  verb: ListVerb;
  prefix: MetadataPrefix;
  set: string | null;
  from: string | null;
  until: string | null;
}

/** What a resumption token carries: the original query, where the next page starts, and its generation. */
export interface TokenState extends ListQuery {
  offset: number;
  generation: number;
}

interface Wire {
  v: string;
  p: string;
  s: string | null;
  f: string | null;
  u: string | null;
  o: number;
  g: number;
}

/**
 * Tokens are base64url of a small JSON object. The server keeps no per-token state: everything needed to
 * continue is in the token, and expiry is a generation number compared with the server's current one.
 */
export function encodeToken(state: TokenState): string {
  const wire: Wire = {
    v: state.verb,
    p: state.prefix,
    s: state.set,
    f: state.from,
    u: state.until,
    o: state.offset,
    g: state.generation,
  };
  return Buffer.from(JSON.stringify(wire), 'utf8').toString('base64url');
}

/** The token's state, or null when it is not one this server could have issued. */
export function decodeToken(token: string): TokenState | null {
  if (!/^[A-Za-z0-9_-]+$/.test(token)) return null;
  let wire: Partial<Wire>;
  try {
    wire = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as Partial<Wire>;
  } catch {
    return null;
  }
  if (typeof wire !== 'object' || wire === null) return null;
  const { v, p, s, f, u, o, g } = wire;
  const optionalDay = (value: unknown): value is string | null =>
    value === null || (typeof value === 'string' && isDay(value));
  if (v !== 'ListRecords' && v !== 'ListIdentifiers') return null;
  if (!METADATA_PREFIXES.some((prefix) => prefix === p)) return null;
  if (!(s === null || typeof s === 'string') || !optionalDay(f) || !optionalDay(u)) return null;
  if (!Number.isSafeInteger(o) || (o ?? -1) < 0 || !Number.isSafeInteger(g)) return null;
  return {
    verb: v,
    prefix: p as MetadataPrefix,
    set: s,
    from: f,
    until: u,
    offset: o as number,
    generation: g as number,
  };
}
