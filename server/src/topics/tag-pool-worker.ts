import { parentPort, workerData } from 'node:worker_threads';
import { CompiledTaxonomy } from '@quire/core';
import { errorMessage } from '../errors.ts';
import { encodeTag } from '../store/tag-store.ts';
import { threadCpuMs } from '../threads/thread-cpu.ts';
import type { TagPoolReply, TagPoolRequest, TagPoolData } from './tag-pool-messages.ts';

/**
 * A tagging thread (see TagPool): the engine compiled once from the statistics it was started with,
 * pages of papers in, their tags out. It touches no database: the re-tag that started it reads and writes.
 */

const port = parentPort;
if (!port) throw new Error('tag-pool-worker.ts runs as a worker thread; TagPool starts it.');

const { taxonomy, stats } = workerData as TagPoolData;
const engine = new CompiledTaxonomy(taxonomy, stats);

port.on('message', (request: TagPoolRequest) => {
  let reply: TagPoolReply;
  try {
    const tags = request.papers.map((p) => engine.tag(p).map(encodeTag));
    reply = { seq: request.seq, tags, cpuMs: threadCpuMs() };
  } catch (err) {
    reply = { seq: request.seq, error: errorMessage(err), cpuMs: threadCpuMs() };
  }
  port.postMessage(reply);
});
