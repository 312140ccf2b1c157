/**
 * Topics the group follows, by taxonomy slug (or a custom topic's engine slug, `custom-<id>`). A set keyed by
 * slug: concurrent follows of one topic merge into one entry, and a follow concurrent with an unfollow wins.
 */
import type * as Y from 'yjs';
import { checkMemberId, checkNow, checkSlug } from './input-checks.ts';
import { ROOT, rootMap, writeGroup } from './group-doc.ts';
import { byCodeUnits, compareInstants, readStamp } from './peer-values.ts';

export interface FollowedTopic {
  slug: string;
  followedBy: string;
  followedAt: string;
}

function readFollowed(slug: string, value: unknown): FollowedTopic | null {
  const stamp = readStamp(value);
  return stamp ? { slug, followedBy: stamp.by, followedAt: stamp.at } : null;
}

/** In the order they were followed. */
export function listFollowedTopics(doc: Y.Doc): FollowedTopic[] {
  const topics: FollowedTopic[] = [];
  rootMap(doc, ROOT.followedTopics).forEach((value, slug) => {
    const topic = readFollowed(slug, value);
    if (topic) topics.push(topic);
  });
  return topics.sort((a, b) => compareInstants(a.followedAt, b.followedAt) || byCodeUnits(a.slug, b.slug));
}

export function followedSlugs(doc: Y.Doc): Set<string> {
  return new Set(listFollowedTopics(doc).map((t) => t.slug));
}

export function isFollowing(doc: Y.Doc, slug: string): boolean {
  return readFollowed(slug, rootMap(doc, ROOT.followedTopics).get(slug)) !== null;
}

/** Follows a topic; following it again keeps who followed it first. */
export function followTopic(doc: Y.Doc, slug: string, memberId: string, now: Date): FollowedTopic {
  const s = checkSlug(slug, 'topic slug');
  const by = checkMemberId(memberId);
  const at = checkNow(now);
  const existing = readFollowed(s, rootMap(doc, ROOT.followedTopics).get(s));
  if (existing) return existing;
  writeGroup(doc, () => followTopicWrite(doc, s, by, at));
  return { slug: s, followedBy: by, followedAt: at };
}

/** The write alone, for a caller inside its own transaction with checked input. */
export function followTopicWrite(doc: Y.Doc, slug: string, by: string, at: string): void {
  const map = rootMap(doc, ROOT.followedTopics);
  if (readFollowed(slug, map.get(slug)) === null) map.set(slug, { by, at });
}

export function unfollowTopicWrite(doc: Y.Doc, slug: string): void {
  const map = rootMap(doc, ROOT.followedTopics);
  if (map.has(slug)) map.delete(slug);
}

export function unfollowTopic(doc: Y.Doc, slug: string): boolean {
  const s = checkSlug(slug, 'topic slug');
  if (!rootMap(doc, ROOT.followedTopics).has(s)) return false;
  writeGroup(doc, () => unfollowTopicWrite(doc, s));
  return true;
}
