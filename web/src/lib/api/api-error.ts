/** Why a request to the Quire server failed, in words a reader can act on. */
export type ApiErrorKind =
  /** No answer at all: the server is down or the network is gone. */
  | 'unreachable'
  /** The server answered with its JSON error (`code` and `message` are the server's). */
  | 'server'
  /** The server answered something that is not the JSON expected (a proxy page, a half-built app). */
  | 'bad-response'
  /** The caller gave up (navigation away). */
  | 'aborted';

export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly kind: ApiErrorKind,
    /** HTTP status; 0 when there was no answer. */
    readonly status: number,
    /** The server's stable error code ("not-found"), or the kind when the server gave none. */
    readonly code: string,
    message: string,
  ) {
    super(message);
  }

  get notFound(): boolean {
    return this.status === 404;
  }
}

export function describeError(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  return err instanceof Error ? err.message : String(err);
}

/** No answer at all: the case this device's offline copy stands in for. */
export function isUnreachable(err: unknown): err is ApiError {
  return err instanceof ApiError && err.kind === 'unreachable';
}
