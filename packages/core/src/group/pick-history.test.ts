import type * as Y from 'yjs';
import { describe, expect, it } from 'vitest';
import { ROOT } from './group-doc.ts';
import {
  closeWeek,
  markDiscussed,
  pickHistory,
  pickOf,
  recordDeadlinePick,
  reopenWeek,
} from './pick-history.ts';
import { getQueueItem, saveToQueue, setQueueStatus } from './queue.ts';
import { at, codeOf, newDoc, pair, paper, sync } from './test-helpers.ts';
import { recordLatestVersion } from './version-change.ts';
import { castVote, nominate, setPickDeadline, weekTally } from './weekly-pick.ts';

const W1 = '2026-03-09';
const W2 = '2026-03-16';
const A = '2603.00001';
const B = '2603.00002';

function groupDoc(): Y.Doc {
  const doc = newDoc();
  saveToQueue(doc, paper(A, { title: 'Paper A', version: 1 }), 'ada', at('2026-03-08T09:00:00Z'));
  saveToQueue(doc, paper(B, { title: 'Paper B' }), 'bob', at('2026-03-08T09:00:00Z'));
  for (const week of [W1, W2]) {
    nominate(doc, week, A, 'ada', at(`${week}T09:00:00Z`));
    nominate(doc, week, B, 'bob', at(`${week}T09:05:00Z`));
  }
  return doc;
}

describe('closing a week and the history', () => {
  it('records the winner, starts reading it and then refuses votes', () => {
    const doc = groupDoc();
    castVote(doc, W2, B, 'ada', at('2026-03-17T09:00:00Z'));
    castVote(doc, W2, B, 'cy', at('2026-03-17T09:00:00Z'));
    castVote(doc, W2, A, 'bob', at('2026-03-17T09:00:00Z'));
    const pick = closeWeek(doc, W2, 'ada', at('2026-03-20T18:00:00Z'));
    const expected = {
      week: W2,
      paperId: B,
      title: 'Paper B',
      approvals: 2,
      closedBy: 'ada',
      closedAt: '2026-03-20T18:00:00.000Z',
      atDeadline: false,
      discussedBy: null,
      discussedAt: null,
    };
    expect(pick).toEqual(expected);
    expect(pickOf(doc, W2)).toEqual(expected);
    expect(weekTally(doc, W2).closed).toMatchObject({ paperId: B });
    expect(getQueueItem(doc, B)).toMatchObject({ status: 'reading', statusBy: 'ada' });
    expect(codeOf(() => castVote(doc, W2, A, 'dan', at('2026-03-20T19:00:00Z')))).toBe('invalid-input');
    expect(codeOf(() => closeWeek(doc, W2, 'bob', at('2026-03-20T19:00:00Z')))).toBe('invalid-input');
  });

  it('does not close a week without candidates, nor move a paper already being discussed', () => {
    const doc = groupDoc();
    expect(codeOf(() => closeWeek(doc, '2026-03-23', 'ada', at('2026-03-27T18:00:00Z')))).toBe(
      'invalid-input',
    );
    setQueueStatus(doc, A, 'archived', 'ada', at('2026-03-10T09:00:00Z'));
    closeWeek(doc, W1, 'ada', at('2026-03-13T18:00:00Z'));
    expect(pickOf(doc, W1)?.paperId).toBe(A);
    expect(getQueueItem(doc, A)?.status).toBe('archived');
  });

  it('marks the pick discussed: history, queue status and the version discussed', () => {
    const doc = groupDoc();
    closeWeek(doc, W1, 'ada', at('2026-03-13T18:00:00Z'));
    recordLatestVersion(doc, A, 2, at('2026-03-14T09:00:00Z'));
    const record = markDiscussed(doc, W1, 'bob', at('2026-03-15T17:00:00Z'));
    expect(record).toMatchObject({ paperId: A, discussedBy: 'bob', discussedAt: '2026-03-15T17:00:00.000Z' });
    expect(getQueueItem(doc, A)).toMatchObject({
      status: 'discussed',
      statusBy: 'bob',
      versions: { savedVersion: 1, discussedVersion: 2, hasNewerVersion: false },
    });
    expect(codeOf(() => markDiscussed(doc, W2, 'bob', at('2026-03-22T17:00:00Z')))).toBe('invalid-input');
  });

  it('lists past picks newest week first, and reopening a week removes its pick', () => {
    const doc = groupDoc();
    closeWeek(doc, W1, 'ada', at('2026-03-13T18:00:00Z'));
    castVote(doc, W2, B, 'ada', at('2026-03-17T09:00:00Z'));
    closeWeek(doc, W2, 'ada', at('2026-03-20T18:00:00Z'));
    markDiscussed(doc, W1, 'bob', at('2026-03-15T17:00:00Z'));
    expect(pickHistory(doc).map((p) => [p.week, p.paperId, p.discussedBy])).toEqual([
      [W2, B, null],
      [W1, A, 'bob'],
    ]);
    expect(reopenWeek(doc, W2)).toBe(true);
    expect(reopenWeek(doc, W2)).toBe(false);
    expect(pickHistory(doc).map((p) => p.week)).toEqual([W1]);
    castVote(doc, W2, A, 'bob', at('2026-03-20T19:00:00Z'));
  });

  it('a pick closed on one device and discussed on another merges into one history entry', () => {
    const [a, b] = pair();
    const base = groupDoc();
    sync(base, a, b);
    closeWeek(a, W1, 'ada', at('2026-03-13T18:00:00Z'));
    sync(a, b);
    markDiscussed(b, W1, 'bob', at('2026-03-15T17:00:00Z'));
    setQueueStatus(a, B, 'reading', 'ada', at('2026-03-15T17:30:00Z'));
    sync(a, b);
    expect(pickHistory(a)).toEqual(pickHistory(b));
    expect(pickHistory(a)[0]).toMatchObject({ paperId: A, closedBy: 'ada', discussedBy: 'bob' });
  });

  it('skips history entries a peer wrote malformed', () => {
    const doc = groupDoc();
    doc
      .getMap(ROOT.pickWeeks)
      .set('2026-03-02|pick', { paperId: 'nope', by: 'eve', at: '2026-03-06T18:00:00Z' });
    doc.getMap(ROOT.pickWeeks).set('2026-02-23|pick', 'winner');
    doc.getMap(ROOT.pickWeeks).set('2026-02-16|pick', { paperId: A, by: 'eve', at: '2026-02-20T18:00:00Z' });
    expect(pickHistory(doc).map((p) => [p.week, p.title, p.approvals])).toEqual([['2026-02-16', A, 0]]);
  });
});

