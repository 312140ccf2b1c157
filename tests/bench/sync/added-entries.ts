import * as Y from 'yjs';

/**
 * The entries a transaction added to `array`, each with its Yjs id, read from the document's struct store
 * by the clocks the transaction advanced (its state vectors before and after): the cost follows what
 * arrived. YEvent.changes, which the load clients read before, walks the whole array for every event; at
 * some 1,500 entries a group by the end of a run and 4,500 events a second per load thread, that walk was
 * a third of a load thread's time in a CPU profile of the 3-node bench, whose client threads were then
 * busy enough that deliveries waited for them (event-loop delays of 200-700 ms): the bench measured itself.
 */
export function forEachAddedEntry<T>(
  transaction: Y.Transaction,
  array: Y.Array<T>,
  visit: (entry: T, client: number, clock: number) => void,
): void {
  const clients = transaction.doc.store.clients;
  for (const [client, after] of transaction.afterState) {
    const before = transaction.beforeState.get(client) ?? 0;
    if (after <= before) continue;
    const structs = clients.get(client);
    if (!structs) continue;
    for (let i = Y.findIndexSS(structs, before); i < structs.length; i++) {
      const struct = structs[i]!;
      if (struct.id.clock >= after) break;
      if (!(struct instanceof Y.Item) || struct.deleted || struct.parent !== array) continue;
      const content = struct.content.getContent() as T[];
      // A struct merged with older ones of its client starts before what this transaction added.
      for (let k = Math.max(0, before - struct.id.clock); k < content.length; k++) {
        visit(content[k]!, client, struct.id.clock + k);
      }
    }
  }
}
