import { WebsocketProvider } from 'y-websocket';
import { WebSocket } from 'ws';
import { forEachAddedEntry } from './added-entries.ts';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import * as Y from 'yjs';

/** How each load thread's stalls line starts: every thread's is printed, not only the first's (sync-load-threads.ts). */
export const EVENT_LOOP_DELAY_LINE = "client thread's event-loop delay:";

/** One room a load client joins: the provider's room name and its URL parameters (a token, for Quire). */
export interface LoadRoom {
  room: string;
  params: Record<string, string>;
}

export interface LoadOptions {
  /**
   * ws://host:port/yjs of each node: the provider appends `/<room>`. A room's clients are dealt across
   * them in turn (client i to node i mod n), so with n nodes most of a room's deliveries cross nodes.
   */
  serverUrls: string[];
  rooms: LoadRoom[];
  clientsPerRoom: number;
  editsPerSecond: number;
  seconds: number;
  onProgress?: (line: string) => void;
  /** Record every delivery's Yjs id and times for the servers' trace (QUIRE_SYNC_TRACE, trace-breakdown.ts). */
  traceDeliveries?: boolean;
}

/**
 * Every delivery, column by column: the edit's Yjs client id and clock (what the servers' trace names),
 * when it was sent and received on the machine's clock (performance.timeOrigin + now, in ms, comparable
 * with the server processes' trace), and the sender's and receiver's nodes.
 */
export interface DeliveryTrace {
  client: Float64Array;
  clock: Float64Array;
  sentAt: Float64Array;
  receivedAt: Float64Array;
  senderNode: Float64Array;
  receiverNode: Float64Array;
}

export interface LoadResult {
  clients: number;
  editsSent: number;
  /** Remote edits seen by clients; each edit should reach every other client of its room. */
  deliveries: number;
  expectedDeliveries: number;
  /** Milliseconds from `set` in one client to the observer firing in another (same process, same clock). */
  latencies: Float64Array;
  /** The same, for deliveries whose sender is connected to another node than the receiver. */
  crossLatencies: Float64Array;
  elapsedSeconds: number;
  /** Edits sent in a room that a client of it still lacked at the end, summed over clients. */
  missingUpdates: number;
  /** Clients whose final array differs from the first client's of their room (order included). */
  divergedClients: number;
  /** From the last edit sent until every client held every edit (or the wait gave up). */
  settleSeconds: number;
  /** With `traceDeliveries`. */
  trace?: DeliveryTrace;
}

interface Client {
  doc: Y.Doc;
  provider: WebsocketProvider;
  index: number;
  node: number;
  room: number;
}

