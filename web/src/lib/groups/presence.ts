/**
 * Presence: who has the group open and what they are looking at, carried by y-websocket's awareness
 * (never stored in the document). States come from peers, so they are read defensively.
 */

/** What a member is looking at: a part of the group page, a paper's notes, or a page of the app. */
export interface Looking {
  /** "inbox", "queue", "pick", "members", "notes", "browsing" … */
  view: string;
  /** The paper, on a paper's notes; null elsewhere. */
  paperId: string | null;
  /** A few words for people ("Notes: Attention is all you need"). */
  label: string;
}

export interface PresenceState extends Looking {
  memberId: string;
  name: string;
  colour: string;
}

export interface Peer extends PresenceState {
  /** The Yjs client id: one member in two tabs is two peers. */
  clientId: number;
}

const COLOUR = /^#[0-9a-fA-F]{6}$/;

function short(value: unknown, max: number): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, max) : null;
}

/** A peer's awareness state as sent by Quire (`{ presence: … }`); null for anything else. */
export function readPeer(clientId: number, state: unknown): Peer | null {
  if (typeof state !== 'object' || state === null) return null;
  const p = (state as { presence?: unknown }).presence;
  if (typeof p !== 'object' || p === null) return null;
  const v = p as Record<string, unknown>;
  const memberId = short(v.memberId, 80);
  const name = short(v.name, 80);
  if (memberId === null || name === null) return null;
  return {
    clientId,
    memberId,
    name,
    colour: typeof v.colour === 'string' && COLOUR.test(v.colour) ? v.colour : '#808080',
    view: short(v.view, 40) ?? 'browsing',
    paperId: short(v.paperId, 80),
    label: short(v.label, 200) ?? '',
  };
}

/** Peers once per member (one state per member however many tabs they have open), by name. */
export function peopleHere(peers: readonly Peer[]): Peer[] {
  const byMember = new Map<string, Peer>();
  for (const peer of peers) byMember.set(peer.memberId, peer);
  return [...byMember.values()].sort((a, b) => a.name.localeCompare(b.name));
}
