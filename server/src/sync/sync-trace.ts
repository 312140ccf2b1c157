import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import * as Y from 'yjs';

/*
 * Where a group update's time goes on its way through this node (the sync bench's breakdown, issue 13):
 * off unless QUIRE_SYNC_TRACE names a folder, and then each process writes one file there,
 * `sync-trace-<pid>.txt`. Every call site reads `syncTrace` and does nothing when it is null, so an
 * untraced server pays one comparison per step.
 *
 * One line per step an update passes: `<stage> <time> <client>:<from>:<to>,…` — the time in ms on the
 * machine's clock (performance.timeOrigin + now, the same in every process, to a microsecond), and the
 * Yjs struct ranges the update carries, so the bench can join a client's edit (its client id and clock)
 * with the steps it took on each node. Counted events (catch-up reads and what set them off) are
 * `count <time> <name>`.
 */

export type TraceStage =
  /** A client's update arrived on its socket (it then waits for the connection's earlier frames). */
  | 'arrived'
  /** It reached GroupDoc.store on the node it is connected to. */
  | 'received'
  /** Its append to the log started (it had waited for the group's previous one until then). */
  | 'append-start'
  /** The log has it committed. */
  | 'committed'
  /** Applied here, so sent to this node's other sockets. */
  | 'applied'
  /** It was handed to Redis for the other nodes. */
  | 'published'
  /** Another node's update arrived here through Redis. */
  | 'remote-received'
  /** Applied, but Yjs holds (some of) it back until structs it depends on arrive. */
  | 'pending'
  /** Sent to this node's sockets (Yjs emitted it): another node's update or a row read back from the log. */
  | 'fanned-out'
  /** The same, for rows a catch-up read from the log. */
  | 'fanned-out-catch-up';

export class SyncTrace {
  private readonly fd: number;
  private lines: string[] = [];

  constructor(dir: string) {
    this.fd = openSync(join(dir, `sync-trace-${process.pid}.txt`), 'a');
    // Written in batches, synchronously, and the rest at exit: a stream's last writes would be lost
    // when the process exits after SIGTERM.
    setInterval(() => this.flush(), 200).unref();
    process.once('exit', () => {
      this.flush();
      closeSync(this.fd);
    });
  }

  mark(stage: TraceStage, update: Uint8Array): void {
    this.lines.push(`${stage} ${now()} ${ranges(update)}\n`);
  }

  count(name: string): void {
    this.lines.push(`count ${now()} ${name}\n`);
  }

  private flush(): void {
    if (this.lines.length === 0) return;
    writeSync(this.fd, this.lines.join(''));
    this.lines = [];
  }
}

function now(): string {
  return (performance.timeOrigin + performance.now()).toFixed(3);
}

function ranges(update: Uint8Array): string {
  try {
    const { from, to } = Y.parseUpdateMeta(update);
    const parts: string[] = [];
    for (const [client, clock] of from) parts.push(`${client}:${clock}:${to.get(client) ?? clock}`);
    return parts.join(',');
  } catch {
    return '';
  }
}

/** The trace of this process, or null (the default) when QUIRE_SYNC_TRACE is not set. */
export const syncTrace: SyncTrace | null = process.env.QUIRE_SYNC_TRACE
  ? new SyncTrace(process.env.QUIRE_SYNC_TRACE)
  : null;
