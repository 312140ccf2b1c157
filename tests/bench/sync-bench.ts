/**
 * `pnpm bench sync`: headless y-websocket clients in this process against a sync server in its own
 * process — Quire's (durable: every update appended to SQLite before it is applied) and then the stock
 * @y/websocket-server 0.1.1 (in memory only) under the same load — and the ratios of the two.
 */
import { percentile, type LoadResult, type LoadRoom } from './sync/sync-load.ts';
import { runLoadOnThreads } from './sync/sync-load-threads.ts';
import { startQuireProcess, startStockProcess, type ServerProcess } from './sync/bench-servers.ts';

const GROUPS = Number(process.env.SYNC_BENCH_GROUPS ?? 20);
const CLIENTS_PER_GROUP = Number(process.env.SYNC_BENCH_CLIENTS ?? 10);
const EDITS_PER_SECOND = Number(process.env.SYNC_BENCH_RATE ?? 5);
const SECONDS = Number(process.env.SYNC_BENCH_SECONDS ?? 30);
/** A second, shorter run at a higher rate, to see which server gives way first. */
const STRESS_RATE = Number(process.env.SYNC_BENCH_STRESS_RATE ?? 20);
const STRESS_SECONDS = Number(process.env.SYNC_BENCH_STRESS_SECONDS ?? 10);
/** Client threads (the groups are dealt out between them). */
const THREADS = Number(process.env.SYNC_BENCH_THREADS ?? 2);

interface Figures {
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  editsPerSecond: number;
  deliveriesPerSecond: number;
  deliveredShare: number;
  serverRssPeakMiB: number;
  serverRssEndMiB: number;
  /** Share of one core the server process used while the load ran. */
  serverCpu: number;
  /** Share of one core this (client) process used. */
  clientCpu: number;
}

async function createQuireRooms(baseUrl: string): Promise<LoadRoom[]> {
  // Fresh groups per run, as the stock server gets fresh room names.
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

async function measure(
  label: string,
  server: ServerProcess,
  rooms: LoadRoom[],
  editsPerSecond: number,
  seconds: number,
): Promise<Figures> {
  let peak = server.rssMiB();
  const cpu0 = server.cpuSeconds();
  const client0 = process.cpuUsage();
  const t0 = performance.now();
  const sampler = setInterval(() => {
    peak = Math.max(peak, server.rssMiB());
  }, 250);
  let result: LoadResult;
  try {
    result = await runLoadOnThreads(
      {
        serverUrl: `ws://127.0.0.1:${server.port}/yjs`,
        rooms,
        clientsPerRoom: CLIENTS_PER_GROUP,
        editsPerSecond,
        seconds,
        onProgress: (line) => console.log(`  [${label}] ${line}`),
      },
      THREADS,
    );
  } finally {
    clearInterval(sampler);
  }
  const wall = (performance.now() - t0) / 1000;
  const serverCpu = (server.cpuSeconds() - cpu0) / wall;
  // process.cpuUsage covers every thread of this process, so the worker threads' clients are counted.
  const clientUsage = process.cpuUsage(client0);
  const clientCpu = (clientUsage.user + clientUsage.system) / 1e6 / wall;
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
    serverCpu: round(serverCpu, 2),
    clientCpu: round(clientCpu, 2),
  };
  console.log(
    `${label}: p50 ${figures.p50Ms} ms, p99 ${figures.p99Ms} ms (max ${figures.maxMs} ms) propagation; ` +
      `${figures.editsPerSecond} edits/s sent, ${figures.deliveriesPerSecond} deliveries/s ` +
      `(${(figures.deliveredShare * 100).toFixed(2)}% of expected); server RSS peak ${figures.serverRssPeakMiB} MiB; ` +
      `CPU: server ${Math.round(figures.serverCpu * 100)}% of a core, clients ${Math.round(figures.clientCpu * 100)}%`,
  );
  return figures;
}

interface ServerRun {
  nominal: Figures;
  stress: Figures;
}

async function runAgainst(
  label: string,
  start: () => Promise<ServerProcess>,
  rooms: (server: ServerProcess, prefix: string) => Promise<LoadRoom[]>,
): Promise<ServerRun> {
  const server = await start();
  try {
    const nominal = await measure(label, server, await rooms(server, 'bench'), EDITS_PER_SECOND, SECONDS);
    const stress = await measure(
      `${label}, stress ${STRESS_RATE}/s`,
      server,
      await rooms(server, 'stress'),
      STRESS_RATE,
      STRESS_SECONDS,
    );
    return { nominal, stress };
  } finally {
    await server.stop();
  }
}

export async function runSyncBench(): Promise<Record<string, unknown>> {
  console.log(
    `Sync load: ${GROUPS} groups × ${CLIENTS_PER_GROUP} clients, ${EDITS_PER_SECOND} edits/s each for ${SECONDS} s ` +
      `(${GROUPS * CLIENTS_PER_GROUP * EDITS_PER_SECOND} edits/s offered), then ${STRESS_RATE} edits/s each for ` +
      `${STRESS_SECONDS} s; clients on ${THREADS} threads of this Node process, the server in its own process.`,
  );
  const ours = await runAgainst('quire (durable, SQLite WAL)', startQuireProcess, (server) =>
    createQuireRooms(`http://127.0.0.1:${server.port}`),
  );
  const theirs = await runAgainst(
    'stock @y/websocket-server 0.1.1 (memory only)',
    startStockProcess,
    (_s, prefix) =>
      Promise.resolve(Array.from({ length: GROUPS }, (_, g) => ({ room: `${prefix}-${g + 1}`, params: {} }))),
  );
  const ratios = {
    p50: round(ours.nominal.p50Ms / theirs.nominal.p50Ms, 2),
    p99: round(ours.nominal.p99Ms / theirs.nominal.p99Ms, 2),
    throughput: round(ours.nominal.deliveriesPerSecond / theirs.nominal.deliveriesPerSecond, 3),
    stressThroughput: round(ours.stress.deliveriesPerSecond / theirs.stress.deliveriesPerSecond, 3),
    stressP99: round(ours.stress.p99Ms / theirs.stress.p99Ms, 2),
    memory: round(ours.nominal.serverRssPeakMiB / theirs.nominal.serverRssPeakMiB, 2),
    serverCpu: round(ours.nominal.serverCpu / theirs.nominal.serverCpu, 2),
  };
  console.log(
    `quire / stock at ${EDITS_PER_SECOND}/s: p50 ×${ratios.p50}, p99 ×${ratios.p99}, throughput ×${ratios.throughput}, ` +
      `server memory ×${ratios.memory}, server CPU ×${ratios.serverCpu}`,
  );
  console.log(
    `quire / stock at ${STRESS_RATE}/s: throughput ×${ratios.stressThroughput}, p99 ×${ratios.stressP99}`,
  );
  const verdict =
    ours.nominal.p99Ms <= 50 && ratios.throughput >= 0.99 && ratios.stressThroughput >= 0.99
      ? 'met'
      : 'NOT met';
  console.log(`targets (p99 ≤ 50 ms, throughput ≥ stock's at both rates): ${verdict}`);
  return {
    groups: GROUPS,
    clientsPerGroup: CLIENTS_PER_GROUP,
    editsPerSecond: EDITS_PER_SECOND,
    seconds: SECONDS,
    stressRate: STRESS_RATE,
    stressSeconds: STRESS_SECONDS,
    quire: ours,
    stock: theirs,
    ratios,
  };
}

function round(x: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
