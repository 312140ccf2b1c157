import { createHash } from 'node:crypto';
import type { SharedConnectionCounts } from '../sync/shared-connection-cap.ts';
import type { ScriptRunner } from './redis-rate-limits.ts';

/**
 * Takes a place for one more live connection from an address when all nodes together hold fewer than the
 * cap. The address's hash holds one count per node; a node whose heartbeat key is gone is dead, and its
 * count is dropped there and then, so a killed node's sockets do not hold places for ever. Returns 1 when
 * a place was taken. The hash lives a day past its last change: a place held longer than that is
 * forgotten (the cap then errs open, by that connection).
 */
const RESERVE = `
local fields = redis.call('HGETALL', KEYS[1])
local live = 0
for i = 1, #fields, 2 do
  local node = fields[i]
  if node == ARGV[1] or redis.call('EXISTS', ARGV[3] .. node) == 1 then
    live = live + tonumber(fields[i + 1])
  else
    redis.call('HDEL', KEYS[1], node)
  end
end
if live >= tonumber(ARGV[2]) then return 0 end
redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
redis.call('PEXPIRE', KEYS[1], 86400000)
return 1
`;

const RELEASE = `
local left = redis.call('HINCRBY', KEYS[1], ARGV[1], -1)
if left <= 0 then redis.call('HDEL', KEYS[1], ARGV[1]) end
return left
`;

/** One node's count for an address, as that node knows it: zero removes its field. */
const SET = `
if tonumber(ARGV[2]) <= 0 then
  redis.call('HDEL', KEYS[1], ARGV[1])
else
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
  redis.call('PEXPIRE', KEYS[1], 86400000)
end
return 1
`;

/** Live connections per client address, counted over every node on this Redis (keys `quire:conns:…`). */
export class RedisConnectionCounts implements SharedConnectionCounts {
  private readonly prefix: string;

  /**
   * @param nodeKeyPrefix what a node's heartbeat key is named after (its id follows): a count whose node
   *   has no such key is a dead node's.
   */
  constructor(
    private readonly redis: ScriptRunner,
    namespace: string,
    private readonly nodeId: string,
    private readonly nodeKeyPrefix: string,
  ) {
    this.prefix = `quire:conns:${createHash('sha256').update(namespace).digest('hex').slice(0, 16)}:`;
  }

  async reserve(address: string, cap: number): Promise<boolean> {
    const taken = await this.redis.evalScript(
      RESERVE,
      [this.key(address)],
      [this.nodeId, cap, this.nodeKeyPrefix],
    );
    return taken === 1;
  }

  async release(address: string): Promise<void> {
    await this.redis.evalScript(RELEASE, [this.key(address)], [this.nodeId]);
  }

  async set(address: string, held: number): Promise<void> {
    await this.redis.evalScript(SET, [this.key(address)], [this.nodeId, held]);
  }

  /** Hashed: an address has no business in a key anyone can list. */
  private key(address: string): string {
    return this.prefix + createHash('sha256').update(address).digest('hex').slice(0, 24);
  }
}
