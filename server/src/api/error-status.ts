import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { QuireErrorCode } from '../errors.ts';

/**
 * The HTTP status each error code is answered with: the one place the API decides it. The errors of
 * arXiv's side (a source unreachable, or its answer unreadable) are 502: the server is a gateway to it.
 */
export const ERROR_STATUS: Readonly<Record<QuireErrorCode, ContentfulStatusCode>> = {
  'bad-input': 400,
  unauthorized: 401,
  forbidden: 403,
  'not-found': 404,
  'too-large': 413,
  'unsupported-media-type': 415,
  'rate-limited': 429,
  'store-error': 500,
  'unreadable-file': 500,
  'unknown-format': 502,
  'malformed-xml': 502,
  'oai-error': 502,
  'source-unreachable': 502,
  'source-http-error': 502,
  'bad-resumption-token': 502,
  unavailable: 503,
};
