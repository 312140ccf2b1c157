import { percentile, type LoadResult, type LoadRoom } from './sync-load.ts';
import { runLoadOnThreads } from './sync-load-threads.ts';
import type { ServerProcess } from './bench-servers.ts';

export interface LoadShape {
  clientsPerRoom: number;
  threads: number;
}

/** One server process's share of a run. */
export interface NodeFigures {
  /** Share of one core it used while the load ran. */
  cpu: number;
  /**
   * CPU time it used while the load ran (user + system), in seconds: the cost of the same work, which a
   * loaded machine stretches out in time (and so in share of a core) far less than it stretches latency.
   */
  cpuSeconds: number;
  rssPeakMiB: number;
  rssEndMiB: number;
  /**
   * Write and read system calls it made while the load ran (sockets: its clients, PostgreSQL, Redis):
   * a count of the work's round trips and fan-out writes that a loaded machine does not stretch.
   */
  writeSyscalls: number;
  readSyscalls: number;
}

export interface Figures {
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** The same over the deliveries whose sender was on another node (null with one node). */
  cross: { deliveries: number; p50Ms: number; p99Ms: number; maxMs: number } | null;
  editsOffered: number;
  editsPerSecond: number;
  deliveries: number;
  deliveriesPerSecond: number;
  deliveredShare: number;
  /** Edits a client still lacked at the end (summed over clients), and clients not equal to their room. */
  missingUpdates: number;
  divergedClients: number;
  /** Seconds from the last edit sent until every client held every edit (or the wait gave up). */
  settleSeconds: number;
  serverRssPeakMiB: number;
  serverRssEndMiB: number;
  /** Share of one core the server processes used together while the load ran. */
  serverCpu: number;
  /** Share of one core this (client) process used. */
  clientCpu: number;
  /** CPU time the servers used together, and this (client) process, in seconds. */
  serverCpuSeconds: number;
  clientCpuSeconds: number;
  nodes: NodeFigures[];
}

/**
 * Runs the load against `servers` (a room's clients dealt across them) and measures propagation, the
 * throughput achieved, what was lost, and each server's CPU and memory (sampled from /proc).
 */
