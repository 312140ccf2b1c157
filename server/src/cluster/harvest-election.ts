import { errorMessage } from '../errors.ts';
import type { HarvestScheduler } from '../harvest/harvest-scheduler.ts';
import { tryHarvestLock, type HarvestLock } from '../store/harvest-lock.ts';

/** Elections a node that lost its lock sits out before it competes again. */
const SIT_OUT_AFTER_LOSS = 5;

export interface HarvestElectionOptions {
  databaseUrl: string;
  /** A fresh scheduler each time this node wins: a stopped one does not start again. */
  newScheduler: () => HarvestScheduler;
  /** How often a node without the lock tries for it, and a node with it checks its connection. */
  everyMs: number;
  log: (line: string) => void;
}

/**
 * One harvester among the nodes sharing a PostgreSQL database (issue 13): the node holding the harvest
 * lock (a session advisory lock: store/harvest-lock.ts) harvests; the others try for it every
 * `everyMs`, so when the harvester dies (PostgreSQL releases its lock with its session) one of them
 * takes over. A node that loses its lock (its connection broke) stops harvesting at once, since another
 * node may hold the lock already, and competes again like the others.
 *
 * The lock's own connection is checked every `everyMs`, so a harvester cut off from PostgreSQL without
 * a closed socket may keep harvesting for up to that long beside its successor: the harvest is idempotent
 * (papers are upserted, checkpoints only move forward), so that overlap costs requests, not data.
 */
export class HarvestElection {
  private lock: HarvestLock | null = null;
  private current: HarvestScheduler | null = null;
  private timer: NodeJS.Timeout | null = null;
  private busy = false;
  private stopped = false;
  /** What was last said about this node's part, so a follower says it once, not every retry. */
  private said = '';
  /** Elections this node sits out after losing its lock, so a node with a sound connection wins. */
  private sitOut = 0;

  constructor(private readonly options: HarvestElectionOptions) {}

  /** The running harvest, or null while another node harvests. */
  get scheduler(): HarvestScheduler | null {
    return this.current;
  }

  /** The first election, awaited so that start-up can say which part this node has. */
  async start(): Promise<void> {
    await this.tick();
    if (this.stopped) return;
    this.timer = setInterval(() => void this.tick(), this.options.everyMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    const [scheduler, lock] = [this.current, this.lock];
    this.current = null;
    this.lock = null;
    await scheduler?.stop();
    await lock?.release();
  }

  private async tick(): Promise<void> {
    if (this.busy || this.stopped) return;
    this.busy = true;
    try {
      if (this.lock) await this.lock.check().catch(() => {});
      else if (this.sitOut > 0) this.sitOut--;
      else await this.elect();
    } finally {
      this.busy = false;
    }
  }

  private async elect(): Promise<void> {
    const seconds = Math.round(this.options.everyMs / 1000);
    let lock: HarvestLock | null;
    try {
      lock = await tryHarvestLock(this.options.databaseUrl, (why) => void this.lost(why));
    } catch (err) {
      this.say(
        `harvest: cannot hold the harvest election on PostgreSQL (${errorMessage(err)}); not harvesting, trying again every ${seconds} s`,
      );
      return;
    }
    if (!lock) {
      this.say(
        `harvest: another node harvests (it holds the PostgreSQL harvest lock); this node does not, and tries for the lock every ${seconds} s`,
      );
      return;
    }
    if (this.stopped) return void (await lock.release());
    this.lock = lock;
    this.current = this.options.newScheduler();
    this.current.start();
    this.say('harvest: this node harvests for every node on this PostgreSQL (it holds the harvest lock)');
  }

  private async lost(why: string): Promise<void> {
    if (this.stopped) return;
    const scheduler = this.current;
    this.current = null;
    this.lock = null;
    // Its connection broke: the fault is likely on this node's side, and a sound node should take over.
    this.sitOut = SIT_OUT_AFTER_LOSS;
    this.say(
      `harvest: lost the PostgreSQL harvest lock (${why}); stopped harvesting, another node may take over (this one competes again in ${SIT_OUT_AFTER_LOSS} tries)`,
    );
    await scheduler?.stop();
  }

  private say(line: string): void {
    if (line === this.said) return;
    this.said = line;
    this.options.log(line);
  }
}
