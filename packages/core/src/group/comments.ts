/**
 * Threaded comments on a paper: one root Y.Map per paper (`comments:<paperId>`), commentId → comment as
 * plain JSON. Ids are chosen by the client (a UUID), so concurrent comments never share a key. Only the
 * author may edit or delete, checked against the member id the client passes (the client's own identity;
 * the server's capabilities decide who may write at all). A deleted comment stays as a tombstone so its
 * replies keep their place in the thread.
 */
import type * as Y from 'yjs';
import { CoreError } from '../errors.ts';
import { COMMENTS_PREFIX, writeGroup } from './group-doc.ts';
import { checkClientId, checkMemberId, checkNow, checkPaperId, invalidInput } from './input-checks.ts';
import { listMembers } from './members.ts';
import {
  byCodeUnits,
  compareInstants,
  isRecord,
  readInstant,
  readNonEmpty,
  readString,
} from './peer-values.ts';

export interface Comment {
  id: string;
  paperId: string;
  author: string;
  at: string;
  /** Markdown source; "" once deleted. */
  text: string;
  /** The parent comment's id; null for a thread's first comment. */
  replyTo: string | null;
  editedAt: string | null;
  deleted: boolean;
}

export interface CommentNode extends Comment {
  replies: CommentNode[];
}

const MAX_TEXT = 10_000;

function commentsMap(doc: Y.Doc, paperId: string): Y.Map<unknown> {
  return doc.getMap<unknown>(COMMENTS_PREFIX + paperId);
}

/** The live map, for observing one paper's comments. */
export function commentsOf(doc: Y.Doc, paperId: string): Y.Map<unknown> {
  return commentsMap(doc, checkPaperId(paperId));
}

function checkCommentText(text: string): string {
  const t = typeof text === 'string' ? text.trim() : '';
  if (t === '') throw invalidInput('The comment is empty; write something first.');
  if (t.length > MAX_TEXT)
    throw invalidInput(`The comment has ${t.length} characters; keep it to ${MAX_TEXT}.`);
  return t;
}

function readComment(paperId: string, id: string, value: unknown): Comment | null {
  if (!isRecord(value)) return null;
  const author = readNonEmpty(value.author);
  const at = readInstant(value.at);
  const text = readString(value.text);
  if (author === null || at === null || text === null) return null;
  const deleted = value.deleted === true;
  return {
    id,
    paperId,
    author,
    at,
    text: deleted ? '' : text,
    replyTo: readNonEmpty(value.replyTo),
    editedAt: readInstant(value.editedAt),
    deleted,
  };
}

function stored(c: Comment): Record<string, unknown> {
  return {
    author: c.author,
    at: c.at,
    text: c.text,
    replyTo: c.replyTo,
    editedAt: c.editedAt,
    deleted: c.deleted,
  };
}

export function getComment(doc: Y.Doc, paperId: string, commentId: string): Comment | null {
  const id = checkPaperId(paperId);
  return readComment(id, commentId, commentsMap(doc, id).get(commentId));
}

/** All comments of a paper, oldest first (ties by id, so every peer lists the same order). */
export function listComments(doc: Y.Doc, paperId: string): Comment[] {
  const id = checkPaperId(paperId);
  const comments: Comment[] = [];
  commentsMap(doc, id).forEach((value, key) => {
    const comment = readComment(id, key, value);
    if (comment) comments.push(comment);
  });
  return comments.sort((a, b) => compareInstants(a.at, b.at) || byCodeUnits(a.id, b.id));
}

/**
 * The comments as threads, oldest first at every level. A reply whose parent is missing, or that a peer
 * wrote into a reply cycle, is shown as a thread of its own rather than lost.
 */
