/**
 * A synchronous SQLite call as a settled promise, for the store interfaces shaped for a network engine: a
 * thrown error becomes a rejection, as a network engine's failure would, so callers handle one path.
 */
export function settled<T>(fn: () => T): Promise<T> {
  try {
    return Promise.resolve(fn());
  } catch (err) {
    return Promise.reject(err instanceof Error ? err : new Error(String(err)));
  }
}
