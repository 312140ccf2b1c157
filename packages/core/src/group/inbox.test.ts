import { describe, expect, it } from 'vitest';
import { followTopic } from './followed-topics.ts';
import { ROOT } from './group-doc.ts';
import {
  announcedAt,
  clearTriage,
  inboxRows,
  inboxWindow,
  lastOwnTriage,
  undoTriage,
  dismissFromInbox,
  getTriage,
  inboxFor,
  lastLookedAt,
  listTriage,
  markLooked,
  saveFromInbox,
  type InboxCandidate,
} from './inbox.ts';
import { getQueueItem, isQueued, saveToQueue, setQueueStatus } from './queue.ts';
import { at, codeOf, newDoc, pair, paper, sync } from './test-helpers.ts';

const ms = (iso: string): number => new Date(iso).getTime();

// Listing days in March 2026 (Mon 16 – Thu 19), two followed topics and one that is not followed.
const CANDIDATES: (InboxCandidate & { title: string })[] = [
  { id: '2603.10001', listingDate: '2026-03-16', topics: ['agentic-rl'], title: 'A' },
  { id: '2603.10002', listingDate: '2026-03-16', topics: ['reward-shaping'], title: 'B' },
  { id: '2603.10003', listingDate: '2026-03-17', topics: ['agentic-rl', 'reward-shaping'], title: 'C' },
  { id: '2603.10004', listingDate: '2026-03-17', topics: ['tree-search'], title: 'D' },
  { id: '2603.10005', listingDate: '2026-03-18', topics: ['agentic-rl'], title: 'E' },
  { id: '2603.10006', listingDate: '2026-03-19', topics: ['reward-shaping'], title: 'F' },
];

function groupDoc() {
  const doc = newDoc();
  followTopic(doc, 'agentic-rl', 'ada', at('2026-03-01T09:00:00Z'));
  followTopic(doc, 'reward-shaping', 'ada', at('2026-03-01T09:00:00Z'));
  return doc;
}

const ids = (items: { paperId: string }[]) => items.map((i) => i.paperId);

describe('announcement times', () => {
  it('is 20:00 New York time the evening before the listing day', () => {
    // EDT (UTC−4) since 8 March 2026: Monday 16 March 20:00 EDT.
    expect(announcedAt('2026-03-17')).toBe(ms('2026-03-17T00:00:00Z'));
    // A Monday listing is announced on Sunday evening.
    expect(announcedAt('2026-03-16')).toBe(ms('2026-03-16T00:00:00Z'));
    // EST (UTC−5) in January: 20:00 EST is 01:00 UTC.
    expect(announcedAt('2026-01-13')).toBe(ms('2026-01-13T01:00:00Z'));
  });
});

