import { parentPort, workerData } from 'node:worker_threads';
import { defaultTaxonomy } from '@quire/core';
import { errorMessage } from '../errors.ts';
import { openTagStoreAt } from '../store/stores.ts';
import { retag } from './retag.ts';
import type { TagReply, TagRequest, TagWorkerData } from './tag-thread-messages.ts';

/**
 * The tag thread: it brings stored tags up to date (after a taxonomy change, an import, a harvest) over
 * its own read-write connection (to the SQLite file, or a pool of its own to PostgreSQL), in batches that each commit whole, so the server's event loop keeps
 * answering while thousands of papers are tagged.
 */

const port = parentPort;
if (!port) throw new Error('tag-worker.ts runs as a worker thread; TagThread starts it.');

const { source, stop } = workerData as TagWorkerData;
const stopFlag = new Int32Array(stop);
// A store that cannot be opened ends the thread (TagThread reports it failed). Requests sent meanwhile
// wait in the port's queue until the listener below is added.
const store = await openTagStoreAt(source);
const { tags } = store;
const taxonomy = defaultTaxonomy();
const post = (reply: TagReply) => port.postMessage(reply);

/** The run in progress: a stop closes the connection only after it (the stop flag ends it early). */
let running: Promise<void> = Promise.resolve();

port.on('message', (request: TagRequest) => {
  if (request.kind === 'stop') {
    void running
      .then(() => store.close())
      .catch(() => {})
      .finally(() => port.close());
    return;
  }
  const shouldStop = () => Atomics.load(stopFlag, 0) === 1;
  running = store
    .alone(
      () =>
        retag(tags, taxonomy, {
          onProgress: (done, total) => post({ kind: 'progress', seq: request.seq, done, total }),
          shouldStop,
        }),
      shouldStop,
    )
    .then(
      (report) => post({ kind: 'done', seq: request.seq, report }),
      (err: unknown) => post({ kind: 'error', seq: request.seq, message: errorMessage(err) }),
    );
});