/**
 * Headless y-websocket clients in this process. Every client appends `[client, seq, sentAt]` to its room's
 * shared array at a fixed rate (phases spread so the load is even); every client observes the array and
 * records, for each entry another client appended, how long it took to arrive.
 */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  // Each provider adds a process 'exit' listener; hundreds of clients are the point here.
  process.setMaxListeners(0);
  const latencies: number[] = [];
  const crossLatencies: number[] = [];
  const clients: Client[] = [];
  /** The node each client (by index) is connected to. */
  const nodeOf: number[] = [];
  let deliveries = 0;
  const traced: number[][] = [[], [], [], [], [], []];
  const origin = performance.timeOrigin;
  let measuring = false;
  let index = 0;
  const urls = options.serverUrls;
  for (const [roomIndex, room] of options.rooms.entries()) {
    for (let i = 0; i < options.clientsPerRoom; i += 1) {
      const doc = new Y.Doc();
      const node = i % urls.length;
      nodeOf.push(node);
      const provider = new WebsocketProvider(urls[node]!, room.room, doc, {
        WebSocketPolyfill: WebSocket as unknown as typeof globalThis.WebSocket,
        params: room.params,
        disableBc: true,
      });
      const me = index;
      const edits = doc.getArray<[number, number, number]>('edits');
      edits.observe((event) => {
        if (event.transaction.local || !measuring) return;
        const now = performance.now();
        forEachAddedEntry(event.transaction, edits, (entry, client, clock) => {
          if (entry[0] === me) return;
          deliveries += 1;
          latencies.push(now - entry[2]);
          if (nodeOf[entry[0]] !== node) crossLatencies.push(now - entry[2]);
          if (!options.traceDeliveries) return;
          const row = [client, clock, origin + entry[2], origin + now, nodeOf[entry[0]] ?? -1, node];
          row.forEach((v, c) => traced[c]!.push(v));
        });
      });
      clients.push({ doc, provider, index: me, node, room: roomIndex });
      index += 1;
    }
  }
  await waitUntil(() => clients.every((c) => c.provider.synced), 30_000, 'every client to sync');
  options.onProgress?.(`${clients.length} clients connected and synced`);

  const periodMs = 1000 / options.editsPerSecond;
  const durationMs = options.seconds * 1000;
  let editsSent = 0;
  measuring = true;
  // A delivery waits for this thread as much as for the servers: its stalls are printed beside the figures.
  const lag = monitorEventLoopDelay({ resolution: 1 });
  lag.enable();
  const started = performance.now();
  const sent = new Array<number>(clients.length).fill(0);
  // One ticker sends every edit that is due, catching up after a late tick: the offered load stays what
  // was asked even when this process is busy, so both servers are given the same work.
  const ticker = setInterval(() => {
    const elapsed = Math.min(performance.now() - started, durationMs);
    for (const client of clients) {
      // Phases spread over one period, so 1,000 edits a second do not leave in bursts.
      const phase = (client.index * periodMs) / clients.length;
      const due = elapsed < phase ? 0 : Math.floor((elapsed - phase) / periodMs) + 1;
      const array = client.doc.getArray<[number, number, number]>('edits');
      while ((sent[client.index] ?? 0) < due) {
        sent[client.index] = (sent[client.index] ?? 0) + 1;
        array.push([[client.index, sent[client.index] ?? 0, performance.now()]]);
        editsSent += 1;
      }
    }
  }, 2);
  for (let s = 1; s <= options.seconds; s += 1) {
    await sleep(1000);
    options.onProgress?.(`  ${s}/${options.seconds} s: ${editsSent} edits sent, ${deliveries} delivered`);
  }
  clearInterval(ticker);
  lag.disable();
  options.onProgress?.(
    `${EVENT_LOOP_DELAY_LINE} p50 ${(lag.percentile(50) / 1e6).toFixed(1)} ms, ` +
      `p99 ${(lag.percentile(99) / 1e6).toFixed(1)} ms, max ${(lag.max / 1e6).toFixed(1)} ms`,
  );
  const stopSending = Math.min(performance.now(), started + durationMs);
  const expected = () => editsSent * (options.clientsPerRoom - 1);
  // Let what is in flight land (bounded): the figures are about delivery, not about cutting it short.
  await waitUntil(() => deliveries >= expected(), 10_000, 'in-flight edits').catch(() => undefined);
  measuring = false;
  // Then whether every client ended with every edit of its room, in the same order: a delivery counted
  // above could hide a lost one only if another arrived twice, and this counts the losses themselves.
  const roomSent = new Map<number, number>();
  for (const c of clients) roomSent.set(c.room, (roomSent.get(c.room) ?? 0) + (sent[c.index] ?? 0));
  const allHeld = () => clients.every((c) => c.doc.getArray('edits').length >= (roomSent.get(c.room) ?? 0));
  const held = () => clients.reduce((n, c) => n + c.doc.getArray('edits').length, 0);
  // As long as edits still arrive (late is not lost), up to two minutes; stuck for 10 s counts as lost.
  let last = held();
  let lastChange = performance.now();
  while (!allHeld() && performance.now() - lastChange < 10_000 && performance.now() - stopSending < 120_000) {
    await sleep(50);
    const now = held();
    if (now !== last) [last, lastChange] = [now, performance.now()];
  }
  const settleSeconds = (performance.now() - stopSending) / 1000;
  const final = convergence(clients, roomSent);
  for (const c of clients) c.provider.destroy();
  return {
    clients: clients.length,
    editsSent,
    deliveries,
    expectedDeliveries: expected(),
    latencies: Float64Array.from(latencies),
    crossLatencies: Float64Array.from(crossLatencies),
    elapsedSeconds: (stopSending - started) / 1000,
    missingUpdates: final.missing,
    divergedClients: final.diverged,
    settleSeconds,
    ...(options.traceDeliveries
      ? {
          trace: {
            client: Float64Array.from(traced[0]!),
            clock: Float64Array.from(traced[1]!),
            sentAt: Float64Array.from(traced[2]!),
            receivedAt: Float64Array.from(traced[3]!),
            senderNode: Float64Array.from(traced[4]!),
            receiverNode: Float64Array.from(traced[5]!),
          },
        }
      : {}),
  };
}

/** Edits each client lacks of those its room's clients sent, and clients whose array differs from their room's first. */
function convergence(
  clients: Client[],
  roomSent: Map<number, number>,
): { missing: number; diverged: number } {
  const rooms = new Map<number, Client[]>();
  for (const c of clients) rooms.set(c.room, [...(rooms.get(c.room) ?? []), c]);
  let missing = 0;
  let diverged = 0;
  for (const [room, members] of rooms) {
    const expected = roomSent.get(room) ?? 0;
    let first: string | null = null;
    for (const c of members) {
      const entries = c.doc.getArray<[number, number, number]>('edits').toArray();
      const held = new Set(entries.map((e) => `${e[0]}:${e[1]}`));
      missing += Math.max(0, expected - held.size);
      const order = entries.map((e) => `${e[0]}:${e[1]}`).join(',');
      if (first === null) first = order;
      else if (order !== first) diverged += 1;
    }
  }
  return { missing, diverged };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function waitUntil(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!check()) {
    if (performance.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}.`);
    await sleep(20);
  }
}

export function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}
