import { parentPort, workerData } from 'node:worker_threads';
import { CompiledTaxonomy } from '@quire/core';
import { prepareLines } from './prepare-lines.ts';
import type { PrepareData, PrepareReply, PrepareRequest } from './prepare-thread.ts';

/**
 * The import's parse thread (see PrepareThread): dump lines in, papers and their search terms out, and
 * their tags when the import tags.
 */

const port = parentPort;
if (!port) throw new Error('prepare-worker.ts runs as a worker thread; PrepareThread starts it.');

const { tagging } = workerData as PrepareData;
const engine = tagging ? new CompiledTaxonomy(tagging.taxonomy, tagging.stats) : undefined;

port.on('message', (request: PrepareRequest) => {
  port.postMessage({
    seq: request.seq,
    prepared: prepareLines(request.lines, true, engine),
  } satisfies PrepareReply);
});
