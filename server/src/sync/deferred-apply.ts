import * as Y from 'yjs';
import { errorMessage } from '../errors.ts';

/**
 * Past this size a committed update is applied at once and only what the document lacked is relayed: a
 * client's sync step 2 after a reconnect can resend a whole group (megabytes) that every other client
 * already holds. Typing is tens of bytes an update.
 */
export const RAW_RELAY_MAX_BYTES = 4096;
/** Deferred updates are applied after this many, or this long after the first of them. */
const SETTLE_AFTER_UPDATES = 128;
const SETTLE_AFTER_MS = 200;

/**
 * A group's Y.Doc behind committed updates that were relayed to the clients as they came and are applied
 * later, many in one transaction. The document is read only to answer a joining client's sync steps, to
 * compact and to unload; relaying an update does not need it, since a client's Yjs merges updates in any
 * order and ignores what it already holds. Applied one by one, each update also cost Yjs's transaction
 * cleanup and the encoding of the update event the fan-out was hung on, on every node holding the group
 * (three times per edit on three nodes).
 */
export class DeferredDoc {
  private backlog: Uint8Array[] = [];
  private timer: NodeJS.Timeout | null = null;

  constructor(
    readonly doc: Y.Doc,
    private readonly log: (line: string) => void,
  ) {}

  /** Updates relayed but not yet in the document. */
  get deferred(): number {
    return this.backlog.length;
  }

  /** `update` is committed and relayed: it goes into the document with the next settle. */
  defer(update: Uint8Array): void {
    this.backlog.push(update);
    if (this.backlog.length >= SETTLE_AFTER_UPDATES) this.settle();
    else if (!this.timer) {
      this.timer = setTimeout(() => {
        this.timer = null;
        this.settle();
      }, SETTLE_AFTER_MS);
      this.timer.unref();
    }
  }

  /** The document with every deferred update applied. */
  settled(): Y.Doc {
    this.settle();
    return this.doc;
  }

  /**
   * Applies the deferred updates first, then `update`, and hands `relay` what it added to the document
   * (nothing when it held all of it). False, and logged, when Yjs refuses it.
   */
  applyNow(update: Uint8Array, origin: unknown, relay: (added: Uint8Array) => void): boolean {
    this.settle();
    const onUpdate = (added: Uint8Array): void => relay(added);
    this.doc.on('update', onUpdate);
    try {
      Y.applyUpdate(this.doc, update, origin);
      return true;
    } catch (err) {
      this.log(`could not apply a committed update: ${errorMessage(err)}`);
      return false;
    } finally {
      this.doc.off('update', onUpdate);
    }
  }

  /** Drops the timer; what is still deferred is lost with the document. */
  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.backlog = [];
  }

  private settle(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.backlog.length === 0) return;
    const updates = this.backlog;
    this.backlog = [];
    // One transaction: Yjs's cleanup (merging structs, collecting deleted content) runs once for all.
    Y.transact(this.doc, () => {
      for (const update of updates) {
        try {
          Y.applyUpdate(this.doc, update);
        } catch (err) {
          // Checked before it was stored or relayed (Y.decodeUpdate), so this is not expected.
          this.log(`could not apply a committed update: ${errorMessage(err)}`);
        }
      }
    });
  }
}
