import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DeliveryTrace } from './sync-load.ts';
import { round } from './measure-load.ts';

/*
 * Where a delivery's time goes (SYNC_BENCH_TRACE=1): the clients' record of every delivery joined, by the
 * edit's Yjs client id and clock, with the steps each server process wrote to its QUIRE_SYNC_TRACE file
 * (server/src/sync/sync-trace.ts). All times are on the machine's clock, so stages across processes
 * subtract; each is reported for the deliveries whose two ends were both traced.
 */

/** Stages in the order an update passes them, each from the step before it. */
const STAGES = [
  ['client → node socket', 'sent', 'arrived'],
  ['earlier frames of the connection', 'arrived', 'received'],
  ['append queue', 'received', 'append-start'],
  ['append commit', 'append-start', 'committed'],
  ['commit → other node (publish, Redis)', 'committed', 'remote-received'],
  ['apply → its sockets', 'remote-received', 'fanned-out'],
  ['apply → own sockets', 'committed', 'applied'],
  ['node → client', 'out', 'delivered'],
] as const;

type Step =
  | 'arrived'
  | 'received'
  | 'append-start'
  | 'committed'
  | 'applied'
  | 'remote-received'
  | 'pending'
  | 'fanned-out'
  | 'fanned-out-catch-up';

/** One process's steps: for each, the first time each struct (client, clock) passed it. */
type NodeSteps = Map<Step, Map<number, number>>;

const key = (client: number, clock: number): number => client * 2 ** 20 + clock;

function readSteps(file: string, counts: Map<string, number>): NodeSteps {
  const steps: NodeSteps = new Map();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const [stage, time, what] = line.split(' ');
    if (!stage || !time) continue;
    if (stage === 'count') {
      const [name, n] = (what ?? '').split('=');
      if (name) counts.set(name, (counts.get(name) ?? 0) + (n === undefined ? 1 : Number(n)));
      continue;
    }
    const at = Number(time);
    let byKey = steps.get(stage as Step);
    if (!byKey) steps.set(stage as Step, (byKey = new Map<number, number>()));
    for (const range of (what ?? '').split(',')) {
      const [client, from, to] = range.split(':').map(Number);
      if (client === undefined || from === undefined || to === undefined) continue;
      for (let clock = from; clock < to; clock++) {
        const k = key(client, clock);
        if (!byKey.has(k)) byKey.set(k, at);
      }
    }
  }
  return steps;
}

export interface StageFigures {
  stage: string;
  deliveries: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Mean of this stage over the slowest 1% of deliveries (by their whole propagation). */
  slowestMeanMs: number;
}

export interface Breakdown {
  stages: StageFigures[];
  deliveries: number;
  /** Deliveries whose receiving node first sent them on from a catch-up read of the log. */
  viaCatchUp: number;
  /** Deliveries the receiving node held in Yjs's pending structs first. */
  heldPending: number;
  /** Per node: catch-up reads by what set them off, and rows read. */
  counts: Record<string, number>[];
}

/**
 * Joins `trace` with the trace files in `dir` (one per pid in `pids`, in node order) and prints the
 * breakdown under `label`.
 */
export function traceBreakdown(label: string, dir: string, pids: number[], trace: DeliveryTrace): Breakdown {
  const files = readdirSync(dir);
  const counts = pids.map(() => new Map<string, number>());
  const nodes = pids.map((pid, i): NodeSteps => {
    const file = files.find((f) => f === `sync-trace-${pid}.txt`);
    return file ? readSteps(join(dir, file), counts[i]!) : new Map<Step, Map<number, number>>();
  });
  const n = trace.client.length;
  const total = new Float64Array(n);
  const columns = STAGES.map(() => new Float64Array(n).fill(Number.NaN));
  let viaCatchUp = 0;
  let heldPending = 0;
  const at = (node: number, step: Step, k: number) => nodes[node]?.get(step)?.get(k);
  for (let i = 0; i < n; i++) {
    const k = key(trace.client[i]!, trace.clock[i]!);
    const from = trace.senderNode[i]!;
    const to = trace.receiverNode[i]!;
    const cross = from !== to;
    total[i] = trace.receivedAt[i]! - trace.sentAt[i]!;
    const times: Record<string, number | undefined> = {
      sent: trace.sentAt[i],
      delivered: trace.receivedAt[i],
      arrived: at(from, 'arrived', k),
      received: at(from, 'received', k),
      'append-start': at(from, 'append-start', k),
      committed: at(from, 'committed', k),
    };
    if (cross) {
      const remote = at(to, 'fanned-out', k);
      const caught = at(to, 'fanned-out-catch-up', k);
      if (caught !== undefined && (remote === undefined || caught < remote)) viaCatchUp++;
      else {
        times['remote-received'] = at(to, 'remote-received', k);
        times['fanned-out'] = remote;
      }
      times.out = caught !== undefined && (remote === undefined || caught < remote) ? caught : remote;
      if (at(to, 'pending', k) !== undefined) heldPending++;
    } else {
      times.applied = at(from, 'applied', k);
      times.out = times.applied;
    }
    STAGES.forEach(([, a, b], s) => {
      const ta = times[a];
      const tb = times[b];
      if (ta !== undefined && tb !== undefined) columns[s]![i] = tb - ta;
    });
  }
  const slowest = slowestShare(total, 0.01);
  const stages = STAGES.map(([stage], s): StageFigures => {
    const column = columns[s]!;
    const values = column.filter((v) => !Number.isNaN(v)).sort();
    const tail = slowest.map((i) => column[i]!).filter((v) => !Number.isNaN(v));
    return {
      stage,
      deliveries: values.length,
      p50Ms: round(pick(values, 0.5), 2),
      p99Ms: round(pick(values, 0.99), 2),
      maxMs: round(values[values.length - 1] ?? Number.NaN, 2),
      slowestMeanMs: round(tail.reduce((a, b) => a + b, 0) / Math.max(1, tail.length), 2),
    };
  });
  console.log(
    `  [${label}] where the time goes (${n} deliveries traced; p50 / p99 / max per stage, and its mean over the slowest 1%):`,
  );
  for (const s of stages.filter((x) => x.deliveries > 0)) {
    console.log(
      `    ${s.stage.padEnd(38)} ${String(s.p50Ms).padStart(8)} / ${String(s.p99Ms).padStart(8)} / ` +
        `${String(s.maxMs).padStart(8)} ms  slowest 1%: ${s.slowestMeanMs} ms  (${s.deliveries} deliveries)`,
    );
  }
  const perNode = counts.map((c) => Object.fromEntries([...c].sort()));
  console.log(
    `  [${label}] ${viaCatchUp} deliveries came from a catch-up read, ${heldPending} were held in Yjs's pending; ` +
      `catch-ups per node: ${perNode.map((c, i) => `node ${i + 1} ${JSON.stringify(c)}`).join('; ')}`,
  );
  return { stages, deliveries: n, viaCatchUp, heldPending, counts: perNode };
}

function pick(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

/** Indices of the largest `share` of `values`. */
function slowestShare(values: Float64Array, share: number): number[] {
  const order = Array.from(values.keys()).sort((a, b) => values[b]! - values[a]!);
  return order.slice(0, Math.max(1, Math.floor(values.length * share)));
}
