/** Failures a test can queue; each is consumed by the first request whose path and query match. */
export type Fault =
  | { kind: 'status503'; retryAfterSeconds: number; match?: RegExp }
  | { kind: 'status429'; retryAfterSeconds: number; match?: RegExp }
  | { kind: 'status500'; match?: RegExp }
  /** Sends the status, headers and first half of the body, then ends the response cleanly (chunked). */
  | { kind: 'truncated'; match?: RegExp }
  /** Answers 200 with the normal body damaged so it is no longer well-formed XML. */
  | { kind: 'malformedXml'; match?: RegExp }
  /** Only OAI requests carrying a resumptionToken match; every token issued so far then stops working. */
  | { kind: 'expiredToken'; match?: RegExp }
  /** Waits, then answers normally. */
  | { kind: 'slow'; delayMs: number; match?: RegExp }
  /** Answers normally once `until` settles: the test decides when, so it can act while the request is open. */
  | { kind: 'hold'; until: Promise<void>; match?: RegExp }
  /** Destroys the socket without answering. */
  | { kind: 'reset'; match?: RegExp };

export type FaultKind = Fault['kind'];

export class FaultQueue {
  private queue: Fault[] = [];

  push(fault: Fault): void {
    this.queue.push(fault);
  }

  clear(): void {
    this.queue = [];
  }

  get pending(): readonly Fault[] {
    return [...this.queue];
  }

  /** Removes and returns the first queued fault that applies to this request, if any. */
  take(pathAndQuery: string, carriesToken: boolean): Fault | undefined {
    const index = this.queue.findIndex((fault) => applies(fault, pathAndQuery, carriesToken));
    if (index < 0) return undefined;
    return this.queue.splice(index, 1)[0];
  }
}

function applies(fault: Fault, pathAndQuery: string, carriesToken: boolean): boolean {
  if (fault.kind === 'expiredToken' && !carriesToken) return false;
  if (!fault.match) return true;
  // A /g or /y pattern keeps state between test() calls; start each check afresh.
  fault.match.lastIndex = 0;
  return fault.match.test(pathAndQuery);
}

export function statusFaultBody(status: number, retryAfterSeconds?: number): string {
  const heading =
    retryAfterSeconds !== undefined
      ? `Retry after ${retryAfterSeconds} seconds`
      : status === 500
        ? 'Internal Server Error'
        : `Error ${status}`;
  return `<html><body>\n<h1>${heading}</h1>\n</body></html>\n`;
}
