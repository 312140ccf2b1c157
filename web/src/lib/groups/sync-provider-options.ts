import { syncProtocols } from '@quire/core';

/** What the group's WebsocketProvider needs beyond its URL, room and document. */
export interface SyncProviderOptions {
  protocols: string[];
  connect: boolean;
}

/**
 * The invite token rides in the `Sec-WebSocket-Protocol` header, not in `?token=`: a URL shows up in
 * console errors and proxy access logs, that header does not. The provider starts unconnected because the
 * session connects once the local copy has loaded.
 */
export function syncProviderOptions(token: string): SyncProviderOptions {
  return { protocols: syncProtocols(token), connect: false };
}
