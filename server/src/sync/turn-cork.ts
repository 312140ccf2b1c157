/** What a connection's socket offers for holding its writes back (node:net's Socket, a Duplex). */
export interface Corkable {
  cork(): void;
  uncork(): void;
}

/** Sockets written to in this turn of the event loop, corked, released together once it has run. */
const corked = new Set<Corkable>();
let releaseScheduled = false;

/**
 * Holds `socket`'s writes until the I/O callbacks of this turn of the event loop have run (a setImmediate),
 * so that every frame a turn sends it leaves in one write. One update from another node, or a row of
 * several from this node's clients, is sent to each of a group's sockets; Redis and the database hand
 * over several at once, and a sync server's profile (3-node bench) spent most of its fan-out in one
 * writev syscall per frame per socket, a loopback write costing its reader's wake-up too.
 */
export function corkForThisTurn(socket: Corkable): void {
  if (corked.has(socket)) return;
  socket.cork();
  corked.add(socket);
  if (releaseScheduled) return;
  releaseScheduled = true;
  setImmediate(releaseCorked);
}

function releaseCorked(): void {
  releaseScheduled = false;
  const sockets = [...corked];
  corked.clear();
  for (const socket of sockets) socket.uncork();
}
