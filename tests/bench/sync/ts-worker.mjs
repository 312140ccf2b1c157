// Worker threads do not inherit tsx's loader, so a worker registers it before loading its TypeScript entry.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
