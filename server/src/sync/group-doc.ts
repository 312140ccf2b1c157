import * as awarenessProtocol from 'y-protocols/awareness';
import * as Y from 'yjs';
import { errorMessage } from '../errors.ts';
import { CLOSE_CODES, type CloseCode } from '@quire/core';
import {
  awarenessMessage,
  checkPresenceJson,
  presenceUpdate,
  readPresenceEntries,
  syncStep1Message,
  syncStep2Message,
  updateMessage,
  wantsWholeState,
  type PresenceEntry,
} from './sync-messages.ts';
import type { StoredUpdate, UpdateLog } from '../store/update-log-store.ts';
import { CATCH_UP_ORIGIN, ClusterRelay, RemoteNodePeer, type RelayedDoc } from './cluster-relay.ts';
import type { DocCluster } from './doc-cluster.ts';
import { syncTrace } from './sync-trace.ts';
import { DeferredDoc, RAW_RELAY_MAX_BYTES } from './deferred-apply.ts';

/** An update waiting to be appended, and its caller. */
interface PendingStore {
  from: DocPeer;
  update: Uint8Array;
  resolve(): void;
  reject(err: unknown): void;
}

/** What a group document needs from a connection. */
export interface DocPeer {
  send(message: Uint8Array): void;
  close(code: CloseCode): void;
}

export interface GroupDocOptions {
  /** Rows in the update log after which the group is compacted (off the hot path). */
  compactAfterUpdates: number;
  /** How long a document with no connections stays in memory. */
  idleUnloadMs: number;
  /** Largest presence state (its JSON, in bytes) relayed; bigger ones are dropped. */
  presenceMaxBytes?: number;
  /** Client ids one connection may announce presence for; one more closes it (`presenceRefused`). */
  presenceIdsPerConnection?: number;
  /** The other nodes serving the same groups (Redis fan-out over the shared log); none on one node. */
  cluster?: DocCluster;
  log: (line: string) => void;
}

export const DEFAULT_PRESENCE_MAX_BYTES = 4096;
export const DEFAULT_PRESENCE_IDS_PER_CONNECTION = 4;

type DocState = 'loading' | 'ready' | 'failed' | 'unloaded';

/**
 * One group's Yjs document in memory: its peers, their presence, and the update log behind it.
 * Every change goes log first, document second, peers third (see `store`).
 */
export class GroupDoc implements RelayedDoc {
  /** Settles once the stored state is in memory: true when ready, false when loading failed. */
  readonly loaded: Promise<boolean>;
  private doc: Y.Doc | null = null;
  /** The document behind the updates relayed before they were applied (deferred-apply.ts). */
  private deferred: DeferredDoc | null = null;
  private awareness: awarenessProtocol.Awareness | null = null;
  private state: DocState = 'loading';
  private readonly peers = new Set<DocPeer>();
  /**
   * Which peer owns each awareness client id: the first to announce it. Only the owner may change or
   * remove that presence, and leaving removes exactly the ids a peer owns.
   */
  private readonly owners = new Map<number, DocPeer>();
  private readonly owned = new Map<DocPeer, Set<number>>();
  /** Peers already logged for an oversize presence state (logged once, dropped always). */
  private readonly warnedOversize = new WeakSet<DocPeer>();
  /** The answer to "send me everything", kept until the next update changes the document. */
  private wholeState: Uint8Array | null = null;
  private rows = 0;
  /** The newest log row the document holds: compaction replaces the rows up to it. */
  private lastId: number | null = null;
  /**
   * Appends, the unload and, on one node, compactions run one after another: the log's rows and the
   * document then always agree when a compaction reads the newest id. With other nodes a live compaction
   * runs beside this chain instead, through the number the relay holds without a hole (compactNow).
   */
  private chain: Promise<void> = Promise.resolve();
  private unloading: Promise<void> | null = null;
  private compactQueued = false;
  /** A live compaction beside the appends (with other nodes), while it is out. */
  private compacting: Promise<void> | null = null;
  private idleTimer: NodeJS.Timeout | null = null;
  private readonly relay: ClusterRelay | null;
  /**
   * Rows after which this node compacts the group. With other nodes, a little more, by a share drawn for
   * each document: every node counts the same rows, so at one threshold they all reach it together and
   * each compacts (or tries to) before the others' 'compacted' message arrives to tell it not to, each
   * holding up that group's appends on its node meanwhile. Spread, the lowest draw compacts and the
   * others hear of it first.
   */
  private readonly compactAfter: number;
  /** Updates waiting for the append before theirs, to be appended as one row (see store). */
  private pendingStores: PendingStore[] | null = null;

