/**
 * The websocket subprotocol the sync endpoint speaks. The server answers the handshake with it, because
 * browsers fail a handshake whose client offered subprotocols and got none back.
 */
export const SYNC_SUBPROTOCOL = 'quire.v1';

/** Prefix of the subprotocol entry carrying the invite token (base64url is valid in a subprotocol name). */
const TOKEN_PREFIX = 'token.';

/**
 * The `Sec-WebSocket-Protocol` list a client offers to join a group: the token travels in this header,
 * never in the URL, so it stays out of console errors and proxy access logs.
 */
export function syncProtocols(token: string): string[] {
  return [SYNC_SUBPROTOCOL, `${TOKEN_PREFIX}${token}`];
}

/** The invite token from an offered subprotocol list, or null when none carries one. */
export function tokenFromProtocols(offered: Iterable<string>): string | null {
  for (const protocol of offered) {
    if (protocol.startsWith(TOKEN_PREFIX)) return protocol.slice(TOKEN_PREFIX.length);
  }
  return null;
}
