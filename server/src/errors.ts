/**
 * The one error type of the server package. `code` is stable for programs and tests; `message` is a
 * sentence for people that names what went wrong and what to do about it. `status` is the HTTP status
 * the API answers with when the error reaches it.
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
  | 'unauthorized' // no invite token, or one that does not open the group
  | 'forbidden' // a valid token whose role does not allow the request, or a request from another site
  | 'unsupported-media-type' // a state-changing request whose body is not JSON
  | 'rate-limited'
  | 'too-large'; // input past a configured size limit

export class QuireError extends Error {
  override readonly name = 'QuireError';
  constructor(
    readonly code: QuireErrorCode,
    message: string,
    readonly status = 500,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