  constructor(
    readonly groupId: string,
    private readonly updates: UpdateLog,
    private readonly options: GroupDocOptions,
    private readonly onUnload: (doc: GroupDoc) => void,
  ) {
    this.relay = options.cluster ? new ClusterRelay(this, options.cluster) : null;
    this.compactAfter = options.cluster
      ? Math.round(options.compactAfterUpdates * (1 + Math.random() / 2))
      : options.compactAfterUpdates;
    this.loaded = this.load();
  }

  get isUnloaded(): boolean {
    return this.state === 'unloaded';
  }

  get isReady(): boolean {
    return this.state === 'ready';
  }

  join(peer: DocPeer): void {
    this.peers.add(peer);
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }

  leave(peer: DocPeer): void {
    if (!this.peers.delete(peer)) return;
    this.releasePresence(peer);
    if (this.peers.size === 0) this.scheduleUnload();
  }

  releasePresence(peer: DocPeer): void {
    const owned = this.owned.get(peer);
    this.owned.delete(peer);
    for (const id of owned ?? []) this.owners.delete(id);
    if (owned && owned.size > 0 && this.awareness) {
      // Emits an awareness update, relayed to the remaining peers (and, for a local one, the other
      // nodes) as "these clients left".
      awarenessProtocol.removeAwarenessStates(this.awareness, [...owned], peer);
    }
  }

  /**
   * Appends `update` to the log, then relays it to the other peers (and nodes) and applies it. The append
   * is awaited first so that no peer can receive an update a crash would lose; if it fails, nothing was
   * applied or sent. The caller has already decoded the update (`updateHasContent`).
   *
   * Updates that arrive while the group's previous append is out wait for it together and go into the
   * log as one row (their Yjs merge), one round trip for all of them: a group's appends run one at a
   * time, so at one round trip an update a group of ten typing at 5/s each outgrows a PostgreSQL round
   * trip of 20 ms and its queue grows without end (the 3-node sync bench: p50 14 s before). Each is still
   * relayed apart, past its own sender, so nobody gets their own update back.
   */
  store(from: DocPeer, update: Uint8Array): Promise<void> {
    syncTrace?.mark('received', update);
    const waiting = this.pendingStores;
    if (waiting) return new Promise((resolve, reject) => waiting.push({ from, update, resolve, reject }));
    const batch: PendingStore[] = [];
    this.pendingStores = batch;
    const first = new Promise<void>((resolve, reject) => batch.push({ from, update, resolve, reject }));
    void this.serial(async () => {
      // From here on, arrivals start the next batch (they queue behind this append).
      this.pendingStores = null;
      // Every entry was withdrawn because an earlier append of its senders failed.
      if (batch.length === 0) return;
      try {
        await this.storeBatch(batch);
        for (const entry of batch) entry.resolve();
      } catch (err) {
        for (const entry of batch) entry.reject(err);
        this.withdrawFollowers(batch);
      }
    });
    return first;
  }

  /**
   * A sender's later updates build on the ones that just failed to store: appended without them they
   * would sit unusable in every node's pending structs and be relayed as if stored. So the updates of
   * those senders waiting in the next batch are refused too (their connections are closing, and the
   * client sends them all again when it reconnects); other senders' updates go on.
   */
  private withdrawFollowers(failed: readonly PendingStore[]): void {
    const next = this.pendingStores;
    if (!next) return;
    const senders = new Set(failed.map((entry) => entry.from));
    const refusal = new Error('not stored: an earlier update from the same connection failed to store');
    for (let i = next.length - 1; i >= 0; i--) {
      const entry = next[i]!;
      if (!senders.has(entry.from)) continue;
      next.splice(i, 1);
      entry.reject(refusal);
    }
  }

