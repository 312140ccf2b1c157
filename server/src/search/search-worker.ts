import { parentPort, workerData } from 'node:worker_threads';
import { CoreError, defaultTaxonomy } from '@quire/core';
import { QuireError, errorMessage } from '../errors.ts';
import { openReadOnlyDatabase } from '../store/open-database.ts';
import type {
  SearchErrorData,
  SearchReply,
  SearchRequest,
  SearchWorkerData,
} from './search-thread-messages.ts';
import { SearchService } from './search-service.ts';

/**
 * The search thread: it builds the in-memory index and answers every search, so neither the build nor a
 * costly query holds up the server's event loop (pings, pages, group sync).
 */

const port = parentPort;
if (!port) throw new Error('search-worker.ts runs as a worker thread; SearchThread starts it.');

const post = (reply: SearchReply) => port.postMessage(reply);

function errorData(err: unknown): SearchErrorData {
  if (err instanceof QuireError)
    return { type: 'quire', code: err.code, message: err.message, status: err.status };
  if (err instanceof CoreError) return { type: 'core', code: err.code, message: err.message };
  return { type: 'quire', code: 'store-error', message: `Search failed: ${errorMessage(err)}`, status: 500 };
}

const { dbPath, gate } = workerData as SearchWorkerData;
// The index carries each paper's topics, so it is built once the tags are up to date. Blocking is
// fine here: this thread has nothing else to do, and requests wait in its queue meanwhile.
Atomics.wait(new Int32Array(gate), 0, 0);
let service: SearchService;
try {
  service = new SearchService(openReadOnlyDatabase(dbPath), defaultTaxonomy(), {
    log: (line) => post({ kind: 'log', line }),
  });
  const report = service.build();
  post({ kind: 'ready', papers: report.papers, durationMs: report.durationMs });
} catch (err) {
  post({ kind: 'failed', error: errorData(err) });
  throw err;
}

async function answer(request: SearchRequest): Promise<SearchReply & { kind: 'answer' }> {
  switch (request.kind) {
    case 'search':
      return { kind: 'answer', seq: request.seq, value: await service.search(request.q, request.page) };
    case 'related':
      return {
        kind: 'answer',
        seq: request.seq,
        value: await service.related(request.id, request.limit, request.topicSizes),
      };
    case 'refresh':
      service.refresh({ full: request.full });
      return { kind: 'answer', seq: request.seq, value: null };
  }
}

port.on('message', (request: SearchRequest) => {
  answer(request).then(post, (err: unknown) =>
    post({ kind: 'error', seq: request.seq, error: errorData(err) }),
  );
});
