import { errorMessage } from '../errors.ts';
import { SeqTracker } from '../cluster/seq-tracker.ts';
import type { CloseCode } from '@quire/core';
import type { DocPeer } from './group-doc.ts';
import type { CatchUpReason, ClusterMember, DocCluster, RemoteMessage } from './doc-cluster.ts';
import { syncTrace } from './sync-trace.ts';

/**
 * Another node, as one group document sees it: the owner of its clients' presence. It has no socket
 * here, so nothing is sent to it; what the document relays reaches it through Redis instead.
 */
export class RemoteNodePeer implements DocPeer {
  constructor(readonly nodeId: string) {}
  send(): void {}
  close(_code: CloseCode): void {}
}

/** The origin of rows read back from the log: relayed to every local client, published to no node. */
export const CATCH_UP_ORIGIN = Symbol('catch-up');

/** What the relay needs of its group document (GroupDoc). */
export interface RelayedDoc {
  readonly groupId: string;
  readonly isReady: boolean;
  /** Applies an update another node committed; false when Yjs refused it. */
  applyRemoteUpdate(update: Uint8Array, origin: RemoteNodePeer | typeof CATCH_UP_ORIGIN): boolean;
  applyRemotePresence(from: RemoteNodePeer, awarenessUpdate: Uint8Array): void;
  /** Removes every presence state `peer` owns (and says so to the local clients). */
  releasePresence(peer: DocPeer): void;
  /** The presence of this node's own clients, as one awareness update, or null. */
  localPresence(): Uint8Array | null;
  /** Another node compacted the group's log. */
  markCompacted(): void;
  log(line: string): void;
}

/**
 * One group document's side of sync across nodes. Every update is committed to the shared log before any
 * node publishes it, under the group's next number; this relay applies other nodes' updates as they come
 * and tracks which numbers the document holds. Redis may drop messages (a restart, a slow subscriber), so
 * a hole that outlasts `gapGraceMs`, a reconnect, or a log head ahead of the document makes it read the
 * log from its last contiguous number: pub/sub only speeds delivery, the log decides.
 */
export class ClusterRelay implements ClusterMember {
  private tracker: SeqTracker | null = null;
  /** Messages that arrive while the document loads, applied once it has. */
  private held: RemoteMessage[] | null = [];
  private readonly nodes = new Map<string, RemoteNodePeer>();
  private reading = false;
  private readAgain = false;
  private gapTimer: NodeJS.Timeout | null = null;
  private left = false;

  constructor(
    private readonly doc: RelayedDoc,
    private readonly cluster: DocCluster,
  ) {}

  get groupId(): string {
    return this.doc.groupId;
  }

  join(): Promise<void> {
    return this.cluster.join(this);
  }

  /** The document holds every row up to `through`. */
  loaded(through: number): void {
    this.tracker = new SeqTracker(through);
    const held = this.held ?? [];
    this.held = null;
    for (const message of held) this.receive(message);
  }

  /** This node committed `update` as row `seq`. */
  stored(seq: number, update: Uint8Array): void {
    this.cluster.publishUpdate(this.groupId, seq, update);
    this.tracker?.add(seq);
    this.watchGap();
  }

  /** This node compacted the log into row `seq`, which holds nothing the rows before it do not. */
  compacted(seq: number): void {
    this.cluster.publishCompacted(this.groupId, seq);
    this.tracker?.add(seq);
    this.watchGap();
  }

  heldThrough(): number | null {
    return this.tracker?.through ?? null;
  }

  remoteNodes(): string[] {
    return [...this.nodes.keys()];
  }

  forgetNode(nodeId: string): void {
    const peer = this.nodes.get(nodeId);
    if (!peer) return;
    this.nodes.delete(nodeId);
    this.doc.releasePresence(peer);
  }

  receive(message: RemoteMessage): void {
    if (this.left || message.origin === this.cluster.nodeId) return;
    if (this.held) {
      this.held.push(message);
      return;
    }
    const tracker = this.tracker;
    if (!tracker || !this.doc.isReady) return;
    switch (message.kind) {
      case 'update':
        syncTrace?.mark('remote-received', message.update);
        if (tracker.has(message.seq)) return;
        // Marked held only once applied: an update Yjs refuses is read back from the log instead.
        if (this.doc.applyRemoteUpdate(message.update, this.node(message.origin))) tracker.add(message.seq);
        else this.catchUp('refused');
        this.watchGap();
        return;
      case 'compacted':
        tracker.add(message.seq);
        this.doc.markCompacted();
        this.watchGap();
        return;
      case 'presence':
        this.doc.applyRemotePresence(this.node(message.origin), message.update);
        return;
      case 'presence-query': {
        const presence = this.doc.localPresence();
        if (presence) this.cluster.publishPresence(this.groupId, presence);
        return;
      }
    }
  }

  catchUp(reason: CatchUpReason): void {
    if (this.left || !this.tracker) return;
    syncTrace?.count(`catch-up:${reason}`);
    if (this.reading) {
      this.readAgain = true;
      return;
    }
    this.reading = true;
    void this.readLog().finally(() => {
      this.reading = false;
      if (!this.readAgain) return;
      this.readAgain = false;
      this.catchUp('again');
    });
  }

  leave(): void {
    if (this.left) return;
    this.left = true;
    if (this.gapTimer) clearTimeout(this.gapTimer);
    this.gapTimer = null;
    this.cluster.leave(this);
  }

  private async readLog(): Promise<void> {
    const tracker = this.tracker;
    if (!tracker) return;
    let rows;
    try {
      rows = await this.cluster.updatesAfter(this.groupId, tracker.through);
    } catch (err) {
      // The cluster's sweep compares heads again shortly and calls back.
      this.doc.log(`sync: catching group ${this.groupId} up from the log failed: ${errorMessage(err)}`);
      return;
    }
    if (this.left || !this.doc.isReady) return;
    syncTrace?.count(`catch-up-rows=${rows.length}`);
    // Every row, even one the document holds: after a compaction the merged row carries rows it lacks.
    for (const row of rows) this.doc.applyRemoteUpdate(row.data, CATCH_UP_ORIGIN);
    const last = rows.at(-1)?.id;
    if (last !== undefined) tracker.coverThrough(last);
    this.watchGap();
  }

  /** After a hole opened: read the log if nothing filled it within the grace time. */
  private watchGap(): void {
    const tracker = this.tracker;
    if (!tracker?.hasGap || this.gapTimer || this.left) return;
    const stuckAt = tracker.through;
    this.gapTimer = setTimeout(() => {
      this.gapTimer = null;
      if (this.left) return;
      if (tracker.hasGap && tracker.through <= stuckAt) this.catchUp('gap');
      else this.watchGap();
    }, this.cluster.gapGraceMs);
    this.gapTimer.unref();
  }

  private node(nodeId: string): RemoteNodePeer {
    let peer = this.nodes.get(nodeId);
    if (!peer) this.nodes.set(nodeId, (peer = new RemoteNodePeer(nodeId)));
    return peer;
  }
}