  private async storeBatch(batch: readonly PendingStore[]): Promise<void> {
    this.readyDoc();
    const row = batch.length === 1 ? batch[0]!.update : Y.mergeUpdates(batch.map((e) => e.update));
    syncTrace?.mark('append-start', row);
    const id = await this.updates.append(this.groupId, row);
    syncTrace?.mark('committed', row);
    // Committed: now the other nodes may have it, whatever becomes of this document.
    this.relay?.stored(id, row);
    if (this.relay) syncTrace?.mark('published', row);
    // Unloaded while the append was out: the update is in the log, and the next load reads it.
    if (this.state !== 'ready' || !this.doc) return;
    this.lastId = id;
    this.rows++;
    for (const entry of batch) this.relayCommitted(entry.update, entry.from);
    syncTrace?.mark('applied', row);
    if (this.rows >= this.compactAfter) this.scheduleCompaction();
  }

  syncStep1(): Uint8Array {
    return syncStep1Message(this.settledDoc());
  }

  /**
   * A request for everything (a new or read-only client's empty state vector) is answered from one
   * encoding until the next update: encoding a large group is the expensive part of a reconnect loop.
   */
  syncStep2(stateVector: Uint8Array): Uint8Array {
    const doc = this.settledDoc();
    if (!wantsWholeState(doc, stateVector)) return syncStep2Message(doc, stateVector);
    this.wholeState ??= syncStep2Message(doc, stateVector);
    return this.wholeState;
  }

  /**
   * Applies the entries of a peer's presence it may send: ids it owns or that nobody owns yet (which
   * it then owns), states within the size limit. Entries for another peer's id are dropped rather than
   * refused with a close: a client whose old socket the server has not yet seen die announces its id
   * again from the new one, and gets it once the old one is gone. Returns the close code when the peer
   * claims more ids than allowed; throws MalformedMessage on a malformed update.
   */
  applyAwareness(from: DocPeer, update: Uint8Array): CloseCode | null {
    this.readyDoc();
    const awareness = this.awareness;
    if (!awareness) return null;
    const maxBytes = this.options.presenceMaxBytes ?? DEFAULT_PRESENCE_MAX_BYTES;
    const maxIds = this.options.presenceIdsPerConnection ?? DEFAULT_PRESENCE_IDS_PER_CONNECTION;
    const accepted: PresenceEntry[] = [];
    for (const entry of readPresenceEntries(update)) {
      const owner = this.owners.get(entry.clientId);
      // An id another node's client holds is that node's too: a client that moved here gets it back once
      // that node says it left, or once that node's heartbeat stops.
      if (owner !== undefined && owner !== from) continue;
      if (entry.json.byteLength > maxBytes) {
        this.warnOversize(from, entry, maxBytes);
        continue;
      }
      checkPresenceJson(entry);
      if (owner !== from) {
        let owned = this.owned.get(from);
        if (!owned) this.owned.set(from, (owned = new Set()));
        if (owned.size >= maxIds) return CLOSE_CODES.presenceRefused;
        owned.add(entry.clientId);
        this.owners.set(entry.clientId, from);
      }
      accepted.push(entry);
    }
    if (accepted.length > 0) {
      awarenessProtocol.applyAwarenessUpdate(awareness, presenceUpdate(accepted), from);
    }
    return null;
  }

