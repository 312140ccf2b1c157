/**
 * WebSocket close codes of the group sync endpoint (`/yjs/<groupId>`), private range 4000–4999.
 *
 * Numbers are 4000 + an HTTP-like status so people can read them. The hundreds digit also follows the
 * convention y-websocket 3's provider acts on by default: 4400–4499 means "reconnecting cannot help"
 * (the provider stops and emits `closed`), anything else is retried with backoff. So a rate-limited
 * client or one closed by a restart comes back by itself, while a bad token does not hammer the server.
 * Reasons are short (a close reason is at most 123 bytes) and say what to do.
 */
export interface CloseCode {
  code: number;
  reason: string;
}

export const CLOSE_CODES = {
  /** A frame that is not a well-formed y-websocket message (unknown type, truncated, garbage update). */
  badMessage: { code: 4400, reason: 'malformed sync message; the client sent bytes this server cannot read' },
  /** No `token` query parameter, or one that opens no invite of this group. */
  unauthorized: { code: 4401, reason: 'unauthorized: join through an invite link of this group' },
  /** A read-only invite sent a document update. */
  readOnly: { code: 4403, reason: 'read-only invite: this connection may read but not change the group' },
  /** The group id in the path is not a group of this server. */
  unknownGroup: { code: 4404, reason: 'unknown group: check the invite link' },
  /** The invite was revoked (at connect time, or while connected). */
  revoked: { code: 4410, reason: 'invite revoked: ask a member for a new invite link' },
  /** A frame above the configured size limit (QUIRE_SYNC_MAX_FRAME_BYTES). */
  frameTooLarge: { code: 4413, reason: 'frame too large for this server (see QUIRE_SYNC_MAX_FRAME_BYTES)' },
  /**
   * A connection announced presence for more client ids than one connection may (a y-websocket client
   * announces exactly one), as a frame that adds thousands of fake members would.
   */
  presenceRefused: {
    code: 4422,
    reason: 'presence refused: more client ids than one connection may announce (QUIRE_SYNC_PRESENCE_IDS)',
  },
  /** The server could not store or load the group; the client keeps its changes and retries. */
  serverError: { code: 4500, reason: 'server error while storing the group; retrying later' },
  /**
   * The server had more than the configured amount waiting to be sent to this client (a reader that stopped
   * reading, or a very slow link). Retried: the client resyncs from a fresh start instead of being fed
   * an ever-growing backlog.
   */
  tooSlow: { code: 4509, reason: 'too far behind: this connection could not keep up; reconnect to resync' },
  /** The server is stopping; the client reconnects to the next instance. */
  shuttingDown: { code: 4503, reason: 'server shutting down; reconnect shortly' },
  /**
   * More messages than the per-connection token bucket allows. In the retry range on purpose: a burst
   * from a real client should cost a reconnect, not lock the reader out of the group.
   */
  rateLimited: { code: 4529, reason: 'rate limited: too many messages; slow down and reconnect' },
  /*
   * The limits shared between connections use the same number, as HTTP has one 429 for every rate limit:
   * all are retried, and the reason says which limit was reached.
   */
  /** More messages than all connections on one invite may send together (QUIRE_SYNC_INVITE_RATE/BURST). */
  inviteRateLimited: {
    code: 4529,
    reason: 'rate limited: too many messages on this invite link; slow down and reconnect',
  },
  /** More messages than all connections from one address may send together (QUIRE_SYNC_ADDRESS_RATE/BURST). */
  addressRateLimited: {
    code: 4529,
    reason: 'rate limited: too many messages from this address; slow down and reconnect',
  },
  /** More live connections from one address than allowed (QUIRE_SYNC_CONNECTIONS_PER_ADDRESS). */
  tooManyConnections: {
    code: 4529,
    reason: 'too many connections from this address; close other tabs or wait, then reconnect',
  },
  /**
   * More requests for the group's state (sync step 1) from one address than allowed: a reconnect loop
   * asking for a large group again and again (QUIRE_SYNC_STATE_REQUESTS_PER_MINUTE/BURST).
   */
  stateRequestsLimited: {
    code: 4529,
    reason: 'rate limited: too many requests for the whole group from this address; reconnect later',
  },
} as const satisfies Record<string, CloseCode>;

export type CloseCodeName = keyof typeof CLOSE_CODES;

/**
 * Sent by `ws` itself, without our reason, for a frame above its hard cap (twice the configured frame
 * limit), which it refuses from the header alone instead of buffering it.
 */
export const WS_MESSAGE_TOO_BIG = 1009;
