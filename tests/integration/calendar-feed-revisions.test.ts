import ICAL from 'ical.js';
import * as Y from 'yjs';
import { describe, expect, it } from 'vitest';
import {
  castVote,
  closeWeek,
  joinGroup,
  nominate,
  saveToQueue,
  setPresenterRotation,
  setWeeklyMeeting,
  type PaperSnapshot,
} from '@quire/core/group';
import { meetingsCalendar } from '@quire/server/api/calendar-ics';

const at = (iso: string): Date => new Date(iso);

function paper(id: string, title: string): PaperSnapshot {
  return {
    id,
    version: 1,
    title,
    authors: ['Ada Lovelace'],
    abstract: `About ${title}.`,
    links: { abs: `https://arxiv.org/abs/${id}`, pdf: `https://arxiv.org/pdf/${id}` },
    primaryCategory: 'cs.LG',
    categories: ['cs.LG'],
    listingDate: '2026-03-10',
    tags: [],
    codeLinks: [],
  };
}

/** Ada, Ben and Cy meet on Thursdays at 18:00 in Berlin from 16 March 2026; a paper nominated for 23 March. */
function groupDoc(): Y.Doc {
  const doc = new Y.Doc();
  for (const [i, [id, name]] of [
    ['ada', 'Ada'],
    ['ben', 'Ben'],
    ['cy', 'Cy'],
  ].entries()) {
    joinGroup(doc, { id: id ?? '', name: name ?? '', colour: '#336699' }, at(`2026-03-0${i + 1}T09:00:00Z`));
  }
  setWeeklyMeeting(
    doc,
    { weekday: 4, time: '18:00', timeZone: 'Europe/Berlin' },
    'ada',
    at('2026-03-16T08:00:00Z'),
  );
  saveToQueue(doc, paper('2603.00001', 'Credit; assignment, revisited'), 'ada', at('2026-03-16T09:00:00Z'));
  nominate(doc, '2026-03-23', '2603.00001', 'ada', at('2026-03-23T08:00:00Z'));
  castVote(doc, '2026-03-23', '2603.00001', 'ben', at('2026-03-23T08:00:00Z'));
  return doc;
}

interface Revision {
  uid: string;
  sequence: number;
  lastModified: string;
  dtstamp: string;
  presenter: string | null;
  paper: string | null;
}

/** Each event by its meeting day, read back with ical.js. */
function revisions(text: string): Map<string, Revision> {
  const calendar = new ICAL.Component(ICAL.parse(text) as unknown[]);
  const out = new Map<string, Revision>();
  for (const component of calendar.getAllSubcomponents('vevent')) {
    const event = new ICAL.Event(component);
    const time = (name: string): string =>
      (component.getFirstPropertyValue(name) as ICAL.Time).toJSDate().toISOString();
    const value = (name: string): string | null => {
      const v = component.getFirstPropertyValue(name);
      return v === null ? null : String(v);
    };
    out.set(event.startDate.toJSDate().toISOString().slice(0, 10), {
      uid: event.uid,
      sequence: event.sequence,
      lastModified: time('last-modified'),
      dtstamp: time('dtstamp'),
      presenter: value('x-quire-presenter'),
      paper: value('x-quire-paper'),
    });
  }
  return out;
}

const feed = (doc: Y.Doc, now: string): string =>
  meetingsCalendar(doc, {
    groupId: 'g1',
    groupName: 'Journal Club',
    origin: 'http://quire.test',
    now: at(now),
  });

describe('the calendar feed’s revisions (RFC 5545)', () => {
  it('writes UTC times, escapes TEXT and folds lines at 75 octets', () => {
    // After the deadline (a day before the meeting): the winner's title is in the summary.
    const text = feed(groupDoc(), '2026-03-26T09:00:00Z');
    expect(text).toMatch(/\r\nDTSTART:20260326T170000Z\r\n/);
    expect(text).not.toMatch(/TZID/);
    // The title's comma and semicolon escaped in SUMMARY (the line may be folded after them).
    expect(text.replace(/\r\n /g, '')).toContain('SUMMARY:Journal Club: Credit\\; assignment\\, revisited');
    for (const line of text.slice(0, -2).split('\r\n'))
      expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
  });

  it('keeps UID, SEQUENCE, LAST-MODIFIED and DTSTAMP while nothing changes, whenever it is fetched', () => {
    const doc = groupDoc();
    const first = revisions(feed(doc, '2026-03-24T09:00:00Z'));
    const later = revisions(feed(doc, '2026-03-24T15:00:00Z'));
    for (const [day, revision] of first) if (later.has(day)) expect(later.get(day)).toEqual(revision);
    const meeting = first.get('2026-03-26');
    expect(meeting).toMatchObject({ uid: 'g1.2026-03-26@quire', lastModified: '2026-03-16T08:00:00.000Z' });
    expect(meeting?.dtstamp).toBe(meeting?.lastModified);
  });

  it('bumps SEQUENCE and LAST-MODIFIED of a meeting when its winner is picked', () => {
    const doc = groupDoc();
    const before = revisions(feed(doc, '2026-03-24T09:00:00Z'));
    closeWeek(doc, '2026-03-23', 'ben', at('2026-03-24T10:00:00Z'));
    const after = revisions(feed(doc, '2026-03-24T11:00:00Z'));
    expect(after.get('2026-03-26')).toMatchObject({
      paper: '2603.00001',
      lastModified: '2026-03-24T10:00:00.000Z',
      uid: before.get('2026-03-26')?.uid,
    });
    expect(after.get('2026-03-26')?.sequence).toBeGreaterThan(before.get('2026-03-26')?.sequence ?? Infinity);
    // A meeting whose pick and presenter did not change keeps its revision.
    expect(after.get('2026-04-02')).toEqual(before.get('2026-04-02'));
  });

  it('bumps coming meetings when the rotation is reordered, and past ones keep their presenter', () => {
    const doc = groupDoc();
    const before = revisions(feed(doc, '2026-03-30T08:00:00Z'));
    expect(before.get('2026-03-19')?.presenter).toBe('Ada');
    expect(before.get('2026-04-02')?.presenter).toBe('Cy');
    setPresenterRotation(doc, ['ben', 'cy', 'ada'], 'ada', at('2026-03-30T09:00:00Z'));
    const after = revisions(feed(doc, '2026-03-30T10:00:00Z'));
    expect(after.get('2026-03-19')?.presenter).toBe('Ada');
    expect(after.get('2026-03-26')?.presenter).toBe('Ben');
    expect(after.get('2026-04-02')).toMatchObject({
      presenter: 'Cy',
      lastModified: '2026-03-30T09:00:00.000Z',
    });
    expect(after.get('2026-04-09')?.presenter).toBe('Ada');
    expect(after.get('2026-04-09')?.sequence).toBeGreaterThan(before.get('2026-04-09')?.sequence ?? Infinity);
  });
});
