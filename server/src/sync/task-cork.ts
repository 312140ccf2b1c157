/** What a connection's socket offers for holding its writes back (node:net's Socket, a Duplex). */
export interface Corkable {
  cork(): void;
  uncork(): void;
}

/** Sockets written to by the task now running, corked, released together when it ends. */
const corked = new Set<Corkable>();
let releaseQueued = false;

/**
 * Holds `socket`'s writes until the task now running (one I/O callback, or one promise continuation) has
 * ended, released in a microtask, so that every frame it sends the socket leaves in one write. The update
 * rows of one batch of a group's appends, and the several updates one read from Redis hands over, are sent
 * to each of a group's sockets by one task; a sync server's profile (3-node bench) spent most of its fan-out
 * in one writev syscall per frame per socket, a loopback write costing its reader's wake-up too. Released
 * at the task's end rather than the event loop's turn: a frame waits for nothing the task does not do.
 */
export function corkForThisTask(socket: Corkable): void {
  if (corked.has(socket)) return;
  socket.cork();
  corked.add(socket);
  if (releaseQueued) return;
  releaseQueued = true;
  queueMicrotask(releaseCorked);
}

function releaseCorked(): void {
  releaseQueued = false;
  const sockets = [...corked];
  corked.clear();
  for (const socket of sockets) socket.uncork();
}
