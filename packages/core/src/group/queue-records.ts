/**
 * Low-level readers of the queue's maps, shared by the queue, version flags and the weekly pick.
 * The queue is spread over several maps on purpose: the snapshot (refreshed by anyone who re-saves),
 * the status, the discussed version and every member's first save each have their own keys, so
 * concurrent edits of different parts never overwrite one another.
 */
import type * as Y from 'yjs';
import { ROOT, rootMap, splitKey } from './group-doc.ts';
import { readSnapshot, type PaperSnapshot } from './paper-snapshot.ts';
import {
  byCodeUnits,
  compareInstants,
  isRecord,
  readInstant,
  readNonEmpty,
  readPaperId,
  readPositiveInt,
} from './peer-values.ts';

export const QUEUE_STATUSES = ['queued', 'reading', 'discussed', 'archived'] as const;
export type QueueStatus = (typeof QUEUE_STATUSES)[number];

export function isQueueStatus(value: unknown): value is QueueStatus {
  return typeof value === 'string' && (QUEUE_STATUSES as readonly string[]).includes(value);
}

export interface QueueAdd {
  memberId: string;
  at: string;
  /** The version the member saw when saving; null when unknown. */
  version: number | null;
}

export interface StatusRecord {
  status: QueueStatus;
  by: string;
  at: string;
}

export interface DiscussedRecord {
  version: number | null;
  by: string;
  at: string;
}

/** A queue entry: the snapshot and who last saved (or refreshed) it. */
export interface QueuedPaper {
  paper: PaperSnapshot;
  savedBy: string;
  savedAt: string;
}

function readQueued(key: string, value: unknown): QueuedPaper | null {
  if (!isRecord(value)) return null;
  const paper = readSnapshot(value.paper);
  const savedBy = readNonEmpty(value.by);
  const savedAt = readInstant(value.at);
  if (paper?.id !== key || savedBy === null || savedAt === null) return null;
  return { paper, savedBy, savedAt };
}

/** The entry stored under `paperId`, when the paper is in the queue. */
export function queuedPaper(doc: Y.Doc, paperId: string): QueuedPaper | null {
  return readQueued(paperId, rootMap(doc, ROOT.queue).get(paperId));
}

export function queuedSnapshot(doc: Y.Doc, paperId: string): PaperSnapshot | null {
  return queuedPaper(doc, paperId)?.paper ?? null;
}

export function queuedPapers(doc: Y.Doc): QueuedPaper[] {
  const entries: QueuedPaper[] = [];
  rootMap(doc, ROOT.queue).forEach((value, key) => {
    const entry = readQueued(key, value);
    if (entry) entries.push(entry);
  });
  return entries;
}

function readAdd(memberId: string, value: unknown): QueueAdd | null {
  if (!isRecord(value)) return null;
  const at = readInstant(value.at);
  return at === null ? null : { memberId, at, version: readPositiveInt(value.version) };
}

/** Every member's first save, per paper, earliest first (ties by member id, so every peer agrees). */
export function readAdds(doc: Y.Doc): Map<string, QueueAdd[]> {
  const byPaper = new Map<string, QueueAdd[]>();
  rootMap(doc, ROOT.queueAdds).forEach((value, key) => {
    const [paperId, memberId] = splitKey(key, 2) ?? [];
    if (paperId === undefined || memberId === undefined || readPaperId(paperId) !== paperId) return;
    const add = readAdd(memberId, value);
    if (add) byPaper.set(paperId, [...(byPaper.get(paperId) ?? []), add]);
  });
  for (const adds of byPaper.values()) {
    adds.sort((a, b) => compareInstants(a.at, b.at) || byCodeUnits(a.memberId, b.memberId));
  }
  return byPaper;
}

export function readStatus(value: unknown): StatusRecord | null {
  if (!isRecord(value) || !isQueueStatus(value.status)) return null;
  const by = readNonEmpty(value.by);
  const at = readInstant(value.at);
  return by !== null && at !== null ? { status: value.status, by, at } : null;
}

export function readDiscussed(value: unknown): DiscussedRecord | null {
  if (!isRecord(value)) return null;
  const by = readNonEmpty(value.by);
  const at = readInstant(value.at);
  return by !== null && at !== null ? { version: readPositiveInt(value.version), by, at } : null;
}

/** The highest version recorded per paper. */
export function readKnownVersions(doc: Y.Doc): Map<string, number> {
  const latest = new Map<string, number>();
  rootMap(doc, ROOT.paperVersions).forEach((_value, key) => {
    const [paperId, digits] = splitKey(key, 2) ?? [];
    const version = /^\d{1,6}$/.test(digits ?? '') ? Number(digits) : 0;
    if (paperId === undefined || version < 1) return;
    latest.set(paperId, Math.max(latest.get(paperId) ?? 0, version));
  });
  return latest;
}
