import { CoreError } from '../errors.ts';

/** The CoreError code `run` throws; undefined when it does not throw. */
export function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return error instanceof CoreError ? error.code : 'not a CoreError';
  }
  return undefined;
}
