import { parentPort, workerData } from 'node:worker_threads';
import { CoreError, defaultTaxonomy } from '@quire/core';
import { QuireError, errorMessage } from '../errors.ts';
import { openSearchReaderAt } from '../store/search-reader.ts';
import { FtsSearch } from './fts-search.ts';
import type {
  SearchErrorData,
  SearchReply,
  SearchRequest,
  SearchWorkerData,
} from './search-thread-messages.ts';

/**
 * The search thread: it answers every search over its own reader (a read-only connection to the SQLite
 * file, or a pool of its own to PostgreSQL), so a costly query (a short prefix, an any-word retry over a
 * large store) never holds up the server's event loop (pings, pages, group sync). The index is written
 * with the papers: there is nothing to build, and each query reads what is committed.
 */

const port = parentPort;
if (!port) throw new Error('search-worker.ts runs as a worker thread; SearchThread starts it.');

const post = (reply: SearchReply) => port.postMessage(reply);

function errorData(err: unknown): SearchErrorData {
  if (err instanceof QuireError) return { type: 'quire', code: err.code, message: err.message };
  if (err instanceof CoreError) return { type: 'core', code: err.code, message: err.message };
  return { type: 'quire', code: 'store-error', message: `Search failed: ${errorMessage(err)}` };
}

const { source } = workerData as SearchWorkerData;

/**
 * Asked once before the first request is read, answers thrown away: right after a start the first
 * searches otherwise pay for compiling the tokenizer and ranking code and for reading the index's top
 * pages into the connection's cache. One of each kind: common words, a phrase, a typo, a name.
 */
const WARM_UP_QUERIES = ['learning model', '"neural network"', 'netwrok', 'Wei Zhang'] as const;

async function warmUp(search: FtsSearch): Promise<void> {
  for (const q of WARM_UP_QUERIES) {
    try {
      await search.search(q, { limit: 20, offset: 0 });
    } catch {
      // A store too old or too empty to answer is reported by the first real request, not here.
    }
  }
}

/** The search service once its reader is open and warm; a reader that cannot open stops the thread. */
const ready: Promise<FtsSearch> = openSearchReaderAt(source).then(
  async (reader) => {
    const search = new FtsSearch(reader, defaultTaxonomy());
    await warmUp(search);
    return search;
  },
  (err: unknown) => {
    post({ kind: 'failed', error: errorData(err) });
    port.close();
    throw err;
  },
);

async function answer(request: SearchRequest): Promise<SearchReply & { kind: 'answer' }> {
  const search = await ready;
  switch (request.kind) {
    case 'search':
      return { kind: 'answer', seq: request.seq, value: await search.search(request.q, request.page) };
    case 'related':
      return {
        kind: 'answer',
        seq: request.seq,
        value: await search.related(request.id, request.limit, request.topicSizes),
      };
  }
}

// Requests are answered after the warm-up, in the order they came.
port.on('message', (request: SearchRequest) => {
  answer(request).then(post, (err: unknown) =>
    post({ kind: 'error', seq: request.seq, error: errorData(err) }),
  );
});