  /**
   * Presence another node relayed for its clients: applied for ids nobody else owns, within the size
   * limit, and dropped entry by entry otherwise (a malformed update is dropped whole and logged). An id the
   * node says left is free again, for a client that moved to another node.
   */
  applyRemotePresence(from: RemoteNodePeer, update: Uint8Array): void {
    const awareness = this.awareness;
    if (this.state !== 'ready' || !awareness) return;
    const maxBytes = this.options.presenceMaxBytes ?? DEFAULT_PRESENCE_MAX_BYTES;
    const accepted: PresenceEntry[] = [];
    try {
      for (const entry of readPresenceEntries(update)) {
        const owner = this.owners.get(entry.clientId);
        if (owner !== undefined && owner !== from) continue;
        if (entry.json.byteLength > maxBytes) continue;
        checkPresenceJson(entry);
        if (owner === undefined) {
          let owned = this.owned.get(from);
          if (!owned) this.owned.set(from, (owned = new Set()));
          owned.add(entry.clientId);
          this.owners.set(entry.clientId, from);
        }
        accepted.push(entry);
      }
      if (accepted.length > 0) {
        awarenessProtocol.applyAwarenessUpdate(awareness, presenceUpdate(accepted), from);
      }
      for (const entry of accepted) {
        if (!isLeaving(entry)) continue;
        this.owners.delete(entry.clientId);
        this.owned.get(from)?.delete(entry.clientId);
      }
    } catch (err) {
      this.log(
        `sync: group ${this.groupId}: dropped presence from node ${from.nodeId}: ${errorMessage(err)}`,
      );
    }
  }

  /** The presence states this node's own connections own, as one awareness update. */
  localPresence(): Uint8Array | null {
    const awareness = this.awareness;
    if (!awareness) return null;
    const ids = [...this.owners]
      .filter(([id, owner]) => !(owner instanceof RemoteNodePeer) && awareness.getStates().has(id))
      .map(([id]) => id);
    return ids.length === 0 ? null : awarenessProtocol.encodeAwarenessUpdate(awareness, ids);
  }

  /**
   * An update another node committed: checked, relayed to this node's clients and applied later. A row read
   * back from the log (after a compaction, one that carries much the document holds) is applied first and
   * only what the document lacked is relayed. False, and logged, when Yjs refuses it.
   */
  applyRemoteUpdate(update: Uint8Array, origin: RemoteNodePeer | typeof CATCH_UP_ORIGIN): boolean {
    if (this.state !== 'ready' || !this.doc) return false;
    if (origin !== CATCH_UP_ORIGIN && update.byteLength <= RAW_RELAY_MAX_BYTES) {
      try {
        // What is relayed unapplied must be an update every client's Yjs can read.
        Y.decodeUpdate(update);
      } catch (err) {
        this.log(
          `sync: group ${this.groupId}: could not apply an update from another node: ${errorMessage(err)}`,
        );
        return false;
      }
    }
    if (!this.relayCommitted(update, origin)) return false;
    this.rows++;
    if (this.rows >= this.compactAfter) this.scheduleCompaction();
    return true;
  }

  markCompacted(): void {
    this.rows = 1;
  }

  log(line: string): void {
    this.options.log(line);
  }

  /** Every known presence state as one message, or null when nobody announced any. */
  awarenessSnapshot(): Uint8Array | null {
    const awareness = this.awareness;
    if (!awareness || awareness.getStates().size === 0) return null;
    const clients = [...awareness.getStates().keys()];
    return awarenessMessage(awarenessProtocol.encodeAwarenessUpdate(awareness, clients));
  }

  /** Merges the group's update rows into one. Resolves false when the document is not in memory. */
  async compact(): Promise<boolean> {
    if (this.state !== 'ready' || !this.doc) return false;
    if (this.relay) await this.compactBesideAppends();
    else await this.serial(() => this.compactNow('live'));
    return true;
  }

  /**
   * With other nodes, a live compaction runs beside the group's appends rather than in their chain. It
   * replaces the rows through the last number the document holds without a hole, and its merged state
   * is taken at once from the document, which holds all of them: an append committed meanwhile gets a
   * later number and stays, and the log also merges into the new row every row it deletes. Held in the
   * chain, every update this node's clients sent to the group waited for the compaction's read, merge,
   * delete and insert (110-160 ms in the 3-node bench's trace, at load), which is a delivery's tail.
   * The advisory lock in the log still keeps two nodes from compacting one group at once.
   */
  private compactBesideAppends(): Promise<void> {
    this.compacting ??= this.compactNow('live').finally(() => (this.compacting = null));
    return this.compacting;
  }

