import type { StoreSource } from '../store/stores.ts';
import type { RetagReport } from './retag.ts';

/** What the server's tag thread is started with: where the store is and a flag the server sets to stop it. */
export interface TagWorkerData {
  source: StoreSource;
  /** One Int32: set to 1 by the server to stop a run between batches (a run never reads its messages). */
  stop: SharedArrayBuffer;
}

/** Server → tag thread. `seq` pairs a request with its reply. */
export type TagRequest = { kind: 'retag'; seq: number } | { kind: 'stop' };

/** Tag thread → server. */
export type TagReply =
  | { kind: 'progress'; seq: number; done: number; total: number }
  | { kind: 'done'; seq: number; report: RetagReport }
  | { kind: 'error'; seq: number; message: string };
