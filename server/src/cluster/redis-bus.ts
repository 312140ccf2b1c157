import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { QuireError, errorMessage, redactedUrl } from '../errors.ts';
import { corkForThisTask } from '../sync/task-cork.ts';

export interface BusEvents {
  /** A message on a subscribed channel, as Redis delivered its bytes. */
  message(channel: string, data: Buffer): void;
  /** The subscriber connection came back after a drop and its channels are subscribed again. */
  reconnected(): void;
  log(line: string): void;
}

/** How long start-up waits for Redis to answer before it says so. */
const CONNECT_TIMEOUT_MS = 5000;
/** How long closing waits for Redis to answer QUIT before it drops the connection. */
const QUIT_WAIT_MS = 1000;

/**
 * Redis pub/sub for one node: a connection that publishes (and keeps the node's heartbeat key) and one
 * that subscribes, as Redis requires. Publishing fails at once while Redis is away rather than queueing:
 * what is missed is read back from the log after the reconnect. Subscribing waits for the connection, and
 * ioredis subscribes every channel again after a reconnect.
 */
export class RedisBus {
  private readonly pub: Redis;
  private readonly sub: Redis;
  private subReadyBefore = false;
  private lastError = '';
  /** Each script's SHA1, to run it by (EVALSHA) rather than send its text every time. */
  private readonly scriptShas = new Map<string, string>();

  private constructor(
    url: string,
    private readonly events: BusEvents,
  ) {
    const common = { lazyConnect: true, connectionName: 'quire-sync' };
    // Not auto-pipelined: ioredis keeps one auto-pipeline in flight per connection, so a publish would
    // wait for the previous batch's replies before it is even written (and for the turn's end first).
    this.pub = new Redis(url, { ...common, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    this.sub = new Redis(url, { ...common, maxRetriesPerRequest: null });
    const onError = (err: Error) => {
      // Once per distinct error: a Redis restart makes ioredis report each failed reconnect.
      if (err.message === this.lastError) return;
      this.lastError = err.message;
      events.log(
        `sync cluster: Redis: ${err.message} (reconnecting; updates reach other nodes from PostgreSQL meanwhile)`,
      );
    };
    this.pub.on('error', onError);
    this.sub.on('error', onError);
    this.sub.on('messageBuffer', (channel: Buffer, data: Buffer) => events.message(channel.toString(), data));
    this.sub.on('ready', () => {
      this.lastError = '';
      if (!this.subReadyBefore) {
        this.subReadyBefore = true;
        return;
      }
      // ioredis sends the re-subscriptions right after 'ready'; a PING queued behind them answers once
      // they are in place, so nothing published after this point is missed.
      setImmediate(() => {
        this.sub.ping().then(
          () => events.reconnected(),
          () => {},
        );
      });
    });
  }

  static async open(url: string, events: BusEvents): Promise<RedisBus> {
    const bus = new RedisBus(url, events);
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        Promise.all([bus.pub.connect(), bus.sub.connect()]),
        new Promise((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`no answer in ${CONNECT_TIMEOUT_MS} ms`)),
            CONNECT_TIMEOUT_MS,
          );
        }),
      ]);
    } catch (err) {
      bus.pub.disconnect();
      bus.sub.disconnect();
      throw new QuireError(
        'unavailable',
        `Cannot reach Redis at ${redactedUrl(url)}: ${errorMessage(err)}. Check the address (QUIRE_REDIS_URL) and that Redis is running, or unset it to run one node.`,
        { cause: err },
      );
    } finally {
      clearTimeout(timer);
    }
    return bus;
  }

  async subscribe(channel: string): Promise<void> {
    await this.sub.subscribe(channel);
  }

  async unsubscribe(channel: string): Promise<void> {
    await this.sub.unsubscribe(channel);
  }

  async publish(channel: string, data: Uint8Array): Promise<void> {
    this.corkPublishing();
    await this.pub.publish(channel, Buffer.from(data.buffer, data.byteOffset, data.byteLength));
  }

  async setKey(key: string, ttlMs: number): Promise<void> {
    await this.pub.set(key, '1', 'PX', ttlMs);
  }

  /** Which of `keys` exist, in order. */
  async existing(keys: readonly string[]): Promise<boolean[]> {
    if (keys.length === 0) return [];
    const pipeline = this.pub.pipeline();
    for (const key of keys) pipeline.exists(key);
    const results = (await pipeline.exec()) ?? [];
    return keys.map((_, i) => {
      const [err, n] = results[i] ?? [new Error('no reply'), 0];
      if (err) throw err;
      return n === 1;
    });
  }

  /**
   * Runs a Lua script on the publishing connection (fails at once while Redis is away), by its SHA1: the
   * message counts' report runs one per invite and address every 50 ms, each sending the script's text
   * (some 900 bytes) for Redis to hash again. Redis forgets scripts when it restarts; then the text goes.
   */
  async evalScript(script: string, keys: string[], args: (string | number)[]): Promise<unknown> {
    let sha = this.scriptShas.get(script);
    if (sha === undefined)
      this.scriptShas.set(script, (sha = createHash('sha1').update(script).digest('hex')));
    this.corkPublishing();
    try {
      return await this.pub.evalsha(sha, keys.length, ...keys, ...args);
    } catch (err) {
      if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
      return this.pub.eval(script, keys.length, ...keys, ...args);
    }
  }

  /**
   * The commands of one task leave in one write (task-cork.ts): the publishes that follow one task's
   * committed appends, the scripts of one report of the message counts.
   */
  private corkPublishing(): void {
    if (this.pub.status === 'ready') corkForThisTask(this.pub.stream);
  }

  async deleteKey(key: string): Promise<void> {
    await this.pub.del(key);
  }

  /**
   * Says goodbye to Redis, or just drops the connection when Redis is away: QUIT on a reconnecting
   * connection is queued until Redis is back, which would hold a node's shutdown for as long as the outage.
   */
  async close(): Promise<void> {
    await Promise.all(
      [this.pub, this.sub].map(async (r) => {
        if (r.status !== 'ready') return r.disconnect();
        let timer: NodeJS.Timeout | undefined;
        const quit = r.quit().then(
          () => true,
          () => false,
        );
        const gaveUp = new Promise<boolean>(
          (resolve) => (timer = setTimeout(() => resolve(false), QUIT_WAIT_MS)),
        );
        const said = await Promise.race([quit, gaveUp]);
        clearTimeout(timer);
        if (!said) r.disconnect();
      }),
    );
  }
}
