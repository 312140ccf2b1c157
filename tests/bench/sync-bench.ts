/**
 * `pnpm bench sync`: headless y-websocket clients in this process against a sync server in its own
 * process — Quire's (durable: every update appended to SQLite before it is applied) and then the stock
 * @y/websocket-server 0.1.1 (in memory only) under the same load — and the ratios of the two.
 */
import { percentile, runLoad, type LoadResult, type LoadRoom } from './sync/sync-load.ts';
import { startQuireProcess, startStockProcess, type ServerProcess } from './sync/bench-servers.ts';

const GROUPS = Number(process.env.SYNC_BENCH_GROUPS ?? 20);
const CLIENTS_PER_GROUP = Number(process.env.SYNC_BENCH_CLIENTS ?? 10);
const EDITS_PER_SECOND = Number(process.env.SYNC_BENCH_RATE ?? 5);
const SECONDS = Number(process.env.SYNC_BENCH_SECONDS ?? 30);

interface Figures {
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  editsPerSecond: number;
  deliveriesPerSecond: number;
  deliveredShare: number;
  serverRssPeakMiB: number;
  serverRssEndMiB: number;
}

async function createQuireRooms(baseUrl: string): Promise<LoadRoom[]> {
  const rooms: LoadRoom[] = [];
  for (let g = 0; g < GROUPS; g += 1) {
    const res = await fetch(`${baseUrl}/api/groups`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: `Bench group ${g + 1}` }),
    });
    if (res.status !== 201) throw new Error(`Creating a group answered ${res.status}: ${await res.text()}`);
    const group = (await res.json()) as { id: string; invites: { role: string; token: string }[] };
    const token = group.invites.find((i) => i.role === 'read-write')?.token;
    if (!token) throw new Error('The created group came without a read-write invite.');
    rooms.push({ room: group.id, params: { token } });
  }
  return rooms;
}

async function measure(label: string, server: ServerProcess, rooms: LoadRoom[]): Promise<Figures> {
  let peak = server.rssMiB();
  const sampler = setInterval(() => {
    peak = Math.max(peak, server.rssMiB());
  }, 250);
  let result: LoadResult;
  try {
    result = await runLoad({
      serverUrl: `ws://127.0.0.1:${server.port}/yjs`,
      rooms,
      clientsPerRoom: CLIENTS_PER_GROUP,
      editsPerSecond: EDITS_PER_SECOND,
      seconds: SECONDS,
      onProgress: (line) => console.log(`  [${label}] ${line}`),
    });
  } finally {
    clearInterval(sampler);
  }
  const end = server.rssMiB();
  peak = Math.max(peak, end);
  const sorted = result.latencies.slice().sort();
  const figures: Figures = {
    p50Ms: round(percentile(sorted, 50)),
    p99Ms: round(percentile(sorted, 99)),
    maxMs: round(sorted[sorted.length - 1] ?? Number.NaN),
    editsPerSecond: round(result.editsSent / result.elapsedSeconds),
    deliveriesPerSecond: round(result.deliveries / result.elapsedSeconds),
    deliveredShare: round(result.deliveries / Math.max(1, result.expectedDeliveries), 4),
    serverRssPeakMiB: round(peak),
    serverRssEndMiB: round(end),
  };
  console.log(
    `${label}: p50 ${figures.p50Ms} ms, p99 ${figures.p99Ms} ms (max ${figures.maxMs} ms) propagation; ` +
      `${figures.editsPerSecond} edits/s sent, ${figures.deliveriesPerSecond} deliveries/s ` +
      `(${(figures.deliveredShare * 100).toFixed(2)}% of expected); server RSS peak ${figures.serverRssPeakMiB} MiB`,
  );
  return figures;
}

export async function runSyncBench(): Promise<Record<string, unknown>> {
  console.log(
    `Sync load: ${GROUPS} groups × ${CLIENTS_PER_GROUP} clients, ${EDITS_PER_SECOND} edits/s each, ${SECONDS} s ` +
      `(${GROUPS * CLIENTS_PER_GROUP * EDITS_PER_SECOND} edits/s offered), clients in one Node process, server in another.`,
  );
  const quire = await startQuireProcess();
  let ours: Figures;
  try {
    ours = await measure('quire (durable, SQLite WAL)', quire, await createQuireRooms(quire.url));
  } finally {
    await quire.stop();
  }
  const stock = await startStockProcess();
  let theirs: Figures;
  try {
    const rooms = Array.from({ length: GROUPS }, (_, g) => ({ room: `bench-${g + 1}`, params: {} }));
    theirs = await measure('stock @y/websocket-server 0.1.1 (memory only)', stock, rooms);
  } finally {
    await stock.stop();
  }
  const ratios = {
    p50: round(ours.p50Ms / theirs.p50Ms, 2),
    p99: round(ours.p99Ms / theirs.p99Ms, 2),
    throughput: round(ours.deliveriesPerSecond / theirs.deliveriesPerSecond, 3),
    memory: round(ours.serverRssPeakMiB / theirs.serverRssPeakMiB, 2),
  };
  console.log(
    `quire / stock: p50 ×${ratios.p50}, p99 ×${ratios.p99}, throughput ×${ratios.throughput}, server memory ×${ratios.memory}`,
  );
  const verdict = ours.p99Ms <= 50 && ratios.throughput >= 0.99 ? 'met' : 'NOT met';
  console.log(`targets (p99 ≤ 50 ms, throughput ≥ stock's): ${verdict}`);
  return {
    groups: GROUPS,
    clientsPerGroup: CLIENTS_PER_GROUP,
    editsPerSecond: EDITS_PER_SECOND,
    seconds: SECONDS,
    quire: ours,
    stock: theirs,
    ratios,
  };
}

function round(x: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
