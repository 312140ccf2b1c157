import * as Y from 'yjs';
import { describe, expect, it } from 'vitest';
import { commentThreads } from './comments.ts';
import { listCustomTopics } from './custom-topics.ts';
import { customTopicsTaxonomy } from './custom-topic-tagging.ts';
import { exportBibtex } from './export-bibtex.ts';
import { exportMarkdown } from './export-markdown.ts';
import { listFollowedTopics } from './followed-topics.ts';
import { groupSchemaVersion, ROOT } from './group-doc.ts';
import { inboxFor, listTriage } from './inbox.ts';
import { listMembers } from './members.ts';
import { pickHistory } from './pick-history.ts';
import { listQueue, saveToQueue } from './queue.ts';
import { sortQueue } from './queue-sort.ts';
import { at, newDoc, paper, sync } from './test-helpers.ts';
import { weekTally } from './weekly-pick.ts';

const JUNK: unknown[] = [
  null,
  0,
  -1,
  'x',
  '',
  true,
  [],
  [1, 'a'],
  {},
  { by: 5 },
  { at: '2026-13-45T99:00:00Z' },
];

function readEverything(doc: Y.Doc): unknown[] {
  const queue = listQueue(doc);
  return [
    groupSchemaVersion(doc),
    listMembers(doc),
    listFollowedTopics(doc),
    customTopicsTaxonomy(listCustomTopics(doc)),
    listTriage(doc),
    inboxFor(doc, [{ id: '2603.01234', listingDate: '2026-03-10', topics: ['x'] }], 'ada'),
    sortQueue(queue, 'status'),
    commentThreads(doc, '2603.01234'),
    weekTally(doc, '2026-03-16'),
    pickHistory(doc),
    exportBibtex(queue),
    exportMarkdown(doc),
  ];
}

describe('a document a peer filled with garbage', () => {
  it('reads without throwing and skips every malformed entry', () => {
    const evil = newDoc();
    evil.transact(() => {
      for (const name of Object.values(ROOT)) {
        const map = evil.getMap(name);
        JUNK.forEach((value, i) => {
          map.set(`k${i}`, value);
          map.set(`2603.01234|${i}`, value);
          map.set(`2026-03-16|2603.01234|${i}`, value);
          map.set(`2026-03-16|pick`, value);
          map.set('2603.01234', value);
          map.set('schemaVersion', value);
        });
      }
      JUNK.forEach((value, i) => evil.getMap('comments:2603.01234').set(`c${i}`, value));
      evil.getArray('note:2603.01234').push([1, 2, 3]);
    });
    const doc = newDoc();
    sync(evil, doc);
    expect(() => readEverything(doc)).not.toThrow();
    expect(listQueue(doc)).toEqual([]);
    expect(listMembers(doc)).toEqual([]);
    expect(pickHistory(doc)).toEqual([]);
    expect(commentThreads(doc, '2603.01234')).toEqual([]);
  });

  it('reads roots a peer created with another shared type', () => {
    const evil = newDoc();
    evil.getArray(ROOT.members).push([{ name: 'Eve' }]);
    evil.getText(ROOT.queue).insert(0, 'not a map');
    const doc = newDoc();
    sync(evil, doc);
    expect(listMembers(doc)).toEqual([]);
    expect(listQueue(doc)).toEqual([]);
    saveToQueue(doc, paper('2603.01234'), 'ada', at('2026-03-10T09:00:00Z'));
    expect(listQueue(doc).map((i) => i.paper.id)).toEqual(['2603.01234']);
  });
});
