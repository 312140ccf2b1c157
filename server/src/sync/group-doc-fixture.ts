import type { CloseCode } from '@quire/core';
import { GroupDoc, type DocPeer } from './group-doc.ts';
import type { UpdateLog } from '../store/update-log-store.ts';
import type { DocCluster } from './doc-cluster.ts';

/** A client as GroupDoc sees it, recording what it is sent and how it was closed (for tests). */
export class RecordingPeer implements DocPeer {
  sent: Uint8Array[] = [];
  closedWith: CloseCode | null = null;
  private onSend: (() => void) | null = null;
  send(message: Uint8Array): void {
    this.sent.push(message);
    this.onSend?.();
  }
  close(code: CloseCode): void {
    this.closedWith = code;
  }
  /** Resolves at the next message sent to this peer. */
  nextMessage(): Promise<void> {
    return new Promise((resolve) => (this.onSend = resolve));
  }
}

/** A group's document over `updates`, loaded, logging into `logged` and kept in `docs` for unloading. */
export async function loadedGroupDoc(
  groupId: string,
  updates: UpdateLog,
  into: { logged: string[]; docs: GroupDoc[] },
  cluster?: DocCluster,
): Promise<GroupDoc> {
  const doc = new GroupDoc(
    groupId,
    updates,
    {
      compactAfterUpdates: 1000,
      idleUnloadMs: 60_000,
      log: (line) => into.logged.push(line),
      ...(cluster ? { cluster } : {}),
    },
    () => {},
  );
  into.docs.push(doc);
  if (!(await doc.loaded)) throw new Error(`group ${groupId} did not load`);
  return doc;
}