  /**
   * Compacts and drops the document from memory; the next connection loads it again (a new GroupDoc:
   * this one is unloaded at once, its compaction finishing behind the appends already queued).
   */
  unload(): Promise<void> {
    if (this.unloading) return this.unloading;
    this.relay?.leave();
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    const wasReady = this.state === 'ready';
    this.state = 'unloaded';
    this.onUnload(this);
    this.unloading = this.serial(async () => {
      // A live compaction still out holds the group's advisory lock: this one would be skipped.
      if (this.compacting) await this.compacting;
      if (wasReady) await this.compactNow('unload');
      this.deferred?.dispose();
      this.deferred = null;
      this.doc?.destroy(); // also destroys the awareness and its timer
      this.doc = null;
      this.awareness = null;
      this.wholeState = null;
    });
    return this.unloading;
  }

  private async compactNow(why: 'live' | 'unload'): Promise<void> {
    const doc = this.doc;
    if (!doc || this.rows <= 1 || this.lastId === null) return;
    // Rows counted while a compaction beside the appends is out stay counted after it.
    const rowsBefore = this.rows;
    try {
      // Built from the document, which holds every row applied so far (pending structs included). On one
      // node no append is out meanwhile (the chain), so every row up to lastId is in it; with other nodes
      // the relay says through which number it holds every row.
      const started = syncTrace ? performance.now() : 0;
      const merged = Y.encodeStateAsUpdate(this.deferred?.settled() ?? doc);
      const cluster = this.options.cluster;
      if (cluster && this.relay) {
        // Through the rows the document holds without a hole; the log merges those it lacks anyway.
        const through = this.relay.heldThrough() ?? this.lastId;
        const seq = await cluster.compactThrough(this.groupId, through, merged);
        // Null: another node is compacting the group right now, which does this node's work too.
        if (seq !== null) this.relay.compacted(seq);
      } else {
        await this.updates.replaceThrough(this.groupId, this.lastId, merged);
      }
      this.rows = Math.max(1, this.rows - rowsBefore + 1);
      // Counted, with their time (an unload's, and on one node every one, holds the group's appends).
      syncTrace?.count(`compactions:${why}`);
      syncTrace?.count(`compaction-ms:${why}=${Math.round(performance.now() - started)}`);
    } catch (err) {
      this.options.log(`sync: compacting group ${this.groupId} failed, its rows stay: ${errorMessage(err)}`);
    }
  }

  private serial<T>(step: () => Promise<T>): Promise<T> {
    const result = this.chain.then(step);
    this.chain = result.then(
      () => {},
      () => {},
    );
    return result;
  }

  private readyDoc(): Y.Doc {
    if (this.state !== 'ready' || !this.doc) {
      throw new Error(`group ${this.groupId} is ${this.state}, not ready`);
    }
    return this.doc;
  }

  /** The document with every update relayed so far applied. */
  private settledDoc(): Y.Doc {
    const doc = this.readyDoc();
    return this.deferred?.settled() ?? doc;
  }

  /**
   * A committed update goes to this node's peers but `origin` (its sender, or the node it came from) as it
   * came, and into the document later (deferred-apply.ts); a large one, or a row read back from the log,
   * is applied first and relayed as what it added. False when Yjs refused it.
   */
  private relayCommitted(update: Uint8Array, origin: unknown): boolean {
    const deferred = this.deferred;
    if (!deferred) return false;
    this.wholeState = null;
    if (origin !== CATCH_UP_ORIGIN && update.byteLength <= RAW_RELAY_MAX_BYTES) {
      this.sendToPeers(updateMessage(update), origin);
      if (origin instanceof RemoteNodePeer) syncTrace?.mark('fanned-out', update);
      deferred.defer(update);
      return true;
    }
    const applied = deferred.applyNow(update, origin, (added) => {
      if (origin === CATCH_UP_ORIGIN) syncTrace?.mark('fanned-out-catch-up', added);
      else if (origin instanceof RemoteNodePeer) syncTrace?.mark('fanned-out', added);
      this.sendToPeers(updateMessage(added), origin);
    });
    if (syncTrace && deferred.doc.store.pendingStructs) syncTrace.mark('pending', update);
    return applied;
  }

