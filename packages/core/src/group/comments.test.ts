import { describe, expect, it } from 'vitest';
import {
  addComment,
  commentThreads,
  deleteComment,
  editComment,
  getComment,
  listComments,
  completeMention,
  mentionCandidates,
  mentionQueryAt,
  mentionRuns,
  mentionedIn,
  mentionsOf,
} from './comments.ts';
import { joinGroup } from './members.ts';
import { COMMENTS_PREFIX } from './group-doc.ts';
import { at, codeOf, newDoc, pair, sync } from './test-helpers.ts';

const P = '2603.01234';

type Node = { id: string; replies: Node[] };
const shape = (nodes: Node[]): unknown =>
  nodes.map((n) => (n.replies.length ? [n.id, shape(n.replies)] : n.id));

describe('comments', () => {
  it('threads replies under their parents, oldest first', () => {
    const doc = newDoc();
    addComment(doc, P, { id: 'c1', text: 'Is the baseline fair?' }, 'ada', at('2026-03-10T09:00:00Z'));
    addComment(doc, P, { id: 'c2', text: 'Main result holds.' }, 'bob', at('2026-03-10T09:30:00Z'));
    addComment(
      doc,
      P,
      { id: 'c3', text: 'Yes, same budget.', replyTo: 'c1' },
      'bob',
      at('2026-03-10T10:00:00Z'),
    );
    addComment(
      doc,
      P,
      { id: 'c4', text: 'Not for ablations.', replyTo: 'c3' },
      'ada',
      at('2026-03-10T10:05:00Z'),
    );
    expect(shape(commentThreads(doc, P))).toEqual([['c1', [['c3', ['c4']]]], 'c2']);
    expect(getComment(doc, P, 'c3')).toEqual({
      id: 'c3',
      paperId: P,
      author: 'bob',
      at: '2026-03-10T10:00:00.000Z',
      text: 'Yes, same budget.',
      replyTo: 'c1',
      editedAt: null,
      deleted: false,
    });
  });

  it('lets only the author edit or delete, and keeps a deleted comment’s replies', () => {
    const doc = newDoc();
    addComment(doc, P, { id: 'c1', text: 'First take' }, 'ada', at('2026-03-10T09:00:00Z'));
    addComment(doc, P, { id: 'c2', text: 'Reply', replyTo: 'c1' }, 'bob', at('2026-03-10T09:10:00Z'));
    expect(codeOf(() => editComment(doc, P, 'c1', 'Hijacked', 'bob', at('2026-03-10T09:20:00Z')))).toBe(
      'forbidden',
    );
    expect(codeOf(() => deleteComment(doc, P, 'c1', 'bob', at('2026-03-10T09:20:00Z')))).toBe('forbidden');
    editComment(doc, P, 'c1', 'Second take', 'ada', at('2026-03-10T09:30:00Z'));
    expect(getComment(doc, P, 'c1')).toMatchObject({
      text: 'Second take',
      editedAt: '2026-03-10T09:30:00.000Z',
    });
    deleteComment(doc, P, 'c1', 'ada', at('2026-03-10T09:40:00Z'));
    expect(getComment(doc, P, 'c1')).toMatchObject({ text: '', deleted: true });
    expect(shape(commentThreads(doc, P))).toEqual([['c1', ['c2']]]);
    expect(codeOf(() => editComment(doc, P, 'c1', 'Back', 'ada', at('2026-03-10T09:50:00Z')))).toBe(
      'invalid-input',
    );
  });

  it('rejects empty text, reused ids, unknown parents and missing comments', () => {
    const doc = newDoc();
    const now = at('2026-03-10T09:00:00Z');
    addComment(doc, P, { id: 'c1', text: 'Hello' }, 'ada', now);
    expect(codeOf(() => addComment(doc, P, { id: 'c2', text: '  ' }, 'ada', now))).toBe('invalid-input');
    expect(codeOf(() => addComment(doc, P, { id: 'c1', text: 'Again' }, 'ada', now))).toBe('invalid-input');
    expect(codeOf(() => addComment(doc, P, { id: 'c3', text: 'Hi', replyTo: 'nope' }, 'ada', now))).toBe(
      'invalid-input',
    );
    expect(codeOf(() => addComment(doc, P, { id: 'a|b', text: 'Hi' }, 'ada', now))).toBe('invalid-input');
    expect(codeOf(() => editComment(doc, P, 'zzz', 'x', 'ada', now))).toBe('invalid-input');
    expect(listComments(doc, P).map((c) => c.id)).toEqual(['c1']);
  });

  it('merges comments and replies written on two devices offline', () => {
    const [a, b] = pair();
    addComment(a, P, { id: 'c1', text: 'Root' }, 'ada', at('2026-03-10T09:00:00Z'));
    sync(a, b);
    addComment(a, P, { id: 'a1', text: 'Ada reply', replyTo: 'c1' }, 'ada', at('2026-03-10T10:00:00Z'));
    addComment(b, P, { id: 'b1', text: 'Bob reply', replyTo: 'c1' }, 'bob', at('2026-03-10T09:30:00Z'));
    sync(a, b);
    expect(shape(commentThreads(a, P))).toEqual([['c1', ['b1', 'a1']]]);
    expect(commentThreads(b, P)).toEqual(commentThreads(a, P));
  });

  it('shows orphans and reply cycles a peer wrote as threads of their own, and skips garbage', () => {
    const doc = newDoc();
    const map = doc.getMap(COMMENTS_PREFIX + P);
    const c = (replyTo: string | null, t: string) => ({ author: 'eve', at: t, text: 'x', replyTo });
    map.set('x', c('y', '2026-03-10T09:00:00Z'));
    map.set('y', c('x', '2026-03-10T09:01:00Z'));
    map.set('o', c('gone', '2026-03-10T08:00:00Z'));
    map.set('s', c('s', '2026-03-10T07:00:00Z'));
    map.set('bad1', 'text');
    map.set('bad2', { author: 'eve', at: 'noon', text: 'x' });
    const threads = commentThreads(doc, P);
    expect(shape(threads)).toEqual(['s', 'o', ['x', ['y']]]);
  });
});

