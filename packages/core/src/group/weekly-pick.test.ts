import type * as Y from 'yjs';
import { describe, expect, it } from 'vitest';
import { ROOT } from './group-doc.ts';
import { removeFromQueue, saveToQueue } from './queue.ts';
import { at, codeOf, newDoc, pair, paper, sync, trio } from './test-helpers.ts';
import {
  castVote,
  compareCandidates,
  nominate,
  pickDeadline,
  retractVote,
  setPickDeadline,
  setVotesPerMember,
  votesOf,
  votesPerMember,
  weekKeyOf,
  weekTally,
  withdrawNomination,
  type Candidate,
} from './weekly-pick.ts';

const W = '2026-03-16';
const A = '2603.00001';
const B = '2603.00002';
const C = '2603.00003';
const D = '2603.00004';

/** A queue of A–D; A, B, C nominated in that order on Monday morning. */
function weekDoc(doc: Y.Doc = newDoc()): Y.Doc {
  for (const id of [A, B, C, D]) saveToQueue(doc, paper(id), 'ada', at('2026-03-15T09:00:00Z'));
  nominate(doc, W, A, 'ada', at('2026-03-16T09:00:00Z'));
  nominate(doc, W, B, 'bob', at('2026-03-16T09:10:00Z'));
  nominate(doc, W, C, 'cy', at('2026-03-16T09:20:00Z'));
  return doc;
}

const vote = (doc: Y.Doc, member: string, paperId: string, time = '2026-03-17T10:00:00Z') =>
  castVote(doc, W, paperId, member, at(time));

describe('week keys', () => {
  it('names a week by its Monday in UTC', () => {
    expect(weekKeyOf(at('2026-03-15T23:59:59Z'))).toBe('2026-03-09');
    expect(weekKeyOf(at('2026-03-16T00:00:00Z'))).toBe('2026-03-16');
    expect(weekKeyOf(at('2026-03-22T23:00:00-05:00'))).toBe('2026-03-23');
    expect(codeOf(() => weekKeyOf(at('never')))).toBe('invalid-input');
  });

  it('refuses a week key that is not a Monday', () => {
    const doc = weekDoc();
    expect(codeOf(() => nominate(doc, '2026-03-17', D, 'ada', at('2026-03-17T09:00:00Z')))).toBe(
      'invalid-input',
    );
    expect(codeOf(() => weekTally(doc, '16 March'))).toBe('invalid-input');
  });
});

describe('approval voting', () => {
  it('counts approvals and breaks a tie by the earlier nomination', () => {
    const doc = weekDoc();
    vote(doc, 'ada', A);
    vote(doc, 'ada', B);
    vote(doc, 'bob', B);
    vote(doc, 'cy', C);
    vote(doc, 'cy', A);
    const tally = weekTally(doc, W);
    expect(tally.candidates.map((c) => [c.paperId, c.approvals, c.voters])).toEqual([
      [A, 2, ['ada', 'cy']],
      [B, 2, ['ada', 'bob']],
      [C, 1, ['cy']],
    ]);
    expect(tally.winner).toBe(A);
    expect(tally.candidates[1]).toMatchObject({
      nominatedBy: 'bob',
      nominatedAt: '2026-03-16T09:10:00.000Z',
    });
  });

  it('breaks a tie of approvals and nomination time by the smaller arXiv id', () => {
    const doc = newDoc();
    const x = '2603.00010';
    const y = '2603.00009';
    for (const id of [x, y]) saveToQueue(doc, paper(id), 'ada', at('2026-03-15T09:00:00Z'));
    nominate(doc, W, x, 'ada', at('2026-03-16T09:00:00Z'));
    nominate(doc, W, y, 'bob', at('2026-03-16T09:00:00Z'));
    vote(doc, 'ada', x);
    vote(doc, 'bob', y);
    expect(weekTally(doc, W).candidates.map((c) => c.paperId)).toEqual([y, x]);
  });

  it('orders candidates by the documented rule', () => {
    const cand = (paperId: string, approvals: number, nominatedAt: string): Candidate => ({
      paperId,
      approvals,
      nominatedAt,
      nominatedBy: 'ada',
      nominators: ['ada'],
      voters: [],
    });
    const list = [
      cand('hep-th/9901001', 2, '2026-03-16T09:00:00Z'),
      cand('2603.00002', 2, '2026-03-16T09:00:00Z'),
      cand('2603.00001', 2, '2026-03-16T10:00:00Z'),
      cand('2603.00003', 3, '2026-03-17T09:00:00Z'),
      // The same instant written with an offset is the same instant.
      cand('2603.00000', 2, '2026-03-16T11:00:00+02:00'),
    ];
    expect([...list].sort(compareCandidates).map((c) => c.paperId)).toEqual([
      '2603.00003',
      '2603.00000',
      '2603.00002',
      'hep-th/9901001',
      '2603.00001',
    ]);
  });

  it('rejects votes beyond the cap, and counts again after one is taken back', () => {
    const doc = weekDoc();
    expect(votesPerMember(doc)).toBe(3);
    nominate(doc, W, D, 'ada', at('2026-03-16T11:00:00Z'));
    vote(doc, 'ada', A);
    vote(doc, 'ada', B);
    vote(doc, 'ada', C);
    vote(doc, 'ada', C);
    expect(codeOf(() => vote(doc, 'ada', D))).toBe('invalid-input');
    expect(votesOf(doc, W, 'ada')).toEqual([A, B, C]);
    expect(retractVote(doc, W, B, 'ada', at('2026-03-17T10:30:00Z'))).toBe(true);
    vote(doc, 'ada', D, '2026-03-17T11:00:00Z');
    expect(votesOf(doc, W, 'ada')).toEqual([A, C, D]);
  });

  it('stores a configurable cap and applies it to counting', () => {
    const doc = weekDoc();
    vote(doc, 'ada', A, '2026-03-17T10:00:00Z');
    vote(doc, 'ada', B, '2026-03-17T10:01:00Z');
    vote(doc, 'ada', C, '2026-03-17T10:02:00Z');
    setVotesPerMember(doc, 2);
    expect(votesPerMember(doc)).toBe(2);
    expect(votesOf(doc, W, 'ada')).toEqual([A, B]);
    expect(weekTally(doc, W).candidates.find((c) => c.paperId === C)?.approvals).toBe(0);
    for (const bad of [0, 21, 1.5, Number.NaN])
      expect(codeOf(() => setVotesPerMember(doc, bad))).toBe('invalid-input');
    doc.getMap(ROOT.meta).set('votesPerMember', 'lots');
    expect(votesPerMember(doc)).toBe(3);
  });

  it('needs a queued, nominated paper', () => {
    const doc = weekDoc();
    expect(codeOf(() => nominate(doc, W, '2603.00099', 'ada', at('2026-03-16T09:00:00Z')))).toBe(
      'invalid-input',
    );
    expect(codeOf(() => vote(doc, 'ada', D))).toBe('invalid-input');
    vote(doc, 'bob', C);
    expect(withdrawNomination(doc, W, C, 'cy', at('2026-03-17T10:30:00Z'))).toBe(true);
    expect(weekTally(doc, W).candidates.map((c) => c.paperId)).toEqual([A, B]);
    removeFromQueue(doc, B);
    expect(weekTally(doc, W).candidates.map((c) => c.paperId)).toEqual([A]);
  });

  it('refuses votes and nominations after the deadline', () => {
    const doc = weekDoc();
    setPickDeadline(doc, W, '2026-03-20T18:00:00Z');
    expect(pickDeadline(doc, W)).toBe('2026-03-20T18:00:00.000Z');
    vote(doc, 'ada', A, '2026-03-20T17:59:00Z');
    expect(codeOf(() => vote(doc, 'bob', A, '2026-03-20T18:01:00Z'))).toBe('invalid-input');
    expect(codeOf(() => nominate(doc, W, D, 'bob', at('2026-03-21T09:00:00Z')))).toBe('invalid-input');
    expect(codeOf(() => retractVote(doc, W, A, 'ada', at('2026-03-20T18:30:00Z')))).toBe('invalid-input');
    expect(codeOf(() => setPickDeadline(doc, W, 'Friday'))).toBe('invalid-input');
    setPickDeadline(doc, W, null);
    vote(doc, 'bob', A, '2026-03-21T09:00:00Z');
    expect(weekTally(doc, W).candidates[0]?.approvals).toBe(2);
  });
});

