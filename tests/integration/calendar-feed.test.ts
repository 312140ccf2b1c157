import ICAL from 'ical.js';
import * as Y from 'yjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CalendarFeedsDto, CreatedCalendarFeedDto, CreatedGroupDto } from '@quire/core';
import {
  castVote,
  closeWeek,
  joinGroup,
  nominate,
  pickWeekAt,
  saveToQueue,
  setPickDeadline,
  setWeeklyMeeting,
  skipPresenter,
  type PaperSnapshot,
} from '@quire/core/group';
import { meetingsCalendar } from '@quire/server/api/calendar-ics';
import { createApp } from '@quire/server/api/app';
import { groupServiceOver } from '@quire/server/sync/group-service';
import { openTopics } from '@quire/server/topics/open-topics';
import { describeOnEngines } from '../src/harness/engines.ts';
import { tempStoreOn, type TempGroupStore } from '../src/harness/temp-store.ts';

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

/**
 * Ada and Ben meet on Thursdays at 18:00 in Berlin from 16 March 2026 (the clocks change on 29 March);
 * the week of 16 March votes A over B, the week of 23 March is closed with B by Ben.
 */
function weekDoc(): Y.Doc {
  const doc = new Y.Doc();
  joinGroup(doc, { id: 'ada', name: 'Ada', colour: '#336699' }, at('2026-03-01T09:00:00Z'));
  joinGroup(doc, { id: 'ben', name: 'Ben, the second', colour: '#993366' }, at('2026-03-02T09:00:00Z'));
  setWeeklyMeeting(
    doc,
    { weekday: 4, time: '18:00', timeZone: 'Europe/Berlin' },
    'ada',
    at('2026-03-16T08:00:00Z'),
  );
  saveToQueue(
    doc,
    paper('2603.00001', 'Credit assignment; with commas, and a long title that needs folding in the feed'),
    'ada',
    at('2026-03-16T09:00:00Z'),
  );
  saveToQueue(doc, paper('2603.00002', 'Paper B'), 'ben', at('2026-03-16T09:00:00Z'));
  nominate(doc, '2026-03-16', '2603.00001', 'ada', at('2026-03-16T10:00:00Z'));
  nominate(doc, '2026-03-16', '2603.00002', 'ben', at('2026-03-16T10:05:00Z'));
  castVote(doc, '2026-03-16', '2603.00001', 'ada', at('2026-03-17T10:00:00Z'));
  castVote(doc, '2026-03-16', '2603.00001', 'ben', at('2026-03-17T10:00:00Z'));
  nominate(doc, '2026-03-23', '2603.00002', 'ben', at('2026-03-23T10:00:00Z'));
  closeWeek(doc, '2026-03-23', 'ben', at('2026-03-24T10:00:00Z'));
  skipPresenter(doc, '2026-04-02', 'ben', 'ben', at('2026-03-20T10:00:00Z'));
  return doc;
}

/** Meets on Tuesdays, 12:00 UTC, from `now`'s day; the pick for the next meeting closed by Ben. */
function liveDoc(now: Date): Y.Doc {
  const doc = new Y.Doc();
  joinGroup(doc, { id: 'ben', name: 'Ben, the second', colour: '#993366' }, now);
  setWeeklyMeeting(doc, { weekday: 2, time: '12:00', timeZone: 'UTC' }, 'ben', now);
  saveToQueue(doc, paper('2603.00002', 'Paper B'), 'ben', now);
  const week = pickWeekAt(doc, now);
  // Whatever the hour: the meeting's own deadline (a day before it) may have passed already.
  setPickDeadline(doc, week, new Date(now.getTime() + 3_600_000).toISOString());
  nominate(doc, week, '2603.00002', 'ben', now);
  closeWeek(doc, week, 'ben', now);
  return doc;
}

interface FeedEvent {
  uid: string;
  start: string;
  end: string;
  summary: string;
  description: string;
  url: string;
  paper: string | null;
  presenter: string | null;
}