describe('topic inbox', () => {
  it('lists untriaged papers of followed topics, newest first, with the topics that matched', () => {
    const doc = groupDoc();
    const items = inboxFor(doc, CANDIDATES, 'ada');
    expect(ids(items)).toEqual(['2603.10006', '2603.10005', '2603.10003', '2603.10002', '2603.10001']);
    expect(items[2]).toEqual({
      paperId: '2603.10003',
      listingDate: '2026-03-17',
      matchedTopics: ['agentic-rl', 'reward-shaping'],
      candidate: CANDIDATES[2],
    });
  });

  it('shows each member only what was announced after their own last look', () => {
    const doc = groupDoc();
    // Tuesday 17 March, 10:00 UTC: Tuesday's listing was announced at 00:00 UTC, Wednesday's is not out yet.
    markLooked(doc, 'ada', at('2026-03-17T10:00:00Z'));
    expect(ids(inboxFor(doc, CANDIDATES, 'ada'))).toEqual(['2603.10006', '2603.10005']);
    expect(ids(inboxFor(doc, CANDIDATES, 'bob'))).toHaveLength(5);
    expect(lastLookedAt(doc, 'ada')).toBe('2026-03-17T10:00:00.000Z');
    // A look from a device with an older time does not bring old papers back.
    markLooked(doc, 'ada', at('2026-03-15T10:00:00Z'));
    expect(lastLookedAt(doc, 'ada')).toBe('2026-03-17T10:00:00.000Z');
  });

  it('splits the skimming: what one member triaged offline leaves every inbox after syncing', () => {
    const [a, b] = pair();
    followTopic(a, 'agentic-rl', 'ada', at('2026-03-01T09:00:00Z'));
    followTopic(a, 'reward-shaping', 'ada', at('2026-03-01T09:00:00Z'));
    sync(a, b);
    // Offline, Ada takes the newest two, Bob the oldest two.
    saveFromInbox(a, paper('2603.10006'), 'ada', at('2026-03-19T08:00:00Z'));
    dismissFromInbox(a, '2603.10005', 'ada', at('2026-03-19T08:01:00Z'));
    dismissFromInbox(b, '2603.10001', 'bob', at('2026-03-19T09:00:00Z'));
    dismissFromInbox(b, '2603.10002', 'bob', at('2026-03-19T09:01:00Z'));
    sync(a, b);
    expect(ids(inboxFor(a, CANDIDATES, 'ada'))).toEqual(['2603.10003']);
    expect(ids(inboxFor(b, CANDIDATES, 'bob'))).toEqual(['2603.10003']);
    expect(listTriage(b).map((t) => [t.paperId, t.decision, t.by])).toEqual([
      ['2603.10002', 'dismissed', 'bob'],
      ['2603.10001', 'dismissed', 'bob'],
      ['2603.10005', 'dismissed', 'ada'],
      ['2603.10006', 'saved', 'ada'],
    ]);
    expect(getQueueItem(b, '2603.10006')?.addedBy).toBe('ada');
  });

  it('saving from the inbox adds to the queue and records triage in one transaction', () => {
    const doc = groupDoc();
    let updates = 0;
    doc.on('update', () => (updates += 1));
    const saved = saveFromInbox(doc, paper('2603.10003'), 'bob', at('2026-03-18T12:00:00Z'));
    expect(updates).toBe(1);
    expect(getTriage(doc, '2603.10003')).toEqual({
      paperId: '2603.10003',
      decision: 'saved',
      by: 'bob',
      at: '2026-03-18T12:00:00.000Z',
      addedToQueue: true,
    });
    expect(saved).toEqual(getTriage(doc, '2603.10003'));
    expect(getQueueItem(doc, '2603.10003')?.status).toBe('queued');
  });

  it('writes nothing when the paper to save is invalid', () => {
    const doc = groupDoc();
    let updates = 0;
    doc.on('update', () => (updates += 1));
    expect(
      codeOf(() => saveFromInbox(doc, paper('2603.10003', { title: '' }), 'bob', at('2026-03-18T12:00:00Z'))),
    ).toBe('invalid-input');
    expect(updates).toBe(0);
  });

  it('leaves out papers already in the queue, and clearing triage brings a paper back', () => {
    const doc = groupDoc();
    saveToQueue(doc, paper('2603.10001'), 'ada', at('2026-03-18T12:00:00Z'));
    dismissFromInbox(doc, '2603.10002', 'ada', at('2026-03-18T12:00:00Z'));
    expect(ids(inboxFor(doc, CANDIDATES, 'bob'))).not.toContain('2603.10001');
    expect(ids(inboxFor(doc, CANDIDATES, 'bob'))).not.toContain('2603.10002');
    expect(clearTriage(doc, '2603.10002')).toBe(true);
    expect(ids(inboxFor(doc, CANDIDATES, 'bob'))).toContain('2603.10002');
  });

  it('skips unreadable candidates and merges duplicates', () => {
    const doc = groupDoc();
    const candidates = [
      { id: 'garbage', listingDate: '2026-03-16', topics: ['agentic-rl'] },
      { id: '2603.10009', listingDate: 'soon', topics: ['agentic-rl'] },
      { id: '2603.10010', listingDate: '2026-03-16', topics: 'agentic-rl' as unknown as string[] },
      { id: 'arXiv:2603.10011v2', listingDate: '2026-03-16', topics: ['agentic-rl'] },
      { id: '2603.10011', listingDate: '2026-03-16', topics: ['reward-shaping'] },
    ];
    const items = inboxFor(doc, candidates, 'ada');
    expect(items.map((i) => [i.paperId, i.matchedTopics])).toEqual([
      ['2603.10011', ['agentic-rl', 'reward-shaping']],
    ]);
  });

  it('is empty when the group follows nothing, and ignores malformed triage', () => {
    expect(inboxFor(newDoc(), CANDIDATES, 'ada')).toEqual([]);
    const doc = groupDoc();
    doc
      .getMap(ROOT.inboxTriage)
      .set('2603.10001', { decision: 'maybe', by: 'eve', at: '2026-03-18T12:00:00Z' });
    doc
      .getMap(ROOT.inboxTriage)
      .set('not-an-id', { decision: 'saved', by: 'eve', at: '2026-03-18T12:00:00Z' });
    doc.getMap(ROOT.inboxLooked).set('ada', 'last week');
    expect(ids(inboxFor(doc, CANDIDATES, 'ada'))).toHaveLength(5);
    expect(listTriage(doc)).toEqual([]);
  });
});