describe('weekly pick across peers', () => {
  it('three peers voting offline agree on the winner after syncing', () => {
    const [a, b, c] = trio();
    weekDoc(a);
    sync(a, b, c);
    vote(a, 'ada', B);
    vote(b, 'bob', B);
    vote(c, 'cy', C);
    expect(weekTally(c, W).winner).toBe(C);
    sync(a, b, c);
    const tallies = [a, b, c].map((doc) => weekTally(doc, W));
    expect(tallies.map((t) => t.winner)).toEqual([B, B, B]);
    expect(tallies[1]).toEqual(tallies[0]);
    expect(tallies[2]).toEqual(tallies[0]);
  });

  it('a member voting on two devices offline gets only their earliest votes up to the cap', () => {
    const [a, b] = pair();
    weekDoc(a);
    nominate(a, W, D, 'ada', at('2026-03-16T11:00:00Z'));
    setVotesPerMember(a, 2);
    sync(a, b);
    vote(a, 'ada', A, '2026-03-17T10:00:00Z');
    vote(a, 'ada', B, '2026-03-17T10:01:00Z');
    vote(b, 'ada', C, '2026-03-17T09:00:00Z');
    vote(b, 'ada', D, '2026-03-17T10:30:00Z');
    sync(a, b);
    expect(votesOf(a, W, 'ada')).toEqual([C, A]);
    expect(votesOf(b, W, 'ada')).toEqual([C, A]);
    expect(codeOf(() => vote(b, 'ada', B, '2026-03-17T11:00:00Z'))).toBe('invalid-input');
  });

  it('ignores votes and nominations a peer wrote malformed', () => {
    const doc = weekDoc();
    vote(doc, 'ada', A);
    doc.getMap(ROOT.pickVotes).set(`${W}|eve|${B}`, 'not a time');
    doc.getMap(ROOT.pickVotes).set(`${W}|eve`, '2026-03-17T10:00:00Z');
    doc.getMap(ROOT.pickVotes).set(`${W}|eve|2603.00099`, '2026-03-17T10:00:00Z');
    doc.getMap(ROOT.pickNominations).set(`${W}|2603.00099|eve`, '2026-03-16T08:00:00Z');
    doc.getMap(ROOT.pickNominations).set(`${W}|${D}|eve`, { at: 'x' });
    doc.getMap(ROOT.pickNominations).set('junk', 1);
    const tally = weekTally(doc, W);
    expect(tally.candidates.map((c) => [c.paperId, c.approvals])).toEqual([
      [A, 1],
      [B, 0],
      [C, 0],
    ]);
  });
});
