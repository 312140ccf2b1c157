import { describe, expect, it } from 'vitest';
import { addComment } from './comments.ts';
import { GROUP_ORIGIN } from './group-doc.ts';
import { joinGroup } from './members.ts';
import { noteText } from './notes.ts';
import { observeGroup, type GroupChange } from './observe.ts';
import { saveFromInbox } from './inbox.ts';
import { at, newDoc, pair, paper, sync } from './test-helpers.ts';

describe('observing parts of the document', () => {
  it('calls back once per transaction that touched the part, telling local from remote', () => {
    const [a, b] = pair();
    const queueChanges: GroupChange[] = [];
    const memberChanges: GroupChange[] = [];
    observeGroup(b, ['queue'], (change) => queueChanges.push(change));
    observeGroup(b, ['members'], (change) => memberChanges.push(change));
    saveFromInbox(b, paper('2603.01234'), 'bob', at('2026-03-10T09:00:00Z'));
    expect(queueChanges).toEqual([{ origin: GROUP_ORIGIN, local: true }]);
    saveFromInbox(a, paper('2603.04321'), 'ada', at('2026-03-10T09:00:00Z'));
    sync(a, b);
    expect(queueChanges).toHaveLength(2);
    expect(queueChanges[1]?.local).toBe(false);
    expect(memberChanges).toEqual([]);
  });

  it('watches one paper’s notes and comments, and stops when unsubscribed', () => {
    const doc = newDoc();
    let calls = 0;
    const stop = observeGroup(doc, [{ notes: '2603.01234' }, { comments: '2603.01234' }], () => (calls += 1));
    noteText(doc, '2603.01234').insert(0, 'hello');
    noteText(doc, '2603.09999').insert(0, 'elsewhere');
    addComment(doc, '2603.01234', { id: 'c1', text: 'hi' }, 'ada', at('2026-03-10T09:00:00Z'));
    expect(calls).toBe(2);
    stop();
    joinGroup(doc, { id: 'ada', name: 'Ada', colour: '#4363d8' }, at('2026-03-10T09:00:00Z'));
    noteText(doc, '2603.01234').insert(0, 'again');
    expect(calls).toBe(2);
  });
});