describe('mentions', () => {
  const people = [
    { id: 'ben', name: 'Ben' },
    { id: 'benali', name: 'Ben Ali' },
    { id: 'zoe', name: 'Zoë' },
  ];

  it('cuts the text into plain runs and @name mentions, the longer name winning', () => {
    expect(mentionRuns('@ben and @Ben Ali, see @Zoë.', people)).toEqual([
      { text: '@ben', memberId: 'ben' },
      { text: ' and ', memberId: null },
      { text: '@Ben Ali', memberId: 'benali' },
      { text: ', see ', memberId: null },
      { text: '@Zoë', memberId: 'zoe' },
      { text: '.', memberId: null },
    ]);
  });

  it('reads no mention in an e-mail address, a longer word or an unknown name', () => {
    for (const text of ['mail ben@Ben.org', '@Bennet said', '@Cleo, @ alone', 'no at sign']) {
      expect(mentionedIn(text, people), text).toEqual([]);
      expect(
        mentionRuns(text, people)
          .map((r) => r.text)
          .join(''),
      ).toBe(text);
    }
    expect(mentionedIn('@Ben @ben again', people)).toEqual(['ben']);
  });

  it('lists the live comments on any paper that mention a member, newest first, not their own', () => {
    const [a, b] = pair();
    joinGroup(a, { id: 'ada', name: 'Ada', colour: '#4363d8' }, at('2026-03-09T08:00:00Z'));
    joinGroup(b, { id: 'ben', name: 'Ben', colour: '#e6194b' }, at('2026-03-09T08:05:00Z'));
    sync(a, b);
    addComment(a, P, { id: 'c1', text: '@Ben can you check eq. 4?' }, 'ada', at('2026-03-10T09:00:00Z'));
    addComment(a, '2603.05678', { id: 'c2', text: 'Also here, @ben.' }, 'ada', at('2026-03-11T09:00:00Z'));
    addComment(a, P, { id: 'c3', text: 'Nobody named.' }, 'ada', at('2026-03-12T09:00:00Z'));
    addComment(a, P, { id: 'c4', text: '@Ben withdrawn' }, 'ada', at('2026-03-12T10:00:00Z'));
    deleteComment(a, P, 'c4', 'ada', at('2026-03-12T10:01:00Z'));
    addComment(b, P, { id: 'c5', text: 'I, @Ben, will.' }, 'ben', at('2026-03-12T11:00:00Z'));
    sync(a, b);
    // B's copy got A's comments through sync only: the paper maps are root types it never asked for.
    expect(mentionsOf(b, 'ben').map((m) => [m.id, m.paperId])).toEqual([
      ['c2', '2603.05678'],
      ['c1', P],
    ]);
    expect(mentionsOf(a, 'ada')).toEqual([]);
    expect(mentionsOf(b, 'nobody')).toEqual([]);
  });

  it('offers completion for the @name being typed and completes it', () => {
    expect(mentionQueryAt('thanks @Be', 10)).toEqual({ start: 7, query: 'Be' });
    expect(mentionQueryAt('@', 1)).toEqual({ start: 0, query: '' });
    expect(mentionQueryAt('ask @Ben Al', 11)).toEqual({ start: 4, query: 'Ben Al' });
    expect(mentionQueryAt('mail ben@Be', 11)).toBeNull();
    expect(mentionQueryAt('@Ben\nnext', 9)).toBeNull();
    expect(mentionQueryAt('no mention', 10)).toBeNull();
    expect(mentionCandidates('be', people).map((m) => m.id)).toEqual(['ben', 'benali']);
    expect(mentionCandidates('ben a', people).map((m) => m.id)).toEqual(['benali']);
    expect(mentionCandidates('', people, 2)).toHaveLength(2);
    expect(completeMention('thanks @be, really', 10, 'Ben')).toEqual({
      text: 'thanks @Ben , really',
      caret: 12,
    });
    expect(completeMention('no at', 5, 'Ben')).toEqual({ text: 'no at', caret: 5 });
  });
});
