import { describe, expect, it } from 'vitest';
import { WebsocketProvider } from 'y-websocket';
import * as Y from 'yjs';
import { SYNC_SUBPROTOCOL } from '@quire/core';
import { syncProviderOptions } from './sync-provider-options.ts';

const TOKEN = 'a'.repeat(20) + '_-' + 'B9'.repeat(10) + 'z';

/** Records what the provider hands the WebSocket constructor, and opens nothing. */
class RecordingSocket {
  static opened: { url: string; protocols: string[] }[] = [];
  binaryType = '';
  readyState = 0;
  constructor(url: string, protocols: string[]) {
    RecordingSocket.opened.push({ url, protocols });
  }
  close(): void {}
  send(): void {}
}

describe('syncProviderOptions', () => {
  it('opens a socket whose URL holds no token, offering it as a subprotocol after quire.v1', () => {
    const doc = new Y.Doc();
    const provider = new WebsocketProvider('ws://quire.example/yjs', 'grp_1', doc, {
      ...syncProviderOptions(TOKEN),
      WebSocketPolyfill: RecordingSocket as unknown as typeof WebSocket,
      disableBc: true,
    });
    provider.connect();
    provider.destroy();
    doc.destroy();
    expect(RecordingSocket.opened).toHaveLength(1);
    const [{ url, protocols }] = RecordingSocket.opened as [{ url: string; protocols: string[] }];
    expect(url).toBe('ws://quire.example/yjs/grp_1');
    expect(url).not.toContain(TOKEN);
    expect(protocols).toEqual([SYNC_SUBPROTOCOL, `token.${TOKEN}`]);
  });
});
