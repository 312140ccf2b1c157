/**
 * A worker thread running part of the sync load: the groups given to it, all of their clients. Groups are
 * independent, so splitting by group keeps each edit's sender and receivers on one thread and one clock.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { runLoad, type LoadOptions } from './sync-load.ts';

const options = workerData as Omit<LoadOptions, 'onProgress'>;
const result = await runLoad({
  ...options,
  onProgress: (line) => parentPort?.postMessage({ kind: 'progress', line }),
});
parentPort?.postMessage({ kind: 'result', result }, [
  result.latencies.buffer as ArrayBuffer,
  result.crossLatencies.buffer as ArrayBuffer,
]);
