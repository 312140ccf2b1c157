/**
 * Which arXiv version the group saved or discussed, and whether a newer one has appeared since, so a group
 * notices when the paper it discussed was revised. Clients learn the latest version from the API and record
 * it here; every recorded version is its own key (`<paperId>|<version>`), so of two peers recording v2 and
 * v3 concurrently the higher always survives.
 */
import type * as Y from 'yjs';
import { joinKey, ROOT, rootMap, writeGroup } from './group-doc.ts';
import { checkNow, checkPaperId, checkVersion } from './input-checks.ts';
import type { PaperSnapshot } from './paper-snapshot.ts';
import {
  queuedSnapshot,
  readAdds,
  readDiscussed,
  readKnownVersions,
  type DiscussedRecord,
  type QueueAdd,
} from './queue-records.ts';

export interface VersionChange {
  /** The version the first saver saw; null when unknown. */
  savedVersion: number | null;
  /** The version current when the group marked the paper discussed; null before that. */
  discussedVersion: number | null;
  /** The highest version anyone has recorded (snapshots included); null when unknown. */
  latestVersion: number | null;
  /** What `latestVersion` is compared with: the discussed version, else the saved one. */
  baselineVersion: number | null;
  /** True when arXiv has a newer version than the one the group discussed (or saved, before discussing). */
  hasNewerVersion: boolean;
}

function maxOf(...values: (number | null | undefined)[]): number | null {
  const known = values.filter((v): v is number => typeof v === 'number');
  return known.length > 0 ? Math.max(...known) : null;
}

export function computeVersionChange(
  snapshot: PaperSnapshot,
  adds: readonly QueueAdd[],
  discussed: DiscussedRecord | null,
  known: number | undefined,
): VersionChange {
  const savedVersion = adds[0]?.version ?? snapshot.version;
  const discussedVersion = discussed?.version ?? null;
  const latestVersion = maxOf(known, snapshot.version, savedVersion, discussedVersion);
  const baselineVersion = discussedVersion ?? savedVersion;
  return {
    savedVersion,
    discussedVersion,
    latestVersion,
    baselineVersion,
    hasNewerVersion: baselineVersion !== null && latestVersion !== null && latestVersion > baselineVersion,
  };
}

/** The version flag of a queued paper; null when it is not in the queue. */
export function versionChangeOf(doc: Y.Doc, paperId: string): VersionChange | null {
  const id = checkPaperId(paperId);
  const snapshot = queuedSnapshot(doc, id);
  if (!snapshot) return null;
  return computeVersionChange(
    snapshot,
    readAdds(doc).get(id) ?? [],
    readDiscussed(rootMap(doc, ROOT.queueDiscussed).get(id)),
    readKnownVersions(doc).get(id),
  );
}

/** Records a version write inside the caller's transaction (saving a snapshot records its version too). */
export function recordVersionWrite(doc: Y.Doc, paperId: string, version: number, at: string): void {
  const map = rootMap(doc, ROOT.paperVersions);
  const key = joinKey(paperId, String(version));
  if (!map.has(key)) map.set(key, at);
}

/**
 * Records the latest version a client has seen (from the API) for a queued paper. Returns false and writes
 * nothing when the paper is not in the queue or the version is already known.
 */
export function recordLatestVersion(doc: Y.Doc, paperId: string, version: number, now: Date): boolean {
  const id = checkPaperId(paperId);
  const v = checkVersion(version);
  const at = checkNow(now);
  if (!queuedSnapshot(doc, id) || rootMap(doc, ROOT.paperVersions).has(joinKey(id, String(v)))) return false;
  writeGroup(doc, () => recordVersionWrite(doc, id, v, at));
  return true;
}

/** Remembers the version being discussed: the latest this document knows of. Inside a transaction. */
export function discussedVersionWrite(doc: Y.Doc, paperId: string, by: string, at: string): void {
  const snapshot = queuedSnapshot(doc, paperId);
  const version = snapshot
    ? computeVersionChange(
        snapshot,
        readAdds(doc).get(paperId) ?? [],
        null,
        readKnownVersions(doc).get(paperId),
      ).latestVersion
    : null;
  rootMap(doc, ROOT.queueDiscussed).set(paperId, { version, by, at });
}
