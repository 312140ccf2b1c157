import { CLOSE_CODES, type CloseCode } from '@quire/core';
import { SharedConnectionCap } from './shared-connection-cap.ts';
import { SharedMessageCounts } from './shared-message-counts.ts';
import type { SharedLimits } from './sync-connection.ts';
import type { SyncOptions } from './sync-options.ts';
import { KeyedBuckets, SharedLimit, type MessageLimit, type TokenBucket } from './token-bucket.ts';

/**
 * Every allowance a sync connection is held to beyond its own bucket: per invite and per client address,
 * on this node and, with other nodes (`sharedLimits`, `sharedConnections`), counted across all of them.
 */
export class SyncLimits {
  private readonly inviteBuckets: KeyedBuckets;
  private readonly addressBuckets: KeyedBuckets;
  private readonly stateRequestBuckets: KeyedBuckets;
  private readonly inviteJoinBuckets: KeyedBuckets;
  /** This node's count of joins per address, used only while the shared count cannot answer. */
  private readonly addressJoinBuckets: KeyedBuckets;
  private readonly joinLimit: SharedLimit;
  /** The invites' and addresses' message allowances counted across nodes (null on one node). */
  private readonly messageCounts: SharedMessageCounts | null;
  /** The live-connection cap per address across nodes (null on one node). */
  private readonly connectionCap: SharedConnectionCap | null;

  constructor(private readonly o: SyncOptions) {
    this.inviteBuckets = new KeyedBuckets(o.inviteMessagesPerSecond, o.inviteMessageBurst);
    this.addressBuckets = new KeyedBuckets(o.addressMessagesPerSecond, o.addressMessageBurst);
    this.stateRequestBuckets = new KeyedBuckets(o.stateRequestsPerMinute / 60, o.stateRequestBurst);
    this.inviteJoinBuckets = new KeyedBuckets(o.inviteJoinsPerMinute / 60, o.inviteJoinBurst);
    this.addressJoinBuckets = new KeyedBuckets(o.stateRequestsPerMinute / 60, o.stateRequestBurst);
    const outage = (what: string) => (why: string) =>
      o.log(
        `sync: Redis cannot count ${what} across nodes (${why}); this node counts its own until it answers`,
      );
    this.joinLimit = new SharedLimit(o.sharedLimits ?? null, outage('joins'));
    this.messageCounts = o.sharedLimits ? new SharedMessageCounts(o.sharedLimits, outage('messages')) : null;
    this.connectionCap = o.sharedConnections
      ? new SharedConnectionCap(o.sharedConnections, outage('connections'))
      : null;
  }

  /**
   * Whether this join is past its invite's allowance, or (with shared limits) its address's allowance of
   * state requests, which every join makes, or its address's live connections over all nodes: counted
   * across nodes, so N nodes do not give N times any of them. One node alone charges the address at its
   * sync step 1, and caps its connections as they arrive (SyncServer). A place in the cap is held until
   * `closed` settles.
   */
  async joinRefusal(inviteId: string, address: string, closed: Promise<void>): Promise<CloseCode | null> {
    const o = this.o;
    const invite = this.inviteJoinBuckets.get(inviteId);
    const key = `sync-join:invite:${inviteId}`;
    if (!(await this.joinLimit.take(key, o.inviteJoinsPerMinute / 60, o.inviteJoinBurst, invite)))
      return CLOSE_CODES.inviteRateLimited;
    if (!o.sharedLimits) return null;
    const local = this.addressJoinBuckets.get(address);
    const addressKey = `sync-join:address:${address}`;
    if (!(await this.joinLimit.take(addressKey, o.stateRequestsPerMinute / 60, o.stateRequestBurst, local)))
      return CLOSE_CODES.stateRequestsLimited;
    if (this.connectionCap && !(await this.connectionCap.admit(address, o.connectionsPerAddress, closed)))
      return CLOSE_CODES.tooManyConnections;
    return null;
  }

  /** The buckets one connection's messages are counted in, beside its own. */
  forConnection(inviteId: string, address: string): SharedLimits {
    const o = this.o;
    return {
      messages: [
        {
          bucket: this.counted(
            this.inviteBuckets.get(inviteId),
            `sync-messages:invite:${inviteId}`,
            o.inviteMessagesPerSecond,
            o.inviteMessageBurst,
          ),
          code: CLOSE_CODES.inviteRateLimited,
        },
        {
          bucket: this.counted(
            this.addressBuckets.get(address),
            `sync-messages:address:${address}`,
            o.addressMessagesPerSecond,
            o.addressMessageBurst,
          ),
          code: CLOSE_CODES.addressRateLimited,
        },
      ],
      stateRequests: {
        bucket: this.stateRequestBuckets.get(address),
        code: CLOSE_CODES.stateRequestsLimited,
      },
    };
  }

  /** Reports the messages counted since the last report now (it happens every 50 ms by itself). */
  reportSharedCounts(): Promise<void> {
    return this.messageCounts?.report() ?? Promise.resolve();
  }

  close(): void {
    this.messageCounts?.close();
    this.connectionCap?.close();
  }

  /** This node's bucket for a key and, with other nodes, the allowance they all count against. */
  private counted(local: TokenBucket, key: string, perSecond: number, burst: number): MessageLimit {
    const counts = this.messageCounts;
    if (!counts) return local;
    return { take: () => local.take() && counts.take(key, perSecond, burst) };
  }
}
