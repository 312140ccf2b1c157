/**
 * The stock y-websocket server (@y/websocket-server 0.1.1) on a port of its own, for `pnpm bench sync` to
 * compare against: its documented wiring (an HTTP server, `ws` in noServer mode, `setupWSConnection`), with
 * no persistence configured, as it ships. Prints `listening <port>` once ready.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setupWSConnection } from '@y/websocket-server/utils';
import { WebSocketServer } from 'ws';

const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/plain' });
  res.end('stock y-websocket server\n');
});
const wss = new WebSocketServer({ noServer: true });
wss.on('connection', (ws, req) => {
  // The room is the path after /yjs/, as the y-websocket provider builds it.
  const docName = (req.url ?? '/')
    .split('?')[0]!
    .replace(/^\/yjs\//, '')
    .replace(/^\//, '');
  setupWSConnection(ws, req, { docName, gc: true });
});
server.on('upgrade', (req, socket, head) => {
  wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
});
server.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => {
  console.log(`listening ${(server.address() as AddressInfo).port}`);
});
