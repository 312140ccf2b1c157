import { WebsocketProvider } from 'y-websocket';
import { WebSocket } from 'ws';
import * as Y from 'yjs';

/** One room a load client joins: the provider's room name and its URL parameters (a token, for Quire). */
export interface LoadRoom {
  room: string;
  params: Record<string, string>;
}

export interface LoadOptions {
  /** ws://host:port/yjs: the provider appends `/<room>`. */
  serverUrl: string;
  rooms: LoadRoom[];
  clientsPerRoom: number;
  editsPerSecond: number;
  seconds: number;
  onProgress?: (line: string) => void;
}

export interface LoadResult {
  clients: number;
  editsSent: number;
  /** Remote edits seen by clients; each edit should reach every other client of its room. */
  deliveries: number;
  expectedDeliveries: number;
  /** Milliseconds from `set` in one client to the observer firing in another (same process, same clock). */
  latencies: Float64Array;
  elapsedSeconds: number;
}

interface Client {
  doc: Y.Doc;
  provider: WebsocketProvider;
  index: number;
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
  const clients: Client[] = [];
  let deliveries = 0;
  let measuring = false;
  let index = 0;
  for (const room of options.rooms) {
    for (let i = 0; i < options.clientsPerRoom; i += 1) {
      const doc = new Y.Doc();
      const provider = new WebsocketProvider(options.serverUrl, room.room, doc, {
        WebSocketPolyfill: WebSocket as unknown as typeof globalThis.WebSocket,
        params: room.params,
        disableBc: true,
      });
      const me = index;
      doc.getArray<[number, number, number]>('edits').observe((event) => {
        if (event.transaction.local) return;
        const now = performance.now();
        for (const delta of event.changes.delta) {
          for (const entry of (delta.insert as [number, number, number][] | undefined) ?? []) {
            if (entry[0] === me || !measuring) continue;
            deliveries += 1;
            latencies.push(now - entry[2]);
          }
        }
      });
      clients.push({ doc, provider, index: me });
      index += 1;
    }
  }
  await waitUntil(() => clients.every((c) => c.provider.synced), 30_000, 'every client to sync');
  options.onProgress?.(`${clients.length} clients connected and synced`);

  const periodMs = 1000 / options.editsPerSecond;
  const durationMs = options.seconds * 1000;
  let editsSent = 0;
  measuring = true;
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
  const stopSending = Math.min(performance.now(), started + durationMs);
  const expected = () => editsSent * (options.clientsPerRoom - 1);
  // Let what is in flight land (bounded): the figures are about delivery, not about cutting it short.
  await waitUntil(() => deliveries >= expected(), 10_000, 'in-flight edits').catch(() => undefined);
  measuring = false;
  for (const c of clients) c.provider.destroy();
  return {
    clients: clients.length,
    editsSent,
    deliveries,
    expectedDeliveries: expected(),
    latencies: Float64Array.from(latencies),
    elapsedSeconds: (stopSending - started) / 1000,
  };
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
