import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { QuireError, errorMessage } from '../errors.ts';
import type { StoredUpdate } from '../store/update-log-store.ts';
import type { ClusterMember, DocCluster, RemoteMessage } from '../sync/doc-cluster.ts';
import {
  MalformedClusterMessage,
  clusterMessageOrigin,
  decodeClusterMessage,
  encodeClusterMessage,
  groupChannel,
  groupOfChannel,
  type ClusterMessage,
} from './cluster-messages.ts';
import { RedisBus } from './redis-bus.ts';
import { RedisConnectionCounts } from './redis-connection-counts.ts';
import { RedisRateLimits } from './redis-rate-limits.ts';

/** What the cluster reads of the shared log (store/pg's PgUpdateLog answers it). */
export interface ClusterLog {
  after(groupId: string, seq: number): Promise<StoredUpdate[]>;
  heads(groupIds: readonly string[]): Promise<Map<string, number>>;
  compactThrough(groupId: string, throughId: number, merged: Uint8Array): Promise<number | null>;
}

export interface NodeClusterOptions {
  /**
   * Seconds between two heartbeats of this node (its key lives three of them) and between two sweeps,
   * which compare each loaded group's log head with its document and drop the presence of nodes whose
   * key expired.
   */
  heartbeatSeconds: number;
  /** How long a hole in a group's row numbers may last before the log is read for it. */
  gapGraceMs?: number;
  /** How long loading a group waits for its channel's subscription before it goes on without. */
  joinTimeoutMs?: number;
  /**
   * Names the installation in the rate limits' Redis keys (the shared database, say): one Redis may serve
   * several installations, or the test files' separate databases, whose allowances are their own.
   */
  limitsNamespace?: string;
  log: (line: string) => void;
}

export interface ClusterStats {
  published: number;
  publishFailed: number;
  received: number;
  /** Other nodes' updates that arrived through Redis. */
  updatesReceived: number;
  /** Reads of the log for rows a document lacked (a hole, a reconnect, a head ahead). */
  catchUpReads: number;
  malformed: number;
  reconnects: number;
}

const nodeKey = (nodeId: string): string => `quire:node:${nodeId}`;

/**
 * This node's part in sync across nodes: Redis pub/sub, one channel per group, every node handling every
 * message of the groups it has loaded (as Hocuspocus's Redis extension does), over a PostgreSQL log that
 * numbers each group's updates. Redis carries the update itself so that other nodes apply it within a
 * millisecond or two; the number lets them see what they missed, and the log is where they read it.
 *
 * A node's clients' presence is tied to the node's heartbeat key (TTL three heartbeats): when the key
 * expires, every other node removes those clients. An awareness timeout alone would leave a dead node's
 * clients on screen for 30 s and, worse, keep their ids claimed when they reconnect elsewhere.
 */