export function commentThreads(doc: Y.Doc, paperId: string): CommentNode[] {
  const comments = listComments(doc, paperId);
  const nodes = new Map(comments.map((c) => [c.id, { ...c, replies: [] as CommentNode[] }]));
  const roots: CommentNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.replyTo === null ? undefined : nodes.get(node.replyTo);
    if (parent && parent !== node) parent.replies.push(node);
    else roots.push(node);
  }
  const reached = new Set<string>();
  const visit = (node: CommentNode): void => {
    reached.add(node.id);
    node.replies = node.replies.filter((r) => !reached.has(r.id));
    node.replies.forEach(visit);
  };
  roots.forEach(visit);
  for (const node of nodes.values()) {
    if (reached.has(node.id)) continue;
    roots.push(node);
    visit(node);
  }
  return roots.sort((a, b) => compareInstants(a.at, b.at) || byCodeUnits(a.id, b.id));
}

export interface CommentInput {
  /** Chosen by the client; a UUID will do. */
  id: string;
  text: string;
  replyTo?: string | null;
}

export function addComment(
  doc: Y.Doc,
  paperId: string,
  input: CommentInput,
  memberId: string,
  now: Date,
): Comment {
  const pid = checkPaperId(paperId);
  const id = checkClientId(input.id, 'comment');
  const text = checkCommentText(input.text);
  const author = checkMemberId(memberId);
  const at = checkNow(now);
  const map = commentsMap(doc, pid);
  if (map.has(id))
    throw invalidInput(`A comment with the id "${id}" exists already; use a new id for a new comment.`);
  const replyTo = input.replyTo ?? null;
  if (replyTo !== null && !readComment(pid, replyTo, map.get(replyTo))) {
    throw invalidInput(`The comment "${replyTo}" being replied to does not exist on paper ${pid}.`);
  }
  const comment: Comment = { id, paperId: pid, author, at, text, replyTo, editedAt: null, deleted: false };
  writeGroup(doc, () => map.set(id, stored(comment)));
  return comment;
}

function own(doc: Y.Doc, paperId: string, commentId: string, memberId: string, action: string): Comment {
  const comment = getComment(doc, paperId, commentId);
  if (!comment) throw invalidInput(`There is no comment "${commentId}" on paper ${checkPaperId(paperId)}.`);
  if (comment.author !== checkMemberId(memberId)) {
    throw new CoreError('forbidden', `Only the author of a comment may ${action} it.`);
  }
  if (comment.deleted)
    throw invalidInput(`The comment "${commentId}" was deleted; it cannot be ${action}ed.`);
  return comment;
}

export function editComment(
  doc: Y.Doc,
  paperId: string,
  commentId: string,
  text: string,
  memberId: string,
  now: Date,
): Comment {
  const comment = own(doc, paperId, commentId, memberId, 'edit');
  const edited = { ...comment, text: checkCommentText(text), editedAt: checkNow(now) };
  writeGroup(doc, () => commentsMap(doc, comment.paperId).set(comment.id, stored(edited)));
  return edited;
}

/** Leaves a tombstone (no text) so replies keep their thread. */
export function deleteComment(
  doc: Y.Doc,
  paperId: string,
  commentId: string,
  memberId: string,
  now: Date,
): void {
  const comment = own(doc, paperId, commentId, memberId, 'delete');
  const deleted = { ...comment, text: '', editedAt: checkNow(now), deleted: true };
  writeGroup(doc, () => commentsMap(doc, comment.paperId).set(comment.id, stored(deleted)));
}

/** A member as mentions read them: `@` followed by the member's name. */
export interface MentionTarget {
  id: string;
  name: string;
}

/** A run of a comment's text: plain, or an `@name` that names `memberId`. */
export interface MentionRun {
  text: string;
  memberId: string | null;
}

const NAME_CHAR = /[\p{L}\p{N}_]/u;

/**
 * The text cut into plain runs and `@name` mentions of the given members. A mention starts at an `@` that
 * does not follow a letter or digit (so an e-mail address is not one), matches a member's name in any case,
 * and must not run on into a longer word ("@Bennet" mentions no "Ben"). Names may hold spaces: where two
 * names match ("@Ben" and "@Ben Ali"), the longer one wins.
 */
