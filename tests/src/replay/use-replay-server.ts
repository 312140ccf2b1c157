import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startReplayServer, type ReplayOptions, type ReplayServer } from './server.ts';

export interface UseReplayServerOptions extends ReplayOptions {
  /** Reset faults, the request log and the day before each test (default true). */
  resetBeforeEach?: boolean;
}

/**
 * Starts a replay server for the enclosing suite and closes it afterwards. The returned object stands for
 * the server once `beforeAll` has run; touching it earlier (at collection time) throws.
 *
 *   const arxiv = useReplayServer();
 *   it('harvests', async () => { await harvest(arxiv.oaiUrl); expect(arxiv.requests).toHaveLength(3); });
 */
export function useReplayServer(options: UseReplayServerOptions = {}): ReplayServer {
  const { resetBeforeEach = true, ...serverOptions } = options;
  let current: ReplayServer | undefined;

  beforeAll(async () => {
    current = await startReplayServer(serverOptions);
  });
  afterAll(async () => {
    await current?.close();
    current = undefined;
  });
  if (resetBeforeEach) beforeEach(() => current?.reset());

  return new Proxy({} as ReplayServer, {
    get(_target, property) {
      if (!current) throw new Error('The replay server is used outside the suite that started it.');
      const value: unknown = Reflect.get(current, property);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(current) : value;
    },
  });
}
