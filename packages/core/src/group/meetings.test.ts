import type * as Y from 'yjs';
import { describe, expect, it } from 'vitest';
import {
  addMeetingDate,
  cancelMeeting,
  meetingDeadline,
  meetingOfWeek,
  meetingSchedule,
  meetingsBetween,
  nextMeeting,
  presenterRotation,
  restoreMeeting,
  setDeadlineLead,
  setPresenterRotation,
  setWeeklyMeeting,
  skipPresenter,
  unskipPresenter,
} from './meetings.ts';
import { joinGroup } from './members.ts';
import { at, codeOf, newDoc, pair, sync } from './test-helpers.ts';
import { pickDeadline, pickWeekAt, setPickDeadline, weekTally } from './weekly-pick.ts';

const SET_AT = at('2026-03-16T08:00:00Z');

/** Ada, Bob and Cy (joined in that order) meet on Thursdays at 18:00 in Berlin from 16 March 2026. */
function groupDoc(doc: Y.Doc = newDoc()): Y.Doc {
  for (const [i, id] of ['ada', 'bob', 'cy'].entries()) {
    joinGroup(doc, { id, name: id.toUpperCase(), colour: '#336699' }, at(`2026-03-0${i + 1}T09:00:00Z`));
  }
  setWeeklyMeeting(doc, { weekday: 4, time: '18:00', timeZone: 'Europe/Berlin' }, 'ada', SET_AT);
  return doc;
}

const span = (doc: Y.Doc, from: string, to: string) => meetingsBetween(doc, Date.parse(from), Date.parse(to));

describe('the weekly meeting', () => {
  it('keeps its wall-clock time across the DST change, from the day it was set', () => {
    const doc = groupDoc();
    expect(meetingSchedule(doc).weekly).toEqual({ weekday: 4, time: '18:00', from: '2026-03-16' });
    const meetings = span(doc, '2026-03-01T00:00:00Z', '2026-04-10T00:00:00Z');
    expect(meetings.map((m) => [m.date, m.start])).toEqual([
      ['2026-03-19', '2026-03-19T17:00:00.000Z'],
      ['2026-03-26', '2026-03-26T17:00:00.000Z'],
      // Berlin is on summer time from 29 March.
      ['2026-04-02', '2026-04-02T16:00:00.000Z'],
      ['2026-04-09', '2026-04-09T16:00:00.000Z'],
    ]);
    expect(meetings[2]).toMatchObject({ end: '2026-04-02T17:00:00.000Z', week: '2026-03-30', number: 2 });
    expect(nextMeeting(doc, at('2026-03-26T17:00:01Z'))?.date).toBe('2026-04-02');
    // The pick being chosen is the next meeting's: a Thursday meeting's week until it starts, then the next.
    expect(pickWeekAt(doc, at('2026-03-26T16:59:00Z'))).toBe('2026-03-23');
    expect(pickWeekAt(doc, at('2026-03-26T17:00:01Z'))).toBe('2026-03-30');
    expect(pickWeekAt(newDoc(), at('2026-03-26T17:00:01Z'))).toBe('2026-03-23');
  });

  it('gives each week’s pick a deadline a set time before its meeting; the week’s own deadline wins', () => {
    const doc = groupDoc();
    expect(meetingDeadline(doc, '2026-03-16')).toBe('2026-03-18T17:00:00.000Z');
    expect(meetingDeadline(doc, '2026-03-30')).toBe('2026-04-01T16:00:00.000Z');
    setDeadlineLead(doc, 90);
    expect(pickDeadline(doc, '2026-03-16')).toBe('2026-03-19T15:30:00.000Z');
    expect(weekTally(doc, '2026-03-16')).toMatchObject({ deadlineSource: 'meeting' });
    setPickDeadline(doc, '2026-03-16', '2026-03-17T12:00:00Z');
    expect(weekTally(doc, '2026-03-16')).toMatchObject({
      deadline: '2026-03-17T12:00:00.000Z',
      deadlineSource: 'week',
    });
    // Before the schedule started there is no meeting, so no deadline.
    expect(meetingOfWeek(doc, '2026-03-09')).toBeNull();
    expect(pickDeadline(doc, '2026-03-09')).toBeNull();
    expect(codeOf(() => setDeadlineLead(doc, 0))).toBe('invalid-input');
  });

  it('adds one-off dates, cancels a week and brings it back', () => {
    const doc = groupDoc();
    addMeetingDate(doc, '2026-03-24', '12:30', 'bob', at('2026-03-17T09:00:00Z'));
    cancelMeeting(doc, '2026-03-26', 'bob', at('2026-03-17T09:00:00Z'));
    const dates = () => span(doc, '2026-03-16T00:00:00Z', '2026-04-03T00:00:00Z').map((m) => m.date);
    expect(dates()).toEqual(['2026-03-19', '2026-03-24', '2026-04-02']);
    // The week of 23 March now meets on the Tuesday.
    expect(meetingDeadline(doc, '2026-03-23')).toBe('2026-03-23T11:30:00.000Z');
    restoreMeeting(doc, '2026-03-26');
    cancelMeeting(doc, '2026-03-24', 'bob', at('2026-03-17T09:00:00Z'));
    expect(dates()).toEqual(['2026-03-19', '2026-03-26', '2026-04-02']);
    expect(
      codeOf(() => setWeeklyMeeting(doc, { weekday: 8, time: '18:00', timeZone: 'UTC' }, 'ada', SET_AT)),
    ).toBe('invalid-input');
    expect(codeOf(() => addMeetingDate(doc, '2026-03-24', '25:00', 'ada', SET_AT))).toBe('invalid-input');
  });

  it('can be a list of dates alone', () => {
    const doc = newDoc();
    expect(codeOf(() => addMeetingDate(doc, '2026-05-04', '10:00', 'ada', SET_AT))).toBe('invalid-input');
    setWeeklyMeeting(
      doc,
      { weekday: 1, time: '10:00', timeZone: 'America/New_York', from: '2026-03-02' },
      'ada',
      SET_AT,
    );
    expect(span(doc, '2026-03-01T00:00:00Z', '2026-03-10T00:00:00Z').map((m) => m.start)).toEqual([
      '2026-03-02T15:00:00.000Z',
      // New York is on daylight time from 8 March.
      '2026-03-09T14:00:00.000Z',
    ]);
  });
});

