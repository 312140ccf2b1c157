import { parentPort } from 'node:worker_threads';
import { threadCpuMs } from '../threads/thread-cpu.ts';
import { prepareLines } from './prepare-lines.ts';
import type { PrepareReply, PrepareRequest } from './prepare-thread.ts';

/** The import's parse thread (see PrepareThread): dump lines in, papers and their search terms out. */

const port = parentPort;
if (!port) throw new Error('prepare-worker.ts runs as a worker thread; PrepareThread starts it.');

port.on('message', (request: PrepareRequest) => {
  port.postMessage({
    seq: request.seq,
    prepared: prepareLines(request.lines, true),
    cpuMs: threadCpuMs(),
  } satisfies PrepareReply);
});
