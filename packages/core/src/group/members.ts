/**
 * Members of a group. The id is chosen by the client (e.g. a UUID kept on the device); names and colours
 * are for display only: access is decided by the server's invite capabilities, never by these entries.
 */
import type * as Y from 'yjs';
import { invalidInput, checkMemberId, checkNow, checkText } from './input-checks.ts';
import { ROOT, rootMap, writeGroup } from './group-doc.ts';
import { byCodeUnits, compareInstants, isRecord, readInstant, readNonEmpty } from './peer-values.ts';

export interface Member {
  id: string;
  name: string;
  /** "#rrggbb". */
  colour: string;
  /** ISO time of the first join. */
  joinedAt: string;
}

export interface MemberInput {
  id: string;
  name: string;
  colour: string;
}

const COLOUR = /^#[0-9a-f]{6}$/;
const MAX_NAME = 80;

// Distinct at a glance on light and dark backgrounds.
const PALETTE = ['#e6194b', '#3cb44b', '#4363d8', '#f58231', '#911eb4', '#42d4f4', '#f032e6', '#469990'];

function checkColour(colour: string): string {
  const c = typeof colour === 'string' ? colour.trim().toLowerCase() : '';
  if (!COLOUR.test(c)) {
    throw invalidInput(
      `${JSON.stringify(colour)} is not a colour; give one as "#rrggbb", such as "#4363d8".`,
    );
  }
  return c;
}

/** A colour derived from the member id, for clients that do not let people choose. */
export function defaultMemberColour(memberId: string): string {
  let hash = 0;
  for (let i = 0; i < memberId.length; i++) hash = (hash * 31 + memberId.charCodeAt(i)) >>> 0;
  return PALETTE[hash % PALETTE.length] ?? '#4363d8';
}

function readMember(id: string, value: unknown): Member | null {
  if (!isRecord(value)) return null;
  const name = readNonEmpty(value.name);
  const colour = typeof value.colour === 'string' && COLOUR.test(value.colour) ? value.colour : null;
  const joinedAt = readInstant(value.joinedAt);
  if (name === null || colour === null || joinedAt === null) return null;
  return { id, name, colour, joinedAt };
}

export function getMember(doc: Y.Doc, memberId: string): Member | null {
  return readMember(memberId, rootMap(doc, ROOT.members).get(memberId));
}

/** Everyone who joined, in the order they joined. */
export function listMembers(doc: Y.Doc): Member[] {
  const members: Member[] = [];
  rootMap(doc, ROOT.members).forEach((value, id) => {
    const member = readMember(id, value);
    if (member) members.push(member);
  });
  return members.sort((a, b) => compareInstants(a.joinedAt, b.joinedAt) || byCodeUnits(a.id, b.id));
}

/** The name to show for a member id; the id itself when the member has left or never joined. */
export function memberName(doc: Y.Doc, memberId: string): string {
  return getMember(doc, memberId)?.name ?? memberId;
}

/** Adds the member, or updates name and colour of one who already joined (keeping the first join time). */
export function joinGroup(doc: Y.Doc, input: MemberInput, now: Date): Member {
  const id = checkMemberId(input.id);
  const name = checkText(input.name, 'member name', MAX_NAME);
  const colour = checkColour(input.colour);
  const at = checkNow(now);
  const joinedAt = getMember(doc, id)?.joinedAt ?? at;
  const member = { id, name, colour, joinedAt };
  writeGroup(doc, () => rootMap(doc, ROOT.members).set(id, { name, colour, joinedAt }));
  return member;
}

export function updateMember(
  doc: Y.Doc,
  memberId: string,
  changes: { name?: string; colour?: string },
): Member {
  const id = checkMemberId(memberId);
  const current = getMember(doc, id);
  if (!current) throw invalidInput(`No member with the id "${id}" has joined; join the group first.`);
  const name = changes.name === undefined ? current.name : checkText(changes.name, 'member name', MAX_NAME);
  const colour = changes.colour === undefined ? current.colour : checkColour(changes.colour);
  writeGroup(doc, () => rootMap(doc, ROOT.members).set(id, { name, colour, joinedAt: current.joinedAt }));
  return { ...current, name, colour };
}

/** Removes the member entry; what they wrote (notes, comments, votes) stays. */
export function removeMember(doc: Y.Doc, memberId: string): boolean {
  const id = checkMemberId(memberId);
  const members = rootMap(doc, ROOT.members);
  if (!members.has(id)) return false;
  writeGroup(doc, () => members.delete(id));
  return true;
}
