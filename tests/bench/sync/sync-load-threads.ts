import { Worker } from 'node:worker_threads';
import { EVENT_LOOP_DELAY_LINE, type DeliveryTrace, type LoadOptions, type LoadResult } from './sync-load.ts';

type WorkerMessage = { kind: 'progress'; line: string } | { kind: 'result'; result: LoadResult };

/**
 * Runs the load on `threads` worker threads, the groups dealt out between them, and merges the results.
 * One Node thread saturates at about 9,000 deliveries a second, which would make the clients, not the
 * server, the thing measured.
 */
export async function runLoadOnThreads(options: LoadOptions, threads: number): Promise<LoadResult> {
  const parts = Array.from({ length: Math.max(1, Math.min(threads, options.rooms.length)) }, (_, t) =>
    options.rooms.filter((_room, i) => i % threads === t),
  );
  const results = await Promise.all(
    parts.map(
      (rooms, t) =>
        new Promise<LoadResult>((resolve, reject) => {
          const { onProgress, ...plain } = options;
          const entry = new URL('./sync-load-worker.ts', import.meta.url).href;
          const worker = new Worker(new URL('./ts-worker.mjs', import.meta.url), {
            workerData: { ...plain, rooms, entry },
          });
          worker.on('message', (message: WorkerMessage) => {
            if (message.kind === 'progress') {
              // One thread's progress is enough to follow along.
              if (t === 0 || message.line.startsWith(EVENT_LOOP_DELAY_LINE))
                onProgress?.(`${message.line} (thread ${t + 1} of ${parts.length})`);
            } else resolve(message.result);
          });
          worker.once('error', reject);
          worker.once('exit', (code) => {
            if (code !== 0) reject(new Error(`A load thread exited with code ${code}.`));
          });
        }),
    ),
  );
  return {
    clients: results.reduce((n, r) => n + r.clients, 0),
    editsSent: results.reduce((n, r) => n + r.editsSent, 0),
    deliveries: results.reduce((n, r) => n + r.deliveries, 0),
    expectedDeliveries: results.reduce((n, r) => n + r.expectedDeliveries, 0),
    latencies: joined(results.map((r) => r.latencies)),
    crossLatencies: joined(results.map((r) => r.crossLatencies)),
    elapsedSeconds: Math.max(...results.map((r) => r.elapsedSeconds)),
    missingUpdates: results.reduce((n, r) => n + r.missingUpdates, 0),
    divergedClients: results.reduce((n, r) => n + r.divergedClients, 0),
    settleSeconds: Math.max(...results.map((r) => r.settleSeconds)),
    ...(options.traceDeliveries ? { trace: joinedTrace(results.map((r) => r.trace)) } : {}),
  };
}

function joinedTrace(parts: (DeliveryTrace | undefined)[]): DeliveryTrace {
  const of = (column: keyof DeliveryTrace) => joined(parts.map((p) => p?.[column] ?? new Float64Array()));
  return {
    client: of('client'),
    clock: of('clock'),
    sentAt: of('sentAt'),
    receivedAt: of('receivedAt'),
    senderNode: of('senderNode'),
    receiverNode: of('receiverNode'),
  };
}

function joined(parts: Float64Array[]): Float64Array {
  const out = new Float64Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}
