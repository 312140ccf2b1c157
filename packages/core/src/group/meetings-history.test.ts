import type * as Y from 'yjs';
import { describe, expect, it } from 'vitest';
import { exportMarkdown } from './export-markdown.ts';
import {
  meetingChangedAt,
  meetingsBetween,
  recordPastPresenters,
  setPresenterRotation,
  setWeeklyMeeting,
  skipPresenter,
} from './meetings.ts';
import { joinGroup, removeMember } from './members.ts';
import { closeWeek } from './pick-history.ts';
import { saveToQueue } from './queue.ts';
import { at, newDoc, pair, paper, sync } from './test-helpers.ts';
import { castVote, nominate } from './weekly-pick.ts';

/** Ada, Bob and Cy meet on Thursdays at 18:00 in Berlin from 16 March 2026: Ada, Bob, Cy, Ada, … */
function groupDoc(doc: Y.Doc = newDoc()): Y.Doc {
  for (const [i, id] of ['ada', 'bob', 'cy'].entries()) {
    joinGroup(doc, { id, name: id.toUpperCase(), colour: '#336699' }, at(`2026-03-0${i + 1}T09:00:00Z`));
  }
  setWeeklyMeeting(
    doc,
    { weekday: 4, time: '18:00', timeZone: 'Europe/Berlin' },
    'ada',
    at('2026-03-16T08:00:00Z'),
  );
  return doc;
}

/** The presenters of the six Thursdays from 19 March to 23 April. */
const presenters = (doc: Y.Doc): (string | null)[] =>
  meetingsBetween(doc, Date.parse('2026-03-16T00:00:00Z'), Date.parse('2026-04-25T00:00:00Z')).map(
    (m) => m.presenter,
  );

// After the meetings of 19 and 26 March, before 2 April's.
const AFTER_TWO = at('2026-03-30T09:00:00Z');

describe('past meetings keep their presenters', () => {
  it('when the rotation is reordered: the next turn follows on from whoever presented last', () => {
    const doc = groupDoc();
    expect(presenters(doc)).toEqual(['ada', 'bob', 'cy', 'ada', 'bob', 'cy']);
    setPresenterRotation(doc, ['cy', 'bob', 'ada'], 'ada', AFTER_TWO);
    // Ada and Bob presented; in the new order Ada comes after Bob.
    expect(presenters(doc)).toEqual(['ada', 'bob', 'ada', 'cy', 'bob', 'ada']);
    const [first] = meetingsBetween(
      doc,
      Date.parse('2026-03-19T00:00:00Z'),
      Date.parse('2026-03-20T00:00:00Z'),
    );
    expect(first).toMatchObject({ presenter: 'ada', presenterRecorded: true });
    // A skip added afterwards for a meeting already held changes nothing.
    skipPresenter(doc, '2026-03-19', 'ada', 'bob', AFTER_TWO);
    expect(presenters(doc).slice(0, 2)).toEqual(['ada', 'bob']);
  });

  it('when a member joins: they take turns only at meetings after they joined', () => {
    const doc = groupDoc();
    // After four meetings; nothing was recorded, so only Dee's join date keeps 9 April Ada's.
    joinGroup(doc, { id: 'dee', name: 'Dee', colour: '#993366' }, at('2026-04-10T09:00:00Z'));
    expect(presenters(doc)).toEqual(['ada', 'bob', 'cy', 'ada', 'bob', 'cy']);
    expect(
      meetingsBetween(doc, Date.parse('2026-04-30T00:00:00Z'), Date.parse('2026-05-01T00:00:00Z'))[0]
        ?.presenter,
    ).toBe('dee');
  });

  it('when a member is removed after the meetings were recorded as they passed', () => {
    const doc = groupDoc();
    expect(recordPastPresenters(doc, 'cy', AFTER_TWO)).toBe(2);
    expect(recordPastPresenters(doc, 'cy', AFTER_TWO)).toBe(0);
    removeMember(doc, 'bob');
    // Bob presented on 26 March; the turn goes on to the member after him.
    expect(presenters(doc)).toEqual(['ada', 'bob', 'cy', 'ada', 'cy', 'ada']);
  });

  it('when two members reorder offline at once, and the feed sees the change', () => {
    const [ada, bob] = pair();
    groupDoc(ada);
    sync(ada, bob);
    const next = (doc: Y.Doc) =>
      meetingsBetween(doc, Date.parse('2026-04-02T00:00:00Z'), Date.parse('2026-04-03T00:00:00Z'))[0];
    const before = next(ada);
    if (!before) throw new Error('no meeting on 2 April');
    expect(meetingChangedAt(ada, before)).toBe('2026-03-16T08:00:00.000Z');
    setPresenterRotation(ada, ['bob', 'ada', 'cy'], 'ada', AFTER_TWO);
    setPresenterRotation(bob, ['cy', 'ada', 'bob'], 'bob', at('2026-03-30T09:05:00Z'));
    sync(ada, bob);
    expect(presenters(ada)).toEqual(presenters(bob));
    expect(presenters(ada).slice(0, 2)).toEqual(['ada', 'bob']);
    const after = next(ada);
    if (!after) throw new Error('no meeting on 2 April');
    // Yjs keeps one of the two orders (the same on both); either way the change is dated after it.
    expect(meetingChangedAt(ada, after)).toMatch(/^2026-03-30T09:0[05]:00\.000Z$/);
  });

  it('when the weekly meeting moves to another day and time', () => {
    const doc = groupDoc();
    setWeeklyMeeting(doc, { weekday: 5, time: '19:00', timeZone: 'Europe/Berlin' }, 'bob', AFTER_TWO);
    const meetings = meetingsBetween(
      doc,
      Date.parse('2026-03-16T00:00:00Z'),
      Date.parse('2026-04-11T00:00:00Z'),
    );
    expect(meetings.map((m) => [m.date, m.time, m.presenter])).toEqual([
      ['2026-03-19', '18:00', 'ada'],
      ['2026-03-26', '18:00', 'bob'],
      ['2026-04-03', '19:00', 'cy'],
      ['2026-04-10', '19:00', 'ada'],
    ]);
  });

  it('in the Markdown export’s pick history', () => {
    const doc = groupDoc();
    saveToQueue(doc, paper('2603.00001', { title: 'First' }), 'ada', at('2026-03-16T09:00:00Z'));
    nominate(doc, '2026-03-16', '2603.00001', 'ada', at('2026-03-16T10:00:00Z'));
    castVote(doc, '2026-03-16', '2603.00001', 'ada', at('2026-03-16T10:00:00Z'));
    closeWeek(doc, '2026-03-16', 'ada', at('2026-03-17T10:00:00Z'));
    setPresenterRotation(doc, ['cy', 'bob', 'ada'], 'ada', AFTER_TWO);
    expect(exportMarkdown(doc)).toContain(
      '· 1 vote, closed by ADA on 2026-03-17 10:00 UTC · presented by ADA at the meeting of 2026-03-19',
    );
  });
});
