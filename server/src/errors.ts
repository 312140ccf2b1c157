/**
 * The one error type of the server package. `code` is stable for programs and tests; `message` is a
 * sentence for people that names what went wrong and what to do about it. Which HTTP status a code is
 * answered with is the API's to say (api/error-status.ts), not the code that throws.
 */
export type QuireErrorCode =
  | 'bad-input' // a malformed argument or request
  | 'not-found'
  | 'unreadable-file'
  | 'unknown-format'
  | 'malformed-xml'
  | 'oai-error' // an OAI-PMH <error> response other than the ones handled as normal flow
  | 'source-unreachable'
  | 'source-http-error'
  | 'bad-resumption-token'
  | 'store-error'
  | 'unavailable' // a part of the server that is not running (a stopped thread) or is shutting down
  | 'unauthorized' // no invite token, or one that does not open the group
  | 'forbidden' // a valid token whose role does not allow the request, or a request from another site
  | 'unsupported-media-type' // a state-changing request whose body is not JSON
  | 'rate-limited'
  | 'too-large'; // input past a configured size limit

export interface QuireErrorOptions {
  cause?: unknown;
}

export class QuireError extends Error {
  override readonly name = 'QuireError';
  constructor(
    readonly code: QuireErrorCode,
    message: string,
    options?: QuireErrorOptions,
  ) {
    super(message, options);
  }
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** A service address (PostgreSQL, Redis) without its password, for messages and logs. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(an unparseable address)';
  }
}
