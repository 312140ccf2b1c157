import type { StoredUpdate } from '../store/update-log-store.ts';

/*
 * What a group document sees of the other nodes serving the same groups (issue 13). The sync code only
 * knows this interface; cluster/ implements it over Redis (fan-out) and the shared PostgreSQL log (the
 * truth: every update is committed there before any node relays it, and a node that missed a message
 * reads it back from there).
 */

/** A message from another node about one group. */
export type RemoteMessage =
  | { kind: 'update'; origin: string; seq: number; update: Uint8Array }
  | { kind: 'compacted'; origin: string; seq: number }
  | { kind: 'presence'; origin: string; update: Uint8Array }
  | { kind: 'presence-query'; origin: string };

/**
 * What made a document read the log: a hole in the numbers that outlasted the grace time, the log's head
 * ahead of it at a sweep, Redis reconnecting, an update Yjs refused, or rows committed while it read.
 */
export type CatchUpReason = 'gap' | 'head' | 'reconnect' | 'refused' | 'again';

/** One node's document of a group, as the cluster drives it. */
export interface ClusterMember {
  readonly groupId: string;
  receive(message: RemoteMessage): void;
  /** Reads what the log holds past the document's last contiguous row (after a reconnect, or a head ahead). */
  catchUp(reason: CatchUpReason): void;
  /** Every row up to this number is in the document; null while it loads. */
  heldThrough(): number | null;
  /** Nodes whose clients' presence the document holds. */
  remoteNodes(): string[];
  /** That node is gone: its clients' presence goes too. */
  forgetNode(nodeId: string): void;
}

export interface DocCluster {
  readonly nodeId: string;
  /** Resolves once messages about the group reach `member` (its channel is subscribed). */
  join(member: ClusterMember): Promise<void>;
  leave(member: ClusterMember): void;
  publishUpdate(groupId: string, seq: number, update: Uint8Array): void;
  publishCompacted(groupId: string, seq: number): void;
  publishPresence(groupId: string, awarenessUpdate: Uint8Array): void;
  /** The group's rows after `seq`, oldest first. */
  updatesAfter(groupId: string, seq: number): Promise<StoredUpdate[]>;
  /** Compacts under the group's advisory lock: the merged row's number, or null when another node holds it. */
  compactThrough(groupId: string, throughId: number, merged: Uint8Array): Promise<number | null>;
  /** How long a hole in the row numbers may last before the log is read for it, in ms. */
  readonly gapGraceMs: number;
}
