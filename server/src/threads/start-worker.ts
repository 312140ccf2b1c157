import { Worker } from 'node:worker_threads';

const BOOT = new URL('./worker-boot.mjs', import.meta.url);

/** Starts the TypeScript module `entry` in a worker thread, with `data` as its workerData (plus the entry). */
export function startWorker<Data extends object>(entry: URL, data: Data): Worker {
  // execArgv: [] so the thread does not inherit a second copy of tsx's loader; the boot file adds it.
  return new Worker(BOOT, { workerData: { ...data, entry: entry.href }, execArgv: [] });
}