export class NodeCluster implements DocCluster {
  readonly nodeId = `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  readonly gapGraceMs: number;
  private readonly members = new Map<string, ClusterMember>();
  private readonly counts: ClusterStats = {
    published: 0,
    publishFailed: 0,
    received: 0,
    updatesReceived: 0,
    catchUpReads: 0,
    malformed: 0,
    reconnects: 0,
  };
  private readonly heartbeatMs: number;
  private readonly timer: NodeJS.Timeout;
  /** Until then no node is judged dead: after a Redis restart every heartbeat key is gone for a while. */
  private trustKeysAfter = 0;
  private sweeping = false;
  /** Each loaded group's log head at the last sweep. */
  private headsSeen = new Map<ClusterMember, number>();
  private closed = false;

  private constructor(
    private readonly bus: RedisBus,
    private readonly updates: ClusterLog,
    private readonly options: NodeClusterOptions,
  ) {
    this.rateLimits = new RedisRateLimits(bus, options.limitsNamespace ?? '');
    this.connectionCounts = new RedisConnectionCounts(
      bus,
      options.limitsNamespace ?? '',
      this.nodeId,
      nodeKey(''),
    );
    this.heartbeatMs = options.heartbeatSeconds * 1000;
    this.gapGraceMs = options.gapGraceMs ?? 250;
    this.trustKeysAfter = Date.now() + 3 * this.heartbeatMs;
    this.timer = setInterval(() => void this.sweep(), this.heartbeatMs);
    this.timer.unref();
  }

  static async open(url: string, updates: ClusterLog, options: NodeClusterOptions): Promise<NodeCluster> {
    const seconds = options.heartbeatSeconds;
    if (!(seconds > 0 && Number.isFinite(seconds))) {
      throw new QuireError(
        'bad-input',
        `QUIRE_CLUSTER_HEARTBEAT_SECONDS must be a positive number of seconds, not ${String(seconds)}.`,
      );
    }
    let cluster: NodeCluster | null = null;
    const bus = await RedisBus.open(url, {
      message: (channel, data) => cluster?.onMessage(channel, data),
      reconnected: () => cluster?.onReconnected(),
      log: options.log,
    });
    cluster = new NodeCluster(bus, updates, options);
    await cluster.beat();
    return cluster;
  }

  /** Rate limits every node counts against (group creation, sync joins), in this node's Redis. */
  readonly rateLimits: RedisRateLimits;
  /** Live sync connections per address over every node, for the cap (a dead node's are dropped). */
  readonly connectionCounts: RedisConnectionCounts;

  stats(): ClusterStats {
    return { ...this.counts };
  }

  async join(member: ClusterMember): Promise<void> {
    this.members.set(member.groupId, member);
    let timer: NodeJS.Timeout | undefined;
    const subscribed = this.bus.subscribe(groupChannel(member.groupId)).then(
      () => true,
      () => false,
    );
    const waited = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), this.options.joinTimeoutMs ?? 2000);
    });
    // Without Redis the group still loads: the sweep then catches it up from the log.
    const ok = await Promise.race([subscribed, waited]);
    clearTimeout(timer);
    if (!ok)
      this.options.log(`sync cluster: group ${member.groupId} loaded before its channel was subscribed`);
    this.publish({ kind: 'presence-query', origin: this.nodeId, groupId: member.groupId });
  }

  leave(member: ClusterMember): void {
    if (this.members.get(member.groupId) !== member) return;
    this.members.delete(member.groupId);
    this.bus.unsubscribe(groupChannel(member.groupId)).catch(() => {});
  }

  publishUpdate(groupId: string, seq: number, update: Uint8Array): void {
    this.publish({ kind: 'update', origin: this.nodeId, groupId, seq, update });
  }

  publishCompacted(groupId: string, seq: number): void {
    this.publish({ kind: 'compacted', origin: this.nodeId, groupId, seq });
  }

  publishPresence(groupId: string, awarenessUpdate: Uint8Array): void {
    this.publish({ kind: 'presence', origin: this.nodeId, groupId, update: awarenessUpdate });
  }

  updatesAfter(groupId: string, seq: number): Promise<StoredUpdate[]> {
    this.counts.catchUpReads++;
    return this.updates.after(groupId, seq);
  }

  compactThrough(groupId: string, throughId: number, merged: Uint8Array): Promise<number | null> {
    return this.updates.compactThrough(groupId, throughId, merged);
  }

  /** Stops the heartbeat and removes this node's key, so the others drop its clients' presence at once. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    await this.bus.deleteKey(nodeKey(this.nodeId)).catch(() => {});
    await this.bus.close();
  }

  private publish(message: ClusterMessage): void {
    if (this.closed) return;
    this.bus.publish(groupChannel(message.groupId), encodeClusterMessage(message)).then(
      () => this.counts.published++,
      () => this.counts.publishFailed++,
    );
  }

  private onMessage(channel: string, data: Buffer): void {
    this.counts.received++;
    const groupId = groupOfChannel(channel);
    const member = groupId === null ? undefined : this.members.get(groupId);
    if (!member || clusterMessageOrigin(data) === this.nodeId) return;
    let message: ClusterMessage;
    try {
      message = decodeClusterMessage(channel, data);
    } catch (err) {
      if (!(err instanceof MalformedClusterMessage)) throw err;
      this.counts.malformed++;
      // The first, then one in a thousand: a flood of them must not flood the log.
      if (this.counts.malformed % 1000 === 1) {
        this.options.log(
          `sync cluster: dropped a malformed message on ${channel} (${err.message}); ${this.counts.malformed} so far`,
        );
      }
      return;
    }
    if (message.kind === 'update' && message.origin !== this.nodeId) this.counts.updatesReceived++;
    try {
      member.receive(toRemote(message));
    } catch (err) {
      this.options.log(`sync cluster: group ${member.groupId}: ${errorMessage(err)}`);
    }
  }

  private onReconnected(): void {
    this.counts.reconnects++;
    this.trustKeysAfter = Date.now() + 3 * this.heartbeatMs;
    this.options.log(`sync cluster: Redis is back; catching ${this.members.size} groups up from PostgreSQL`);
    void this.beat();
    for (const member of this.members.values()) member.catchUp('reconnect');
  }

  private async beat(): Promise<void> {
    try {
      await this.bus.setKey(nodeKey(this.nodeId), 3 * this.heartbeatMs);
    } catch {
      // Redis is away; the next beat tries again and the reconnect beats at once.
    }
  }

  /** Heartbeat, then: each loaded group against its log head, and other nodes' liveness. */
  private async sweep(): Promise<void> {
    if (this.sweeping || this.closed) return;
    this.sweeping = true;
    try {
      await this.beat();
      await this.compareHeads();
      await this.forgetDeadNodes();
    } catch (err) {
      this.options.log(`sync cluster: sweep failed: ${errorMessage(err)}`);
    } finally {
      this.sweeping = false;
    }
  }

  /**
   * A document still short of the head the previous sweep saw reads the log. Not of this sweep's head:
   * while a group is edited, rows committed a moment ago are always on their way through Redis, and
   * reading them back for every busy group at every sweep cost more than it caught (the 3-node bench:
   * 224 reads in 20 s, nearly all for rows already arriving). A row a whole heartbeat old is missed.
   */
  private async compareHeads(): Promise<void> {
    const held = [...this.members.values()].filter((m) => m.heldThrough() !== null);
    const seen = this.headsSeen;
    this.headsSeen = new Map();
    if (held.length === 0) return;
    const heads = await this.updates.heads(held.map((m) => m.groupId));
    for (const member of held) {
      const head = heads.get(member.groupId);
      if (head !== undefined) this.headsSeen.set(member, head);
      const before = seen.get(member);
      const through = member.heldThrough();
      if (before !== undefined && through !== null && before > through) member.catchUp('head');
    }
  }

  private async forgetDeadNodes(): Promise<void> {
    if (Date.now() < this.trustKeysAfter) return;
    const nodes = [...new Set([...this.members.values()].flatMap((m) => m.remoteNodes()))];
    if (nodes.length === 0) return;
    const alive = await this.bus.existing(nodes.map(nodeKey));
    const dead = nodes.filter((_, i) => !alive[i]);
    for (const nodeId of dead) {
      this.options.log(`sync cluster: node ${nodeId} stopped beating; removing its clients' presence`);
      for (const member of this.members.values()) member.forgetNode(nodeId);
    }
  }
}

function toRemote(message: ClusterMessage): RemoteMessage {
  switch (message.kind) {
    case 'update':
      return { kind: 'update', origin: message.origin, seq: message.seq, update: message.update };
    case 'compacted':
      return { kind: 'compacted', origin: message.origin, seq: message.seq };
    case 'presence':
      return { kind: 'presence', origin: message.origin, update: message.update };
    case 'presence-query':
      return { kind: 'presence-query', origin: message.origin };
  }
}