  private sendToPeers(message: Uint8Array, except: unknown): void {
    for (const peer of this.peers) if (peer !== except) peer.send(message);
  }

  /** Connections queue what arrives meanwhile and answer nothing until this settles. */
  private async load(): Promise<boolean> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (this.state !== 'loading') return false;
    let rows: StoredUpdate[];
    try {
      // Subscribed first: whatever another node commits after the rows are read reaches the relay.
      if (this.relay) await this.relay.join();
      rows = await this.updates.load(this.groupId);
    } catch (err) {
      this.options.log(`sync: loading group ${this.groupId} failed: ${errorMessage(err)}`);
      this.state = 'failed'; // each connection sees `loaded` settle false and closes with serverError
      void this.unload();
      return false;
    }
    if (this.state !== 'loading') return false; // unloaded while the rows were read
    const doc = this.docFrom(rows);
    this.attach(doc);
    this.rows = rows.length;
    this.lastId = rows.at(-1)?.id ?? null;
    this.state = 'ready';
    // Row numbers commit in order, so the rows read are every row up to the last of them.
    this.relay?.loaded(this.lastId ?? 0);
    if (this.rows >= this.compactAfter) this.scheduleCompaction();
    if (this.peers.size === 0) this.scheduleUnload();
    return true;
  }

  /**
   * Row by row (measured four times faster than one transaction over 10k small rows), skipping and
   * logging a row Yjs cannot apply, so that one bad row cannot lock a group out.
   */
  private docFrom(rows: StoredUpdate[]): Y.Doc {
    const doc = new Y.Doc({ gc: true });
    for (const row of rows) {
      try {
        Y.applyUpdate(doc, row.data);
      } catch (err) {
        this.options.log(
          `sync: skipped stored update ${row.id} of group ${this.groupId}: ${errorMessage(err)}`,
        );
      }
    }
    return doc;
  }

  private attach(doc: Y.Doc): void {
    const awareness = new awarenessProtocol.Awareness(doc);
    awareness.setLocalState(null); // the server is not a member: it has no presence of its own
    awareness.on('update', (change: AwarenessChange, origin: unknown) => {
      const changed = [...change.added, ...change.updated, ...change.removed];
      const update = awarenessProtocol.encodeAwarenessUpdate(awareness, changed);
      const message = awarenessMessage(update);
      for (const other of this.peers) if (other !== origin) other.send(message);
      // This node's clients' presence goes to the other nodes; what they relayed is theirs to send.
      if (!(origin instanceof RemoteNodePeer)) this.options.cluster?.publishPresence(this.groupId, update);
    });
    this.doc = doc;
    this.deferred = new DeferredDoc(doc, (line) => this.log(`sync: group ${this.groupId}: ${line}`));
    this.awareness = awareness;
  }

  private warnOversize(from: DocPeer, entry: PresenceEntry, maxBytes: number): void {
    if (this.warnedOversize.has(from)) return;
    this.warnedOversize.add(from);
    this.options.log(
      `sync: group ${this.groupId}: dropped a presence state of ${entry.json.byteLength} bytes from client ` +
        `${entry.clientId} (limit ${maxBytes}, QUIRE_SYNC_PRESENCE_BYTES)`,
    );
  }

  private scheduleCompaction(): void {
    if (this.compactQueued) return;
    this.compactQueued = true;
    // After the current message is answered, not inside it.
    setImmediate(() => {
      this.compactQueued = false;
      void this.compact();
    });
  }

  private scheduleUnload(): void {
    if (this.idleTimer || this.state === 'unloaded') return;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (this.peers.size === 0 && this.state !== 'loading') void this.unload();
    }, this.options.idleUnloadMs);
    this.idleTimer.unref();
  }
}

/** An awareness entry whose state is JSON null: "this client left". */
function isLeaving(entry: PresenceEntry): boolean {
  return entry.json.byteLength === 4 && String.fromCharCode(...entry.json) === 'null';
}

interface AwarenessChange {
  added: number[];
  updated: number[];
  removed: number[];
}