/**
 * Reads a feed back with ical.js, after checking what RFC 5545 asks of its text and components: CRLF
 * line ends, lines folded at 75 octets, VERSION and PRODID on the calendar, UID, DTSTAMP and DTSTART
 * on every event (the calendar has no METHOD), unique UIDs, and each event ending after it starts.
 */
function readFeed(text: string): FeedEvent[] {
  expect(text.endsWith('\r\n')).toBe(true);
  const lines = text.slice(0, -2).split('\r\n');
  for (const line of lines) {
    expect(line).not.toContain('\n');
    expect(Buffer.byteLength(line, 'utf8')).toBeLessThanOrEqual(75);
  }
  const calendar = new ICAL.Component(ICAL.parse(text) as unknown[]);
  expect(calendar.name).toBe('vcalendar');
  expect(calendar.getFirstPropertyValue('version')).toBe('2.0');
  expect(String(calendar.getFirstPropertyValue('prodid'))).toMatch(/Quire/);
  const events = calendar.getAllSubcomponents('vevent').map((component) => {
    for (const required of ['uid', 'dtstamp', 'dtstart']) expect(component.hasProperty(required)).toBe(true);
    const event = new ICAL.Event(component);
    expect(event.endDate.compare(event.startDate)).toBe(1);
    const text = (name: string): string | null => {
      const value = component.getFirstPropertyValue(name);
      return value === null ? null : String(value);
    };
    return {
      uid: event.uid,
      start: event.startDate.toJSDate().toISOString(),
      end: event.endDate.toJSDate().toISOString(),
      summary: event.summary,
      description: event.description,
      url: text('url') ?? '',
      paper: text('x-quire-paper'),
      // From the description (TEXT, unescaped by the parser); X-QUIRE-PRESENTER holds the same.
      presenter: /^Presenter: (.+)$/m.exec(event.description)?.[1] ?? null,
    };
  });
  expect(new Set(events.map((e) => e.uid)).size).toBe(events.length);
  return events;
}

describe('the meetings as iCalendar', () => {
  const context = (now: string) => ({
    groupId: 'g1',
    groupName: 'Journal Club',
    origin: 'http://quire.test',
    now: at(now),
  });

  it('lists each meeting with its pick, presenter and links, at the group’s wall-clock time across DST', () => {
    // The week of 16 March closed by its deadline (a day before the meeting), nobody's app recorded it.
    const events = readFeed(meetingsCalendar(weekDoc(), context('2026-03-18T18:00:00Z')));
    const byDay = new Map(events.map((e) => [e.start.slice(0, 10), e]));
    expect(byDay.get('2026-03-19')).toMatchObject({
      start: '2026-03-19T17:00:00.000Z',
      end: '2026-03-19T18:00:00.000Z',
      paper: '2603.00001',
      presenter: 'Ada',
      url: 'http://quire.test/groups/g1/papers/2603.00001',
      summary:
        'Journal Club: Credit assignment; with commas, and a long title that needs folding in the feed',
    });
    expect(byDay.get('2026-03-19')?.description).toContain('arXiv: https://arxiv.org/abs/2603.00001');
    expect(byDay.get('2026-03-26')).toMatchObject({ paper: '2603.00002', presenter: 'Ben, the second' });
    // Summer time: the same 18:00 in Berlin is an hour earlier in UTC; Ben's turn skipped goes to Ada.
    expect(byDay.get('2026-04-02')).toMatchObject({
      start: '2026-04-02T16:00:00.000Z',
      paper: null,
      presenter: 'Ada',
      url: 'http://quire.test/groups/g1/pick',
      summary: 'Journal Club meeting',
    });
    expect(byDay.get('2026-04-02')?.description).toContain('not picked yet');
  });

  it('names no winner while the week is still open', () => {
    const events = readFeed(meetingsCalendar(weekDoc(), context('2026-03-17T12:00:00Z')));
    expect(events.find((e) => e.start.startsWith('2026-03-19'))).toMatchObject({ paper: null });
  });
});

