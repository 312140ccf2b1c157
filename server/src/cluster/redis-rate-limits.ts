import { createHash } from 'node:crypto';
import type { SharedRateLimits } from '../sync/token-bucket.ts';

/**
 * A token bucket in one Redis hash (tokens, last refill in ms), refilled and taken from in one atomic
 * script on Redis's own clock (TIME), so nodes with skewed clocks count alike. The hash expires once it
 * would be full again, which is the same as no hash. Takes `count` tokens when there are as many, or
 * with 'spend' takes them anyway, down to minus the burst; returns {1 when taken, the tokens left}.
 *
 * A token bucket rather than INCR + EXPIRE windows: it is what each node already enforces (a rate and a
 * burst), so the settings mean the same with one node or ten, and a fixed window would let twice the
 * burst through around each window's edge.
 */
const TOKEN_BUCKET = `
local count = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local burst = tonumber(ARGV[3])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1]) or burst
local at = tonumber(state[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - at) / 1000 * rate)
local taken = 0
if ARGV[4] == 'spend' then
  tokens = math.max(-burst, tokens - count)
  taken = 1
elseif tokens >= count then
  tokens = tokens - count
  taken = 1
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil((burst - tokens) / rate * 1000) + 1000)
return {taken, tostring(tokens)}
`;

/** What the limits need of a Redis connection (RedisBus gives it). */
export interface ScriptRunner {
  evalScript(script: string, keys: string[], args: (string | number)[]): Promise<unknown>;
}

/** Rate limits counted in Redis, shared by every node on it (keys `quire:limit:<namespace>:<key>`). */
export class RedisRateLimits implements SharedRateLimits {
  private readonly prefix: string;

  constructor(
    private readonly redis: ScriptRunner,
    namespace: string,
  ) {
    // Hashed: the namespace may be an address, which has no business in a key anyone can list.
    this.prefix = `quire:limit:${createHash('sha256').update(namespace).digest('hex').slice(0, 16)}:`;
  }

  async take(key: string, perSecond: number, burst: number): Promise<boolean> {
    const [taken] = await this.run(key, 1, perSecond, burst, 'take');
    return taken === 1;
  }

  /**
   * A node's report of many messages at once (SharedMessageCounts): the bucket may go below empty, down
   * to minus the burst, so that what the nodes took past the allowance keeps them refused until it has
   * refilled. Resolves with the tokens left.
   */
  async spend(key: string, count: number, perSecond: number, burst: number): Promise<number> {
    const [, left] = await this.run(key, count, perSecond, burst, 'spend');
    return Number(left);
  }

  /** Tokens left come back as a string: Lua would round a number to an integer. */
  private async run(
    key: string,
    count: number,
    perSecond: number,
    burst: number,
    mode: 'take' | 'spend',
  ): Promise<[number, string]> {
    const args = [count, perSecond, burst, mode];
    return (await this.redis.evalScript(TOKEN_BUCKET, [this.prefix + key], args)) as [number, string];
  }
}
