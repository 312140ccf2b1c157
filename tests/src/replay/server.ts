import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { handleApiQuery } from './atom.ts';
import { dayToUtcMs, isDay } from './calendar.ts';
import { textReply, type Reply, type ReplayContext } from './context.ts';
import { corpusManifest } from './corpus.ts';
import { FaultQueue, statusFaultBody, type Fault, type FaultKind } from './faults.ts';
import { badResumptionTokenReply, handleOai } from './oai.ts';
import { handleRawFile, handleRecorded } from './recorded.ts';
import { handleRss } from './rss.ts';
import { breakMarkup } from './xml.ts';

export interface ReplayOptions {
  /** Records per ListRecords/ListIdentifiers page; arXiv uses 1000. */
  oaiPageSize?: number;
  /** The initial simulated day (YYYY-MM-DD); defaults to the corpus's last listing day. */
  day?: string;
}

export interface RecordedRequest {
  method: string;
  /** Path and query exactly as the client sent them. */
  path: string;
  /** Arrival time, epoch milliseconds (wall clock, for checking the client's pacing). */
  time: number;
  /** The fault this request consumed, if any. */
  fault?: FaultKind;
}

export interface ReplayServer {
  /** http://127.0.0.1:PORT */
  readonly url: string;
  readonly oaiUrl: string;
  readonly rssUrl: string;
  readonly apiUrl: string;
  /** Every request received, in arrival order. */
  readonly requests: RecordedRequest[];
  /** The simulated "today". */
  readonly day: string;
  /** Sets the simulated "today" (YYYY-MM-DD) used by RSS feeds and as the server clock. */
  setDay(ymd: string): void;
  /** Queues a fault for the next request it matches. */
  inject(fault: Fault): void;
  /** Faults still waiting for a matching request. */
  readonly pendingFaults: readonly Fault[];
  /** Makes every resumption token issued so far answer badResumptionToken. */
  expireTokens(): void;
  /** Clears faults and the request log and restores the initial day; issued tokens stay valid. */
  reset(): void;
  close(): Promise<void>;
}

const NOON_MS = 12 * 3_600_000;

/**
 * Starts the arXiv stand-in on 127.0.0.1 and a free port. The corpus is loaded on the first request that
 * needs it, so starting is cheap.
 */