describeOnEngines('calendar feed routes', (engine) => {
  let t: TempGroupStore;
  let app: ReturnType<typeof createApp>;
  let group: CreatedGroupDto;
  const token = (role: string) => group.invites.find((i) => i.role === role)?.token ?? '';

  beforeAll(async () => {
    t = await tempStoreOn(engine);
    const groups = groupServiceOver(t.store);
    app = createApp({
      store: t.store,
      harvestState: () => null,
      topics: (await openTopics(t.store)).topics,
      groups: { groups },
    });
    const res = await send('POST', '/api/groups', undefined, { name: 'Journal Club' });
    group = (await res.json()) as CreatedGroupDto;
    // The document as the sync server keeps it: in the group's update log. The route lists meetings
    // around the server's own clock, so this group meets weekly from today, its next pick closed.
    await t.store.groupUpdates.append(group.id, Y.encodeStateAsUpdate(liveDoc(new Date())));
  });
  afterAll(() => t.dispose());

  function send(method: string, path: string, bearer?: string, body?: unknown): Promise<Response> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (bearer) headers.authorization = `Bearer ${bearer}`;
    return Promise.resolve(
      app.request(path, {
        method,
        headers,
        body: body === undefined ? (method === 'POST' ? '{}' : undefined) : JSON.stringify(body),
      }),
    );
  }

  async function newFeed(role: string): Promise<CreatedCalendarFeedDto> {
    const res = await send('POST', `/api/groups/${group.id}/calendar-feeds`, token(role));
    expect(res.status).toBe(201);
    return (await res.json()) as CreatedCalendarFeedDto;
  }

  it('serves a private feed of the group’s meetings to any member, its secret stored only hashed', async () => {
    const feed = await newFeed('read-only');
    expect(feed.path).toMatch(/^\/api\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
    const res = await app.request(feed.path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    const events = readFeed(await res.text());
    expect(events.find((e) => e.paper === '2603.00002')).toMatchObject({ presenter: 'Ben, the second' });
    const secret = /([A-Za-z0-9_-]{43})\.ics$/.exec(feed.path)?.[1] ?? '';
    expect(await engine.storedTable(t.dbPath, 'calendar_feeds')).not.toContain(secret);
  });

  it('lets read-write members list and revoke feeds; a revoked feed answers 401', async () => {
    const feed = await newFeed('read-write');
    expect((await send('GET', `/api/groups/${group.id}/calendar-feeds`, token('read-only'))).status).toBe(
      403,
    );
    const listed = (await (
      await send('GET', `/api/groups/${group.id}/calendar-feeds`, token('read-write'))
    ).json()) as CalendarFeedsDto;
    expect(listed.feeds.map((f) => f.id)).toContain(feed.id);
    const revoked = await send(
      'DELETE',
      `/api/groups/${group.id}/calendar-feeds/${feed.id}`,
      token('read-write'),
    );
    expect(revoked.status).toBe(200);
    const gone = await app.request(feed.path);
    expect(gone.status).toBe(401);
    expect(((await gone.json()) as { message: string }).message).toContain('revoked');
    expect(
      (await send('DELETE', `/api/groups/${group.id}/calendar-feeds/nope`, token('read-write'))).status,
    ).toBe(404);
  });

  it('stops a feed when the invite it was made with is revoked, and refuses unknown or missing credentials', async () => {
    const made = await send('POST', `/api/groups/${group.id}/invites`, token('read-write'), {
      role: 'read-only',
    });
    const invite = (await made.json()) as { id: string; token: string };
    const res = await send('POST', `/api/groups/${group.id}/calendar-feeds`, invite.token);
    const feed = (await res.json()) as CreatedCalendarFeedDto;
    expect((await app.request(feed.path)).status).toBe(200);
    await send('DELETE', `/api/groups/${group.id}/invites/${invite.id}`, token('read-write'));
    expect((await app.request(feed.path)).status).toBe(401);
    expect((await app.request(`/api/calendar/${'x'.repeat(43)}.ics`)).status).toBe(404);
    expect((await app.request('/api/calendar/short.ics')).status).toBe(404);
    expect((await send('POST', `/api/groups/${group.id}/calendar-feeds`)).status).toBe(401);
  });
});
