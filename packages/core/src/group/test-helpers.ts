/** Shared by the group tests: peers that sync by exchanging Yjs updates, and sample papers. */
import * as Y from 'yjs';
import type { PaperSnapshot } from './paper-snapshot.ts';

export { codeOf } from '../momentum/test-helpers.ts';

export function newDoc(): Y.Doc {
  return new Y.Doc();
}

/** Fresh documents, each standing for one member's device. */
export function pair(): [Y.Doc, Y.Doc] {
  return [new Y.Doc(), new Y.Doc()];
}

export function trio(): [Y.Doc, Y.Doc, Y.Doc] {
  return [new Y.Doc(), new Y.Doc(), new Y.Doc()];
}

/** Brings every document up to date with every other, as a sync server would after a reconnect. */
export function sync(...docs: Y.Doc[]): void {
  const updates = docs.map((doc) => Y.encodeStateAsUpdate(doc));
  for (const doc of docs) for (const update of updates) Y.applyUpdate(doc, update);
}

export function at(iso: string): Date {
  return new Date(iso);
}

export function paper(id: string, overrides: Partial<PaperSnapshot> = {}): PaperSnapshot {
  return {
    id,
    version: 1,
    title: `Paper ${id}`,
    authors: ['Ada Lovelace', 'Alan Turing'],
    abstract: `The abstract of ${id}.`,
    links: { abs: `https://arxiv.org/abs/${id}`, pdf: `https://arxiv.org/pdf/${id}` },
    primaryCategory: 'cs.LG',
    categories: ['cs.LG'],
    listingDate: '2026-03-10',
    tags: [{ slug: 'reinforcement-learning', name: 'Reinforcement Learning' }],
    codeLinks: [],
    ...overrides,
  };
}