export function mentionRuns(text: string, members: readonly MentionTarget[]): MentionRun[] {
  const names = members
    .filter((m) => m.name.trim() !== '')
    .map((m) => ({ id: m.id, name: m.name.trim().toLowerCase() }))
    .sort((a, b) => b.name.length - a.name.length);
  const runs: MentionRun[] = [];
  let plain = 0;
  for (let at = text.indexOf('@'); at !== -1; at = text.indexOf('@', at + 1)) {
    if (NAME_CHAR.test(text[at - 1] ?? '')) continue;
    const rest = text.slice(at + 1, at + 1 + (names[0]?.name.length ?? 0)).toLowerCase();
    const hit = names.find(
      (m) => rest.startsWith(m.name) && !NAME_CHAR.test(text[at + 1 + m.name.length] ?? ''),
    );
    if (!hit) continue;
    const end = at + 1 + hit.name.length;
    if (at > plain) runs.push({ text: text.slice(plain, at), memberId: null });
    runs.push({ text: text.slice(at, end), memberId: hit.id });
    plain = end;
    at = end - 1;
  }
  if (plain < text.length) runs.push({ text: text.slice(plain), memberId: null });
  return runs;
}

/** The members a text mentions, each once, in the order first mentioned. */
export function mentionedIn(text: string, members: readonly MentionTarget[]): string[] {
  const ids = mentionRuns(text, members).flatMap((r) => (r.memberId === null ? [] : [r.memberId]));
  return [...new Set(ids)];
}

/** A comment that mentions a member, with the paper it is on. */
export type Mention = Comment;

/**
 * Every live comment, on any paper, that mentions `memberId` by name, newest first; a member's own
 * comments are left out (nobody needs telling what they wrote). Names are the members' names now, so a
 * mention follows a member who renames, and "@Ben" written before Ben joined counts once he has.
 */
export function mentionsOf(doc: Y.Doc, memberId: string): Mention[] {
  const me = checkMemberId(memberId);
  const members: MentionTarget[] = listMembers(doc).map((m) => ({ id: m.id, name: m.name }));
  if (!members.some((m) => m.id === me)) return [];
  const found: Mention[] = [];
  // Root types arrive by name from peers: every `comments:<paper>` the document holds is one paper's map.
  for (const name of [...doc.share.keys()]) {
    if (!name.startsWith(COMMENTS_PREFIX)) continue;
    const paperId = name.slice(COMMENTS_PREFIX.length);
    let map: Y.Map<unknown>;
    try {
      map = doc.getMap<unknown>(name);
    } catch {
      continue; // a peer wrote another kind of type under the name: it holds no comments
    }
    map.forEach((value, id) => {
      const comment = readComment(paperId, id, value);
      if (!comment || comment.deleted || comment.author === me) return;
      if (mentionedIn(comment.text, members).includes(me)) found.push(comment);
    });
  }
  return found.sort((a, b) => compareInstants(b.at, a.at) || byCodeUnits(a.id, b.id));
}

/** The `@name` being typed at the caret: where its `@` is and what follows it; null when none is. */
export function mentionQueryAt(text: string, caret: number): { start: number; query: string } | null {
  const at = text.lastIndexOf('@', caret - 1);
  // Names are at most 80 characters; a longer run after an `@` is no name being typed.
  if (at === -1 || caret - at > 81 || NAME_CHAR.test(text[at - 1] ?? '')) return null;
  const query = text.slice(at + 1, caret);
  return /[\n@]/.test(query) || /^\s/.test(query) ? null : { start: at, query };
}

/** The members whose names start with what is typed after the `@` (any case), at most `max`. */
export function mentionCandidates<T extends MentionTarget>(
  query: string,
  members: readonly T[],
  max = 6,
): T[] {
  const q = query.toLowerCase();
  return members.filter((m) => m.name.toLowerCase().startsWith(q)).slice(0, max);
}

/** The text with the `@name` being typed at the caret completed to `@<name> `, and the caret after it. */
export function completeMention(text: string, caret: number, name: string): { text: string; caret: number } {
  const typed = mentionQueryAt(text, caret);
  if (typed === null) return { text, caret };
  const inserted = `@${name} `;
  return {
    text: text.slice(0, typed.start) + inserted + text.slice(caret),
    caret: typed.start + inserted.length,
  };
}
