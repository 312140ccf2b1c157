// Every worker thread's entry: the server runs from TypeScript source (under tsx, or vitest), and a worker
// thread starts as plain Node, so it registers tsx's loader before loading the TypeScript module it names.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
