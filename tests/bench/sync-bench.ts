/**
 * `pnpm bench sync`: headless y-websocket clients in this process against a sync server in its own
 * process — Quire's (durable: every update appended to SQLite before it is applied) and then the stock
 * @y/websocket-server 0.1.1 (in memory only) under the same load — and the ratios of the two.
 */
import { parseArgs } from 'node:util';
import type { LoadRoom } from './sync/sync-load.ts';
import { startQuireProcess, startStockProcess, type ServerProcess } from './sync/bench-servers.ts';
import { measure, round, type Figures } from './sync/measure-load.ts';
import { runNodesBench } from './sync/nodes-bench.ts';
import { createQuireRooms } from './sync/quire-rooms.ts';
import { runRelayCostBench } from './sync/relay-cost.ts';

const GROUPS = Number(process.env.SYNC_BENCH_GROUPS ?? 20);
const CLIENTS_PER_GROUP = Number(process.env.SYNC_BENCH_CLIENTS ?? 10);
const EDITS_PER_SECOND = Number(process.env.SYNC_BENCH_RATE ?? 5);
const SECONDS = Number(process.env.SYNC_BENCH_SECONDS ?? 30);
/** A second, shorter run at a higher rate, to see which server gives way first. */
const STRESS_RATE = Number(process.env.SYNC_BENCH_STRESS_RATE ?? 20);
const STRESS_SECONDS = Number(process.env.SYNC_BENCH_STRESS_SECONDS ?? 10);
/** Client threads (the groups are dealt out between them). */
const THREADS = Number(process.env.SYNC_BENCH_THREADS ?? 2);

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
    const nominal = await measure(
      label,
      [server],
      await rooms(server, 'bench'),
      EDITS_PER_SECOND,
      SECONDS,
      SHAPE,
    );
    const stress = await measure(
      `${label}, stress ${STRESS_RATE}/s`,
      [server],
      await rooms(server, 'stress'),
      STRESS_RATE,
      STRESS_SECONDS,
      SHAPE,
    );
    return { nominal, stress };
  } finally {
    await server.stop();
  }
}

const SHAPE = { clientsPerRoom: CLIENTS_PER_GROUP, threads: THREADS };

export async function runSyncBench(args: string[] = []): Promise<Record<string, unknown>> {
  const { values } = parseArgs({
    args,
    options: { nodes: { type: 'string' }, 'relay-cost': { type: 'boolean' } },
    strict: true,
  });
  if (values['relay-cost']) return runRelayCostBench();
  if (values.nodes !== undefined) {
    const nodes = Number(values.nodes);
    if (!Number.isInteger(nodes) || nodes < 2) {
      throw new Error(`--nodes takes a number of nodes, 2 or more (got "${values.nodes}").`);
    }
    return runNodesBench({
      nodes,
      groups: GROUPS,
      editsPerSecond: EDITS_PER_SECOND,
      seconds: SECONDS,
      ...SHAPE,
    });
  }
  console.log(
    `Sync load: ${GROUPS} groups × ${CLIENTS_PER_GROUP} clients, ${EDITS_PER_SECOND} edits/s each for ${SECONDS} s ` +
      `(${GROUPS * CLIENTS_PER_GROUP * EDITS_PER_SECOND} edits/s offered), then ${STRESS_RATE} edits/s each for ` +
      `${STRESS_SECONDS} s; clients on ${THREADS} threads of this Node process, the server in its own process.`,
  );
  const ours = await runAgainst('quire (durable, SQLite WAL)', startQuireProcess, (server) =>
    createQuireRooms(`http://127.0.0.1:${server.port}`, GROUPS),
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