describe('the inbox window', () => {
  it('is the last 7 listing days up to the newest paper for a member who never looked', () => {
    const doc = groupDoc();
    // Thursday 19 March back over seven weekdays: Wednesday 11 March.
    expect(inboxWindow(doc, CANDIDATES, 'bob')).toEqual({
      kind: 'recent-listings',
      days: 7,
      from: '2026-03-11',
      to: '2026-03-19',
    });
    const old = { id: '2603.09999', listingDate: '2026-03-10', topics: ['agentic-rl'] };
    expect(ids(inboxFor(doc, [...CANDIDATES, old], 'bob'))).not.toContain('2603.09999');
    // A candidate outside the followed topics does not stretch the window.
    const later = { id: '2603.10099', listingDate: '2026-03-30', topics: ['tree-search'] };
    expect(inboxWindow(doc, [...CANDIDATES, later], 'bob')).toMatchObject({ to: '2026-03-19' });
    expect(inboxWindow(doc, [], 'bob')).toEqual({ kind: 'recent-listings', days: 7, from: null, to: null });
  });

  it('is the time of the last look once the member has looked', () => {
    const doc = groupDoc();
    markLooked(doc, 'ada', at('2026-03-17T10:00:00Z'));
    expect(inboxWindow(doc, CANDIDATES, 'ada')).toEqual({
      kind: 'since-looked',
      since: '2026-03-17T10:00:00.000Z',
    });
  });
});

