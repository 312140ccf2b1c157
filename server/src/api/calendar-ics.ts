/**
 * A group's meetings as an iCalendar feed (RFC 5545), read from its Y.Doc through core: each meeting with
 * its pick (the paper recorded for its week, or the winner once voting has closed), its presenter and
 * links to the paper and the group's notes. Times are written in UTC, so the feed needs no VTIMEZONE;
 * calendar apps show them in the reader's zone, and the meeting keeps its wall-clock time across DST
 * because core computes each instant in the group's zone.
 *
 * Calendar apps update an event they hold only when its SEQUENCE grows (RFC 5545 3.8.7.4), and the feed
 * keeps no state between fetches, so each event's revision is read from the document: LAST-MODIFIED (and
 * DTSTAMP, which is the same in a feed without METHOD, 3.8.7.2) is the latest change to the meeting's time,
 * presenter or pick, and SEQUENCE counts the seconds from 2020 to it, so it grows with every such change
 * and stays put between fetches. (Reopening a week removes its pick, and the event goes back to an older
 * revision until the week closes again; apps keep showing the old pick meanwhile.)
 */
import {
  getQueueItem,
  meetingChangedAt,
  meetingsBetween,
  memberName,
  pickOf,
  pickStanding,
  weekPhase,
  weekTally,
  type Meeting,
} from '@quire/core/group';
import ical from 'ical-generator';
import type * as Y from 'yjs';

const DAY_MS = 86_400_000;
/** Past meetings kept in the feed (a calendar keeps what it saw), and how far ahead it reaches. */
export const FEED_PAST_DAYS = 8 * 7;
export const FEED_AHEAD_DAYS = 26 * 7;

export interface FeedContext {
  groupId: string;
  groupName: string;
  /** The server's origin, for the links back into the app. */
  origin: string;
  now: Date;
}

interface MeetingPick {
  paperId: string;
  title: string;
  /** When the pick was made: the week's closing, or its deadline when voting closed by the clock. */
  at: string;
}

/** SEQUENCE counts seconds from here: small enough for RFC 5545's 32-bit INTEGER until 2088. */
const SEQUENCE_EPOCH_MS = Date.parse('2020-01-01T00:00:00Z');

/** The latest of the given instants, never after `now` (a device's clock may run ahead). */
function revisedAt(stamps: readonly (string | null)[], now: Date): Date {
  const ms = stamps.map((s) => (s === null ? Number.NaN : Date.parse(s))).filter(Number.isFinite);
  return new Date(Math.min(now.getTime(), Math.max(SEQUENCE_EPOCH_MS, ...ms)));
}

function pickFor(doc: Y.Doc, meeting: Meeting, now: Date): MeetingPick | null {
  const recorded = pickOf(doc, meeting.week);
  if (recorded) return { paperId: recorded.paperId, title: recorded.title, at: recorded.closedAt };
  const tally = weekTally(doc, meeting.week);
  // Voting closed by the clock but no member's app has recorded it yet: the same winner every app shows.
  const winner = weekPhase(tally, now) === 'ended' ? pickStanding(tally).winner : null;
  if (!winner || tally.deadline === null) return null;
  return { paperId: winner, title: getQueueItem(doc, winner)?.paper.title ?? winner, at: tally.deadline };
}

export function meetingsCalendar(doc: Y.Doc, context: FeedContext): string {
  const { groupId, groupName, origin, now } = context;
  const ms = now.getTime();
  const group = (path: string): string => `${origin}/groups/${encodeURIComponent(groupId)}${path}`;
  const calendar = ical({
    name: `${groupName} (Quire)`,
    prodId: { company: 'Quire', product: 'reading-group', language: 'EN' },
    // Calendar apps poll; a meeting's pick is settled a day before it, so every few hours is plenty.
    ttl: 3 * 3600,
  });
  for (const meeting of meetingsBetween(doc, ms - FEED_PAST_DAYS * DAY_MS, ms + FEED_AHEAD_DAYS * DAY_MS)) {
    const pick = pickFor(doc, meeting, now);
    const presenter = meeting.presenter ? memberName(doc, meeting.presenter) : null;
    const paperUrl = pick ? `https://arxiv.org/abs/${pick.paperId}` : null;
    const notesUrl = pick ? group(`/papers/${pick.paperId}`) : null;
    const lines = [
      pick ? `Paper: ${pick.title}` : 'Paper: not picked yet — vote in the group.',
      presenter ? `Presenter: ${presenter}` : 'Presenter: none in the rotation',
      paperUrl ? `arXiv: ${paperUrl}` : `Vote: ${group('/pick')}`,
      ...(notesUrl ? [`Notes: ${notesUrl}`] : []),
    ];
    const revised = revisedAt([meetingChangedAt(doc, meeting), pick?.at ?? null], now);
    calendar.createEvent({
      // Stable per meeting: a group meets at most once a day.
      id: `${groupId}.${meeting.date}@quire`,
      start: new Date(meeting.start),
      end: new Date(meeting.end),
      stamp: revised,
      lastModified: revised,
      sequence: Math.floor((revised.getTime() - SEQUENCE_EPOCH_MS) / 1000),
      summary: pick ? `${groupName}: ${pick.title}` : `${groupName} meeting`,
      description: lines.join('\n'),
      url: notesUrl ?? group('/pick'),
      // For programs that read the feed (and its tests): the paper and presenter as plain values.
      x: [
        ...(pick ? [['X-QUIRE-PAPER', pick.paperId] as [string, string]] : []),
        ...(presenter ? [['X-QUIRE-PRESENTER', presenter] as [string, string]] : []),
      ],
    });
  }
  // RFC 5545 ends every content line with CRLF, the last one too; ical-generator leaves the last bare.
  const text = calendar.toString();
  return text.endsWith('\r\n') ? text : `${text}\r\n`;
}
