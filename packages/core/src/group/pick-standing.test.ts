import type * as Y from 'yjs';
import { describe, expect, it } from 'vitest';
import { closeWeek } from './pick-history.ts';
import { inNominationOrder, pickStanding, weekPhase } from './pick-standing.ts';
import { saveToQueue } from './queue.ts';
import { at, newDoc, paper } from './test-helpers.ts';
import { castVote, nominate, setPickDeadline, weekTally } from './weekly-pick.ts';

const W = '2026-03-16';
const A = '2603.00001';
const B = '2603.00002';
const C = '2603.00003';

/** C, A, B nominated in that order. */
function weekDoc(): Y.Doc {
  const doc = newDoc();
  for (const id of [A, B, C]) saveToQueue(doc, paper(id), 'ada', at('2026-03-15T09:00:00Z'));
  nominate(doc, W, C, 'ada', at('2026-03-16T09:00:00Z'));
  nominate(doc, W, A, 'bob', at('2026-03-16T09:10:00Z'));
  nominate(doc, W, B, 'cy', at('2026-03-16T09:20:00Z'));
  return doc;
}

const vote = (doc: Y.Doc, member: string, paperId: string) =>
  castVote(doc, W, paperId, member, at('2026-03-17T10:00:00Z'));

describe('where the vote stands', () => {
  it('says nobody has voted rather than naming a leader with no votes', () => {
    const standing = pickStanding(weekTally(weekDoc(), W));
    expect(standing).toMatchObject({
      kind: 'no-votes',
      winner: C,
      approvals: 0,
      tieBreak: 'nominated-first',
    });
    expect(standing.tied.map((c) => c.paperId)).toEqual([C, A, B]);
    expect(pickStanding(weekTally(newDoc(), W)).kind).toBe('no-candidates');
  });

  it('shows a tie with the tie-break that decides it, and a leader alone', () => {
    const doc = weekDoc();
    vote(doc, 'ada', B);
    vote(doc, 'bob', A);
    expect(pickStanding(weekTally(doc, W))).toMatchObject({
      kind: 'tie',
      winner: A,
      approvals: 1,
      tieBreak: 'nominated-first',
    });
    expect(pickStanding(weekTally(doc, W)).tied.map((c) => c.paperId)).toEqual([A, B]);
    vote(doc, 'cy', B);
    expect(pickStanding(weekTally(doc, W))).toMatchObject({ kind: 'leader', winner: B, tieBreak: null });
  });

  it('falls back to the arXiv id when two were nominated at the same instant', () => {
    const doc = newDoc();
    for (const id of [A, B]) saveToQueue(doc, paper(id), 'ada', at('2026-03-15T09:00:00Z'));
    nominate(doc, W, B, 'ada', at('2026-03-16T09:00:00Z'));
    nominate(doc, W, A, 'bob', at('2026-03-16T09:00:00Z'));
    expect(pickStanding(weekTally(doc, W))).toMatchObject({ winner: A, tieBreak: 'smaller-id' });
  });

  it('keeps the nomination order for the list, however the votes go', () => {
    const doc = weekDoc();
    vote(doc, 'ada', B);
    vote(doc, 'bob', B);
    vote(doc, 'cy', A);
    const tally = weekTally(doc, W);
    expect(tally.candidates.map((c) => c.paperId)).toEqual([B, A, C]);
    expect(inNominationOrder(tally.candidates).map((c) => c.paperId)).toEqual([C, A, B]);
  });

  it('is open until the deadline, ended after it, closed once recorded', () => {
    const doc = weekDoc();
    expect(weekPhase(weekTally(doc, W), at('2030-01-01T00:00:00Z'))).toBe('open');
    setPickDeadline(doc, W, '2026-03-19T18:00:00Z');
    expect(weekPhase(weekTally(doc, W), at('2026-03-19T18:00:00Z'))).toBe('open');
    expect(weekPhase(weekTally(doc, W), at('2026-03-19T18:00:01Z'))).toBe('ended');
    closeWeek(doc, W, 'ada', at('2026-03-19T19:00:00Z'));
    expect(weekPhase(weekTally(doc, W), at('2026-03-19T18:00:01Z'))).toBe('closed');
  });
});
