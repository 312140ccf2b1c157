import * as Y from 'yjs';
import { describe, expect, it } from 'vitest';
import { forEachAddedEntry } from '../bench/sync/added-entries.ts';

/*
 * The sync bench's clients read what each remote transaction added to the edits array from the struct
 * store (tests/bench/sync/added-entries.ts) instead of Yjs's delta, which walks the whole array. The two
 * must name the same entries, or the bench would count deliveries it never had.
 */

type Entry = [number, number];

function peer(): { doc: Y.Doc; edits: Y.Array<Entry> } {
  const doc = new Y.Doc();
  return { doc, edits: doc.getArray<Entry>('edits') };
}

/** What one observer sees of a remote update: by the store and by Yjs's delta. */
function seen(receiver: ReturnType<typeof peer>, update: Uint8Array) {
  const byStore: [Entry, number, number][] = [];
  let byDelta: Entry[] = [];
  const observer = (event: Y.YArrayEvent<Entry>) => {
    forEachAddedEntry(event.transaction, receiver.edits, (entry, client, clock) =>
      byStore.push([entry, client, clock]),
    );
    byDelta = event.changes.delta.flatMap((d) => (d.insert as Entry[] | undefined) ?? []);
  };
  receiver.edits.observe(observer);
  Y.applyUpdate(receiver.doc, update, 'remote');
  receiver.edits.unobserve(observer);
  return { byStore, byDelta };
}

describe('the sync bench reading the entries a remote update added', () => {
  it('names the entries Yjs’s delta names, with each one’s id, for interleaved writers', () => {
    const a = peer();
    const b = peer();
    const c = peer();
    const receiver = peer();
    // a and b write, see each other, write again: the receiver gets it all in one update.
    a.edits.push([[1, 1]]);
    Y.applyUpdate(b.doc, Y.encodeStateAsUpdate(a.doc));
    b.edits.push([[2, 1]]);
    Y.applyUpdate(a.doc, Y.encodeStateAsUpdate(b.doc));
    a.edits.push([
      [1, 2],
      [1, 3],
    ]);
    const first = seen(receiver, Y.encodeStateAsUpdate(a.doc));
    expect(first.byStore.map(([e]) => e).sort()).toEqual([...first.byDelta].sort());
    expect(first.byStore).toHaveLength(4);
    expect(first.byStore.find(([e]) => e[0] === 1 && e[1] === 3)?.slice(1)).toEqual([a.doc.clientID, 2]);

    // Then only what is new: c's edit after everything, and a's next one, leave the old entries out.
    Y.applyUpdate(c.doc, Y.encodeStateAsUpdate(a.doc));
    c.edits.push([[3, 1]]);
    const before = Y.encodeStateVector(receiver.doc);
    a.edits.push([[1, 4]]);
    const update = Y.mergeUpdates([
      Y.encodeStateAsUpdate(c.doc, before),
      Y.encodeStateAsUpdate(a.doc, before),
    ]);
    const second = seen(receiver, update);
    expect(second.byStore.map(([e]) => e).sort()).toEqual([
      [1, 4],
      [3, 1],
    ]);
    expect([...second.byDelta].sort()).toEqual([
      [1, 4],
      [3, 1],
    ]);
  });

  it('leaves out entries of other types and entries deleted in the same update', () => {
    const writer = peer();
    const receiver = peer();
    writer.doc.getArray<Entry>('other').push([[9, 9]]);
    writer.edits.push([
      [1, 1],
      [1, 2],
    ]);
    writer.edits.delete(0, 1);
    const { byStore, byDelta } = seen(receiver, Y.encodeStateAsUpdate(writer.doc));
    expect(byStore.map(([e]) => e)).toEqual([[1, 2]]);
    expect(byDelta).toEqual([[1, 2]]);
  });
});