export async function measure(
  label: string,
  servers: ServerProcess[],
  rooms: LoadRoom[],
  editsPerSecond: number,
  seconds: number,
  shape: LoadShape,
  /** Also record every delivery for the servers' trace, and hand the whole result here. */
  traced?: (result: LoadResult) => void,
): Promise<Figures> {
  const peaks = servers.map((s) => s.rssMiB());
  const cpu0 = servers.map((s) => s.cpuSeconds());
  const io0 = servers.map((s) => s.syscalls());
  const client0 = process.cpuUsage();
  const t0 = performance.now();
  const sample = () => servers.forEach((s, i) => (peaks[i] = Math.max(peaks[i] ?? 0, s.rssMiB())));
  const sampler = setInterval(sample, 250);
  let result: LoadResult;
  try {
    result = await runLoadOnThreads(
      {
        serverUrls: servers.map((s) => `ws://127.0.0.1:${s.port}/yjs`),
        rooms,
        clientsPerRoom: shape.clientsPerRoom,
        editsPerSecond,
        seconds,
        onProgress: (line) => console.log(`  [${label}] ${line}`),
        traceDeliveries: traced !== undefined,
      },
      shape.threads,
    );
  } finally {
    clearInterval(sampler);
  }
  sample();
  traced?.(result);
  const wall = (performance.now() - t0) / 1000;
  // process.cpuUsage covers every thread of this process, so the worker threads' clients are counted.
  const clientUsage = process.cpuUsage(client0);
  const nodes: NodeFigures[] = servers.map((s, i) => ({
    cpu: round((s.cpuSeconds() - (cpu0[i] ?? 0)) / wall, 2),
    cpuSeconds: round(s.cpuSeconds() - (cpu0[i] ?? 0), 1),
    rssPeakMiB: round(peaks[i] ?? 0),
    rssEndMiB: round(s.rssMiB()),
    writeSyscalls: s.syscalls().writes - (io0[i]?.writes ?? 0),
    readSyscalls: s.syscalls().reads - (io0[i]?.reads ?? 0),
  }));
  const sorted = result.latencies.slice().sort();
  const cross = result.crossLatencies.slice().sort();
  const figures: Figures = {
    p50Ms: round(percentile(sorted, 50)),
    p99Ms: round(percentile(sorted, 99)),
    maxMs: round(sorted[sorted.length - 1] ?? Number.NaN),
    cross:
      servers.length > 1
        ? {
            deliveries: cross.length,
            p50Ms: round(percentile(cross, 50)),
            p99Ms: round(percentile(cross, 99)),
            maxMs: round(cross[cross.length - 1] ?? Number.NaN),
          }
        : null,
    editsOffered: rooms.length * shape.clientsPerRoom * editsPerSecond,
    editsPerSecond: round(result.editsSent / result.elapsedSeconds),
    deliveries: result.deliveries,
    deliveriesPerSecond: round(result.deliveries / result.elapsedSeconds),
    deliveredShare: round(result.deliveries / Math.max(1, result.expectedDeliveries), 4),
    missingUpdates: result.missingUpdates,
    divergedClients: result.divergedClients,
    settleSeconds: round(result.settleSeconds),
    serverRssPeakMiB: round(nodes.reduce((n, x) => n + x.rssPeakMiB, 0)),
    serverRssEndMiB: round(nodes.reduce((n, x) => n + x.rssEndMiB, 0)),
    serverCpu: round(
      nodes.reduce((n, x) => n + x.cpu, 0),
      2,
    ),
    clientCpu: round((clientUsage.user + clientUsage.system) / 1e6 / wall, 2),
    serverCpuSeconds: round(
      nodes.reduce((n, x) => n + x.cpuSeconds, 0),
      1,
    ),
    clientCpuSeconds: round((clientUsage.user + clientUsage.system) / 1e6, 1),
    nodes,
  };
  const crossLine = figures.cross
    ? ` (cross-node: ${figures.cross.deliveries} deliveries, p50 ${figures.cross.p50Ms} ms, p99 ${figures.cross.p99Ms} ms, max ${figures.cross.maxMs} ms)`
    : '';
  const nodesLine =
    servers.length > 1
      ? nodes
          .map(
            (n, i) =>
              `node ${i + 1} ${pct(n.cpu)} of a core (${n.cpuSeconds} CPU s, ${kilo(n.writeSyscalls)} writes, ` +
              `${kilo(n.readSyscalls)} reads), RSS peak ${n.rssPeakMiB} MiB`,
          )
          .join('; ') + `; nodes together ${figures.serverCpuSeconds} CPU s`
      : `server RSS peak ${figures.serverRssPeakMiB} MiB; CPU: server ${pct(figures.serverCpu)} of a core ` +
        `(${figures.serverCpuSeconds} CPU s, ${kilo(nodes[0]?.writeSyscalls ?? 0)} writes, ` +
        `${kilo(nodes[0]?.readSyscalls ?? 0)} reads)`;
  console.log(
    `${label}: p50 ${figures.p50Ms} ms, p99 ${figures.p99Ms} ms (max ${figures.maxMs} ms) propagation${crossLine}; ` +
      `${figures.editsPerSecond} of ${figures.editsOffered} edits/s offered sent, ${figures.deliveriesPerSecond} deliveries/s ` +
      `(${figures.deliveries} deliveries, ${(figures.deliveredShare * 100).toFixed(2)}% of expected; ` +
      `${figures.missingUpdates} updates missing at the end, ${figures.divergedClients} clients diverged, ` +
      `all in ${figures.settleSeconds} s after the last edit); ` +
      `${nodesLine}; clients ${pct(figures.clientCpu)} (${figures.clientCpuSeconds} CPU s)`,
  );
  return figures;
}

const pct = (share: number): string => `${Math.round(share * 100)}%`;
const kilo = (n: number): string => `${round(n / 1000)}k`;

export function round(x: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