describe('working through the inbox', () => {
  it('keeps the rows the page has shown in place, with who triaged them', () => {
    const [a, b] = pair();
    followTopic(a, 'agentic-rl', 'ada', at('2026-03-01T09:00:00Z'));
    followTopic(a, 'reward-shaping', 'ada', at('2026-03-01T09:00:00Z'));
    sync(a, b);
    const shown = new Set(ids(inboxRows(a, CANDIDATES, 'ada')));
    dismissFromInbox(b, '2603.10005', 'bob', at('2026-03-19T09:00:00Z'));
    saveToQueue(b, paper('2603.10002'), 'bob', at('2026-03-19T09:01:00Z'));
    sync(a, b);
    const rows = inboxRows(a, CANDIDATES, 'ada', shown);
    expect(rows.map((r) => [r.paperId, r.triage?.decision ?? null, r.triage?.by ?? null])).toEqual([
      ['2603.10006', null, null],
      ['2603.10005', 'dismissed', 'bob'],
      ['2603.10003', null, null],
      ['2603.10002', 'saved', 'bob'],
      ['2603.10001', null, null],
    ]);
    // Without them kept, only what is left to triage.
    expect(ids(inboxRows(a, CANDIDATES, 'ada'))).toEqual(['2603.10006', '2603.10003', '2603.10001']);
  });

  it('never triages a paper twice: the first decision stands and nothing is written', () => {
    const doc = groupDoc();
    expect(dismissFromInbox(doc, '2603.10001', 'bob', at('2026-03-19T09:00:00Z'))?.by).toBe('bob');
    let updates = 0;
    doc.on('update', () => (updates += 1));
    expect(dismissFromInbox(doc, '2603.10001', 'ada', at('2026-03-19T09:01:00Z'))).toBeNull();
    expect(saveFromInbox(doc, paper('2603.10001'), 'ada', at('2026-03-19T09:02:00Z'))).toBeNull();
    expect(updates).toBe(0);
    expect(getTriage(doc, '2603.10001')).toMatchObject({ decision: 'dismissed', by: 'bob' });
    expect(isQueued(doc, '2603.10001')).toBe(false);
  });

  // Yjs keeps one of two concurrent writes to a map key by client id, so both orders are tried.
  it.each([
    ['the dismissal', 1, 2],
    ['the save', 2, 1],
  ])(
    'settles a save and a dismissal made at once on both devices as the save (%s written last)',
    (_, adaId, benId) => {
      const [a, b] = pair();
      a.clientID = adaId;
      b.clientID = benId;
      followTopic(a, 'agentic-rl', 'ada', at('2026-03-01T09:00:00Z'));
      sync(a, b);
      saveFromInbox(a, paper('2603.10005'), 'ada', at('2026-03-19T08:00:00Z'));
      dismissFromInbox(b, '2603.10005', 'ben', at('2026-03-19T08:00:01Z'));
      sync(a, b);
      for (const doc of [a, b]) {
        expect(getTriage(doc, '2603.10005')).toMatchObject({ decision: 'saved', by: 'ada' });
        expect(isQueued(doc, '2603.10005')).toBe(true);
        expect(listTriage(doc).map((t) => [t.paperId, t.decision, t.by])).toEqual([
          ['2603.10005', 'saved', 'ada'],
        ]);
        const row = inboxRows(doc, CANDIDATES, 'ben', new Set(['2603.10005'])).find(
          (r) => r.paperId === '2603.10005',
        );
        expect(row?.triage).toMatchObject({ decision: 'saved', by: 'ada' });
        // Z on Ben's device finds nothing of his to undo; Ada's undo takes the paper back out.
        expect(lastOwnTriage(doc, 'ben', ['2603.10005'])).toBeNull();
      }
      expect(codeOf(() => undoTriage(b, '2603.10005', 'ben'))).toBe('invalid-input');
      undoTriage(a, '2603.10005', 'ada');
      sync(a, b);
      for (const doc of [a, b]) {
        expect(getTriage(doc, '2603.10005')).toBeNull();
        expect(isQueued(doc, '2603.10005')).toBe(false);
      }
    },
  );

  it('undoes the member’s own last decision: a save leaves the queue, the paper returns', () => {
    const doc = groupDoc();
    saveFromInbox(doc, paper('2603.10006'), 'ada', at('2026-03-19T08:00:00Z'));
    dismissFromInbox(doc, '2603.10005', 'ada', at('2026-03-19T08:01:00Z'));
    dismissFromInbox(doc, '2603.10003', 'bob', at('2026-03-19T08:02:00Z'));
    const mine = ['2603.10006', '2603.10005', '2603.10003'];
    expect(lastOwnTriage(doc, 'ada', mine)?.paperId).toBe('2603.10005');
    expect(undoTriage(doc, '2603.10005', 'ada')).toMatchObject({ keptInQueue: false });
    expect(lastOwnTriage(doc, 'ada', mine)?.paperId).toBe('2603.10006');
    expect(undoTriage(doc, '2603.10006', 'ada')).toMatchObject({ keptInQueue: false });
    expect(isQueued(doc, '2603.10006')).toBe(false);
    expect(lastOwnTriage(doc, 'ada', mine)).toBeNull();
    expect(ids(inboxFor(doc, CANDIDATES, 'ada'))).toEqual([
      '2603.10006',
      '2603.10005',
      '2603.10002',
      '2603.10001',
    ]);
    expect(codeOf(() => undoTriage(doc, '2603.10003', 'ada'))).toBe('invalid-input');
    expect(codeOf(() => undoTriage(doc, '2603.10006', 'ada'))).toBe('invalid-input');
  });

  it('keeps an undone save in the queue when others have taken it up there', () => {
    const doc = groupDoc();
    saveFromInbox(doc, paper('2603.10006'), 'ada', at('2026-03-19T08:00:00Z'));
    saveToQueue(doc, paper('2603.10006'), 'bob', at('2026-03-19T08:05:00Z'));
    expect(undoTriage(doc, '2603.10006', 'ada').keptInQueue).toBe(true);
    expect(isQueued(doc, '2603.10006')).toBe(true);
    saveFromInbox(doc, paper('2603.10005'), 'ada', at('2026-03-19T09:00:00Z'));
    setQueueStatus(doc, '2603.10005', 'reading', 'bob', at('2026-03-19T09:05:00Z'));
    expect(undoTriage(doc, '2603.10005', 'ada').keptInQueue).toBe(true);
    // A paper that was in the queue before the save stays there too.
    saveToQueue(doc, paper('2603.10003'), 'ada', at('2026-03-19T10:00:00Z'));
    expect(saveFromInbox(doc, paper('2603.10003'), 'ada', at('2026-03-19T10:01:00Z'))?.addedToQueue).toBe(
      false,
    );
    expect(undoTriage(doc, '2603.10003', 'ada').keptInQueue).toBe(true);
  });

  it('reads decisions written before saves recorded whether they added to the queue', () => {
    const doc = groupDoc();
    saveToQueue(doc, paper('2603.10006'), 'ada', at('2026-03-19T08:00:00Z'));
    doc
      .getMap(ROOT.inboxTriage)
      .set('2603.10006', { decision: 'saved', by: 'ada', at: '2026-03-19T08:00:00Z' });
    expect(getTriage(doc, '2603.10006')).toMatchObject({ by: 'ada', addedToQueue: false });
    expect(undoTriage(doc, '2603.10006', 'ada').keptInQueue).toBe(true);
  });
});