describe('presenters', () => {
  const presenters = (doc: Y.Doc) =>
    span(doc, '2026-03-16T00:00:00Z', '2026-04-10T00:00:00Z').map((m) => m.presenter);

  it('rotate through the members in the order they joined, and the group can reorder them', () => {
    const doc = groupDoc();
    expect(presenters(doc)).toEqual(['ada', 'bob', 'cy', 'ada']);
    setPresenterRotation(doc, ['cy', 'ada'], 'ada', SET_AT);
    // Bob, left out of the new order, keeps his place after them.
    expect(presenterRotation(doc)).toEqual(['cy', 'ada', 'bob']);
    expect(presenters(doc)).toEqual(['cy', 'ada', 'bob', 'cy']);
    expect(codeOf(() => setPresenterRotation(doc, ['cy', 'cy'], 'ada', SET_AT))).toBe('invalid-input');
  });

  it('pass a skipped turn to the next member, and the rotation goes on from there', () => {
    const doc = groupDoc();
    skipPresenter(doc, '2026-03-26', 'bob', 'bob', SET_AT);
    const meetings = span(doc, '2026-03-16T00:00:00Z', '2026-04-10T00:00:00Z');
    expect(meetings.map((m) => m.presenter)).toEqual(['ada', 'cy', 'ada', 'bob']);
    expect(meetings[1]?.skipped).toEqual(['bob']);
    unskipPresenter(doc, '2026-03-26', 'bob');
    expect(presenters(doc)).toEqual(['ada', 'bob', 'cy', 'ada']);
  });

  it('merge what two members change offline', () => {
    const [ada, bob] = pair();
    groupDoc(ada);
    sync(ada, bob);
    skipPresenter(ada, '2026-03-19', 'ada', 'ada', at('2026-03-17T09:00:00Z'));
    addMeetingDate(ada, '2026-04-14', '18:00', 'ada', at('2026-03-17T09:00:00Z'));
    skipPresenter(bob, '2026-03-26', 'cy', 'bob', at('2026-03-17T09:01:00Z'));
    cancelMeeting(bob, '2026-04-09', 'bob', at('2026-03-17T09:01:00Z'));
    sync(ada, bob);
    for (const doc of [ada, bob]) {
      const meetings = span(doc, '2026-03-16T00:00:00Z', '2026-04-20T00:00:00Z');
      expect(meetings.map((m) => [m.date, m.presenter])).toEqual([
        ['2026-03-19', 'bob'],
        ['2026-03-26', 'ada'],
        ['2026-04-02', 'bob'],
        ['2026-04-14', 'cy'],
        ['2026-04-16', 'ada'],
      ]);
    }
  });
});