describe('closing by itself at the deadline', () => {
  it('is recorded once, with the votes cast by the deadline, whoever records it', () => {
    const [ada, bob] = pair();
    const doc = groupDoc();
    sync(doc, ada, bob);
    setPickDeadline(ada, W2, '2026-03-19T18:00:00Z');
    castVote(ada, W2, A, 'ada', at('2026-03-18T09:00:00Z'));
    castVote(bob, W2, B, 'bob', at('2026-03-18T09:00:00Z'));
    sync(ada, bob);
    // Before the deadline nothing is recorded.
    expect(recordDeadlinePick(ada, W2, 'ada', at('2026-03-19T17:59:00Z'))).toBeNull();
    // Both apps see it pass and record at once, offline from each other: A and B tie, A was nominated first.
    const fromAda = recordDeadlinePick(ada, W2, 'ada', at('2026-03-19T18:00:01Z'));
    const fromBob = recordDeadlinePick(bob, W2, 'bob', at('2026-03-19T18:03:00Z'));
    expect(fromAda).toMatchObject({ paperId: A, atDeadline: true, closedAt: '2026-03-19T18:00:00.000Z' });
    expect(fromBob).toMatchObject({ paperId: A, atDeadline: true, closedAt: '2026-03-19T18:00:00.000Z' });
    sync(ada, bob);
    expect(pickOf(ada, W2)).toEqual(pickOf(bob, W2));
    expect(recordDeadlinePick(ada, W2, 'ada', at('2026-03-19T19:00:00Z'))).toBeNull();
    expect(getQueueItem(bob, A)?.status).toBe('reading');
  });

  it('leaves out a vote stamped after the deadline (a device with a wrong clock)', () => {
    const doc = groupDoc();
    castVote(doc, W2, A, 'ada', at('2026-03-18T09:00:00Z'));
    // Cast while no deadline was set, stamped after the one set later.
    castVote(doc, W2, B, 'bob', at('2026-03-19T20:00:00Z'));
    castVote(doc, W2, B, 'cy', at('2026-03-19T20:00:00Z'));
    setPickDeadline(doc, W2, '2026-03-19T18:00:00Z');
    expect(recordDeadlinePick(doc, W2, 'ada', at('2026-03-20T09:00:00Z'))).toMatchObject({
      paperId: A,
      approvals: 1,
    });
  });

  it('records nothing for a week without candidates', () => {
    const doc = newDoc();
    setPickDeadline(doc, W2, '2026-03-19T18:00:00Z');
    expect(recordDeadlinePick(doc, W2, 'ada', at('2026-03-20T09:00:00Z'))).toBeNull();
    expect(pickHistory(doc)).toEqual([]);
  });
});