export async function startReplayServer(options: ReplayOptions = {}): Promise<ReplayServer> {
  const initialDay = options.day ?? corpusManifest().window.last;
  if (!isDay(initialDay)) throw new Error(`Not a YYYY-MM-DD day: ${initialDay}`);
  const pageSize = options.oaiPageSize ?? 1000;
  if (!Number.isSafeInteger(pageSize) || pageSize < 1) throw new Error(`Bad oaiPageSize: ${pageSize}`);

  const faults = new FaultQueue();
  const requests: RecordedRequest[] = [];
  let day = initialDay;
  let tokenGeneration = 0;
  let closed = false;
  let url = '';

  const ctx: ReplayContext = {
    get url() {
      return url;
    },
    get oaiUrl() {
      return `${url}/oai2`;
    },
    get day() {
      return day;
    },
    // Noon UTC on the simulated day: after that day's listing went out (20:00 ET the evening before)
    // and before the next one, so responseDate and the feeds agree about what "now" has seen.
    nowMs: () => dayToUtcMs(day) + NOON_MS,
    oaiPageSize: pageSize,
    get tokenGeneration() {
      return tokenGeneration;
    },
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = req.url ?? '/';
    const target = new URL(path, 'http://replay.invalid');
    const isOai = target.pathname === '/oai2';
    const fault = faults.take(path, isOai && target.searchParams.has('resumptionToken'));
    requests.push({
      method: req.method ?? 'GET',
      path,
      time: Date.now(),
      ...(fault ? { fault: fault.kind } : {}),
    });

    if (fault?.kind === 'reset') {
      req.socket.destroy();
      return;
    }
    if (fault?.kind === 'slow') await sleep(fault.delayMs);
    if (fault?.kind === 'hold') await fault.until;
    if (closed || res.destroyed) return;

    let reply: Reply;
    if (fault?.kind === 'status503' || fault?.kind === 'status429') {
      const status = fault.kind === 'status503' ? 503 : 429;
      reply = textReply(status, 'text/html', statusFaultBody(status, fault.retryAfterSeconds));
      reply.headers.push(['Retry-After', String(fault.retryAfterSeconds)]);
    } else if (fault?.kind === 'status500') {
      reply = textReply(500, 'text/html', statusFaultBody(500));
    } else if (fault?.kind === 'expiredToken') {
      tokenGeneration += 1;
      reply = badResumptionTokenReply(ctx, target.searchParams);
    } else {
      reply = await route(req.method ?? 'GET', target).catch((error: unknown) =>
        textReply(500, 'text/plain; charset=utf-8', `Replay server error: ${String(error)}\n`),
      );
    }

    if (fault?.kind === 'malformedXml') reply = { ...reply, body: breakMarkup(reply.body.toString()) };
    send(res, reply, fault?.kind === 'truncated');
  }

  async function route(method: string, target: URL): Promise<Reply> {
    if (method !== 'GET') return textReply(405, 'text/plain; charset=utf-8', 'Only GET is served.\n');
    const { pathname, searchParams } = target;
    if (pathname === '/oai2') return handleOai(ctx, searchParams);
    if (pathname === '/api/query') return handleApiQuery(ctx, searchParams);
    if (pathname.startsWith('/rss/')) return handleRss(ctx, pathname);
    if (pathname.startsWith('/raw/')) return handleRawFile(pathname.slice('/raw/'.length));
    const recorded = /^\/recorded\/([^/]+)\/([^/]+)$/.exec(pathname);
    if (recorded) return handleRecorded(recorded[1] ?? '', recorded[2] ?? '');
    return textReply(404, 'text/plain; charset=utf-8', `No route for ${pathname}\n`);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent && !res.destroyed) {
        send(
          res,
          textReply(500, 'text/plain; charset=utf-8', `Replay server error: ${String(error)}\n`),
          false,
        );
      } else {
        res.destroy();
      }
    });
  });

  // A client that parses a 5,000-record page on a busy machine can block its event loop past Node's 5 s
  // keep-alive timeout; its pool then hands the next request a socket this server has just closed
  // (ECONNRESET, seen in CI at a load of 10). arXiv's idle timeout is not what the tests are about.
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((resolveListen, rejectListen) => {
    server.once('error', rejectListen);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', rejectListen);
      resolveListen();
    });
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    oaiUrl: `${url}/oai2`,
    rssUrl: `${url}/rss`,
    apiUrl: `${url}/api/query`,
    requests,
    get day() {
      return day;
    },
    setDay(ymd: string) {
      if (!isDay(ymd)) throw new Error(`Not a YYYY-MM-DD day: ${ymd}`);
      day = ymd;
    },
    inject(fault: Fault) {
      faults.push(fault);
    },
    get pendingFaults() {
      return faults.pending;
    },
    expireTokens() {
      tokenGeneration += 1;
    },
    reset() {
      faults.clear();
      requests.length = 0;
      day = initialDay;
    },
    close() {
      if (closed) return Promise.resolve();
      closed = true;
      return new Promise<void>((resolveClose, rejectClose) => {
        server.close((error) => (error ? rejectClose(error) : resolveClose()));
        // Idle keep-alive sockets (and requests parked by a `slow` fault) would hold close() open.
        server.closeAllConnections();
      });
    },
  };
}

function send(res: ServerResponse, reply: Reply, truncate: boolean): void {
  const body = typeof reply.body === 'string' ? Buffer.from(reply.body, 'utf8') : reply.body;
  for (const [name, value] of reply.headers) res.appendHeader(name, value);
  res.statusCode = reply.status;
  if (truncate) {
    // Writing before end() makes Node send it chunked with no Content-Length, so the response ends
    // cleanly: the client sees a short body rather than a transport error.
    res.write(body.subarray(0, Math.floor(body.length / 2)));
    res.end();
    return;
  }
  res.setHeader('Content-Length', body.length);
  res.end(body);
}
